/** A message ready to send: both bodies rendered, addresses checked by the caller. */
export interface MailMessage {
  to: { address: string; name?: string };
  subject: string;
  html: string;
  text: string;
}

/**
 * Outgoing mail. The log mailer (development: the log and `storage/mail/*.eml`) and SMTP
 * (`MAIL_URL`) sit behind it. `send` resolves when the message is handed over.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
