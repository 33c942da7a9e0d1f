import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { MailMessage, Mailer } from '../../ports/mailer.js';
import { nodemailerMessage } from './nodemailer-message.js';

export interface LogMailerOptions {
  /** Where the `.eml` files go: `storage/mail` under the app's root. */
  folder: string;
  /** MAIL_FROM, e.g. `fw <no-reply@localhost>`. */
  from: string;
  logger: Logger;
  clock: Clock;
}

/**
 * `MAIL_URL=log:` (the default): nothing leaves the machine. Each message is written as a
 * complete RFC 5322 file, `storage/mail/<time>-<random>.eml`, that any mail client opens as it
 * would have arrived, and one log line says where it is.
 *
 * The log line names the recipient, the subject and the file, never a body: the bodies hold
 * password-reset tokens and signed links, and logs are kept and shipped far more widely than
 * the app's storage folder.
 */
export class LogMailer implements Mailer {
  constructor(private readonly options: LogMailerOptions) {}

  async send(message: MailMessage): Promise<void> {
    const now = this.options.clock.now();
    // nodemailer's composer is loaded with the first mail, not at start (it is most of nodemailer).
    const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
    const raw = await new MailComposer({ ...nodemailerMessage(message, this.options.from), date: now }).compile().build();
    await mkdir(this.options.folder, { recursive: true });
    // The time first so a folder listing is in order of sending; the random part keeps two
    // messages of the same millisecond (or of two processes) apart.
    const file = join(this.options.folder, `${now.toISOString().replace(/[:.]/gu, '-')}-${randomBytes(4).toString('hex')}.eml`);
    // Owner-only and never overwritten: the file holds live tokens.
    await writeFile(file, raw, { mode: 0o600, flag: 'wx' });
    this.options.logger.info('mail written to a file (MAIL_URL=log:)', { to: message.to.address, subject: message.subject, file });
  }
}
