import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { FrameworkError } from '../../domain/shared/errors.js';
import type { MailMessage, Mailer } from '../../ports/mailer.js';
import { nodemailerMessage } from './nodemailer-message.js';

export interface SmtpMailerOptions {
  /**
   * MAIL_URL: `smtp://user:pass@host:587` upgrades to TLS with STARTTLS when the server offers
   * it, `smtps://user:pass@host:465` speaks TLS from the first byte. Without a port, 587 and
   * 465. Percent-encode `@`, `:` and `/` in the user name and password.
   */
  url: string;
  /** MAIL_FROM, e.g. `Acme <no-reply@acme.example>`. */
  from: string;
}

/**
 * Delivery through an SMTP server (nodemailer), one connection per message: the Auth module
 * sends a few mails an hour, and a pooled connection would only sit idle and time out.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  /** Where mail goes, without the credentials, for error messages. */
  private readonly server: string;
  private readonly password: string;

  constructor(private readonly options: SmtpMailerOptions) {
    const url = new URL(options.url);
    const secure = url.protocol === 'smtps:';
    this.server = `${url.protocol}//${url.hostname}:${url.port === '' ? (secure ? 465 : 587) : url.port}`;
    this.password = safeDecode(url.password);
    this.transport = nodemailer.createTransport({
      url: options.url,
      // Nodemailer waits two minutes for a connection and ten for a stalled socket; a visitor
      // asking for a reset link should get an error well before the request times out.
      // Query parameters of MAIL_URL (`?connectionTimeout=30000`) still win.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail(nodemailerMessage(message, this.options.from));
    } catch (error) {
      throw new FrameworkError('mail.send-failed', `Mail could not be sent through ${this.server}: ${this.reason(error)}`, { cause: error });
    }
  }

  /** Closes the transport (at shutdown). A message being sent still finishes. */
  close(): void {
    this.transport.close();
  }

  /** Nodemailer's own wording (with its code), which names no credentials; scrubbed anyway. */
  private reason(error: unknown): string {
    const text = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    const reason = typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
    return this.password === '' ? reason : reason.split(this.password).join('[secret]');
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
