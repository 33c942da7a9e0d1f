import type { MailComposerOptions } from 'nodemailer';
import type { MailMessage } from '../../ports/mailer.js';

/**
 * The message as nodemailer's composer takes it, the same for every mailer, so the `.eml` of
 * the log mailer is byte for byte the kind of message SMTP delivers. Nodemailer encodes the
 * headers (RFC 2047 for non-ASCII names, no raw line breaks from a user's name) and chooses
 * the transfer encoding of each body.
 */
export function nodemailerMessage(message: MailMessage, from: string): MailComposerOptions {
  const to = message.to.name === undefined ? message.to.address : { name: message.to.name, address: message.to.address };
  return { from, to, subject: message.subject, text: message.text, html: message.html };
}
