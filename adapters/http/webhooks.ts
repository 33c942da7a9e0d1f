import { hmacSha256Matches } from '../../domain/webhooks/webhook-signature.js';
import { MisuseError } from '../../domain/shared/errors.js';

/** What a webhook's signature check sees: the headers and the body's bytes as they arrived. */
export interface WebhookRequest {
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/**
 * `App.webhook(name, verifier)`: true lets the request through to the handler; false answers
 * 403. A verifier that throws is a server error (500), never a pass.
 */
export type WebhookVerifier = (request: WebhookRequest) => boolean | Promise<boolean>;

export interface HmacWebhookOptions {
  /** The header carrying the signature, e.g. `X-Hub-Signature-256`. */
  header: string;
  /** The secret shared with the sender. */
  secret: string | Buffer;
  /** Text before the digest, e.g. `sha256=`. */
  prefix?: string;
  /** How the digest is written: `hex` (default) or `base64`. */
  encoding?: 'hex' | 'base64';
}

/**
 * The usual check: the header holds the HMAC-SHA256 of the raw body with the shared secret.
 *
 *     app.webhook('github', hmacSha256Webhook({ header: 'X-Hub-Signature-256', prefix: 'sha256=', secret: config.env('GITHUB_WEBHOOK_SECRET') }));
 *
 * A header sent twice is refused: which of the two would count is ambiguous.
 */
export function hmacSha256Webhook(options: HmacWebhookOptions): WebhookVerifier {
  const header = options.header.toLowerCase();
  if (header.trim() === '') throw new MisuseError('webhooks.bad-signature-options', 'hmacSha256Webhook needs the name of the signature header');
  if (options.secret.length === 0) throw new MisuseError('webhooks.bad-signature-options', `hmacSha256Webhook (${options.header}) needs a non-empty secret`);
  const prefix = options.prefix ?? '';
  const encoding = options.encoding ?? 'hex';
  return (request) => {
    const presented = request.headers[header];
    return hmacSha256Matches({ body: request.body, secret: options.secret, presented: Array.isArray(presented) ? undefined : presented, prefix, encoding });
  };
}
