import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { checkWebhookAddress, checkWebhookUrl } from '../../domain/webhooks/target-guard.js';
import type { TransportResult, WebhookPost, WebhookTransport } from '../../ports/webhook-transport.js';

export interface GuardedTransportOptions {
  /** The whole attempt: lookup, connect, send, and reading the response (default 10 s). */
  timeoutMs?: number;
  /** Response bytes kept; the rest is not read (default 64 KiB). */
  maxResponseBytes?: number;
  /** APP_ENV=local: a receiver on this machine (127.0.0.1, ::1) is allowed. */
  allowLoopback?: boolean;
  /** Resolves a host name to its addresses (tests give a fake DNS). */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  userAgent?: string;
}

/**
 * Webhooks over node:http(s), guarded: the host name is resolved once, every address it
 * resolves to must be outside the refused ranges (one bad address refuses the URL), and the
 * socket connects to the first checked address through a `lookup` that returns only it, so a
 * DNS server that answers differently the second time (rebinding) is never asked again. TLS
 * still verifies the certificate against the host name. Redirects are not followed: a 3xx is
 * the answer.
 */
export class GuardedWebhookTransport implements WebhookTransport {
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly allowLoopback: boolean;
  private readonly resolve: (hostname: string) => Promise<{ address: string; family: number }[]>;
  private readonly userAgent: string;

  constructor(options: GuardedTransportOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 64 * 1024;
    this.allowLoopback = options.allowLoopback ?? false;
    this.resolve = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
    this.userAgent = options.userAgent ?? 'fw-webhooks';
  }

  async post(request: WebhookPost): Promise<TransportResult> {
    const checked = checkWebhookUrl(request.url);
    if (!checked.allowed) return { kind: 'refused', message: `URL refused: ${checked.reason}` };
    const url = checked.url;
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const deadline = AbortSignal.timeout(this.timeoutMs);

    let addresses: { address: string; family: number }[];
    if (isIP(hostname) !== 0) addresses = [{ address: hostname, family: isIP(hostname) }];
    else {
      try {
        addresses = await this.resolve(hostname);
      } catch (error) {
        return { kind: 'network-error', message: `DNS lookup of ${hostname} failed: ${messageOf(error)}` };
      }
    }
    if (addresses.length === 0) return { kind: 'network-error', message: `${hostname} has no address` };
    for (const { address } of addresses) {
      const verdict = checkWebhookAddress(address, this.allowLoopback);
      if (!verdict.allowed) return { kind: 'refused', message: `target refused: ${hostname} resolves to ${verdict.reason}` };
    }
    const target = addresses[0] as { address: string; family: number };
    if (deadline.aborted) return { kind: 'network-error', message: `timed out after ${this.timeoutMs} ms` };
    return this.send(url, target, request, deadline);
  }

  private send(url: URL, target: { address: string; family: number }, request: WebhookPost, deadline: AbortSignal): Promise<TransportResult> {
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all === true) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
      else callback(null, target.address, target.family);
    };
    const body = Buffer.from(request.body, 'utf8');
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<TransportResult>((resolve) => {
      let settled = false;
      const finish = (result: TransportResult) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      const req = send(
        url,
        {
          method: 'POST',
          lookup: pinned,
          headers: { ...request.headers, 'user-agent': this.userAgent, 'content-length': String(body.length) },
          signal: deadline,
        },
        (res: IncomingMessage) => {
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept >= this.maxResponseBytes) return;
            const room = this.maxResponseBytes - kept;
            chunks.push(chunk.subarray(0, room));
            kept += Math.min(room, chunk.length);
            // Enough read: the status is what counts, and a huge answer must not fill memory.
            if (kept >= this.maxResponseBytes) {
              finish({ kind: 'response', status, responseBody: Buffer.concat(chunks).toString('utf8') });
              res.destroy();
            }
          });
          res.on('end', () => finish({ kind: 'response', status, responseBody: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', () => finish({ kind: 'response', status, responseBody: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('error', (error) =>
        finish({ kind: 'network-error', message: deadline.aborted ? `timed out after ${this.timeoutMs} ms` : messageOf(error) }),
      );
      req.end(body);
    });
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
