import type { MailMessage, Mailer } from '../../../ports/mailer.js';
import type { RequestInspector } from './request-inspector.js';

/** The app's mailer, telling the request inspector of each message it hands over. */
export class RecordingMailer implements Mailer {
  constructor(
    readonly inner: Mailer,
    private readonly inspector: RequestInspector,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.inner.send(message);
    this.inspector.recordMail(message.to.name === undefined ? message.to.address : `${message.to.name} <${message.to.address}>`, message.subject);
  }
}
