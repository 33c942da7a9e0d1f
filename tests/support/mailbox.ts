import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

/**
 * The log mailer's folder (`MAIL_URL=log:` writes every mail to `storage/mail/*.eml`) read as
 * a mailbox: each call returns the links of mails it has not returned before.
 */
export class LogMailbox {
  private readonly seen = new Set<string>();

  constructor(private readonly root: string) {}

  /** The path and query of every link in new mails with this subject to this address. */
  async newLinks(subject: string, address: string): Promise<string[]> {
    const folder = join(this.root, 'storage', 'mail');
    const links: string[] = [];
    for (const file of readdirSync(folder).sort()) {
      if (this.seen.has(file)) continue;
      const mail = await simpleParser(readFileSync(join(folder, file)));
      const to = Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? '');
      if (mail.subject !== subject || !to.includes(address)) continue;
      this.seen.add(file);
      const link = /https?:\/\/\S+/u.exec(mail.text ?? '')?.[0];
      if (link !== undefined) links.push(`${new URL(link).pathname}${new URL(link).search}`);
    }
    return links;
  }

  /** The token of the one new reset mail to this address. */
  async resetToken(address: string): Promise<string> {
    const links = await this.newLinks('Reset your password', address);
    if (links.length !== 1) throw new Error(`Expected one new reset mail to ${address}, found ${links.length}`);
    return /^\/reset-password\/([^/?]+)/u.exec(links[0] ?? '')?.[1] ?? '';
  }
}
