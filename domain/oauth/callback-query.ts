/**
 * The query of `oauth.callback`, read before anything else happens. Values arrive as the HTTP
 * layer parsed them: absent, a string, or a list when repeated. A repeated parameter is a
 * forgery or a broken client, never something to pick one value from.
 */
export interface CallbackQuery {
  readonly code?: unknown;
  readonly state?: unknown;
  readonly error?: unknown;
  readonly iss?: unknown;
}

export type CallbackAnswer =
  | { readonly kind: 'code'; readonly code: string }
  /** RFC 6749 §4.1.2.1: the person said no. */
  | { readonly kind: 'denied' }
  /** Another `error` from the provider, or neither a code nor an error. */
  | { readonly kind: 'failed'; readonly detail: string };

export interface ReadCallback {
  /** Handed to `takePendingSignIn`, which refuses anything but a state this app made. */
  readonly state: unknown;
  readonly answer: CallbackAnswer;
  /** RFC 9207's `iss`, when the provider sent one. */
  readonly iss: string | null;
}

/** Codes are short opaque strings; one this long is junk, not worth a round trip to the token endpoint. */
export const CODE_MAX_LENGTH = 2048;

// Printable ASCII only (RFC 6749 §A.11: VSCHAR).
const CODE = /^[\u0020-\u007e]+$/u;
// The error codes of RFC 6749 are `%x20-21 / %x23-5B / %x5D-7E`; anything else is not logged verbatim.
const ERROR_CODE = /^[\u0020-\u0021\u0023-\u005b\u005d-\u007e]{1,64}$/u;

export function readCallbackQuery(query: CallbackQuery): ReadCallback {
  const iss = typeof query.iss === 'string' ? query.iss : null;
  return { state: query.state, answer: answerOf(query), iss };
}

function answerOf(query: CallbackQuery): CallbackAnswer {
  // An error wins over a code: a provider that sent both is broken, and an error exchanges nothing.
  if (query.error !== undefined) {
    if (query.error === 'access_denied') return { kind: 'denied' };
    return { kind: 'failed', detail: typeof query.error === 'string' && ERROR_CODE.test(query.error) ? `provider error ${query.error}` : 'provider error (unreadable)' };
  }
  const code = query.code;
  if (typeof code !== 'string' || code.length > CODE_MAX_LENGTH || !CODE.test(code)) return { kind: 'failed', detail: 'no usable code' };
  return { kind: 'code', code };
}

/**
 * RFC 9207: when the provider advertises `authorization_response_iss_parameter_supported`, the
 * callback's `iss` must be there and equal its issuer (simple string comparison, §2.4), which
 * stops a mix-up between providers. When it does not advertise it, an `iss` that is present
 * must still be this issuer's: a different one names another provider.
 */
export function issuerAccepted(input: { advertised: boolean; expected: string; received: string | null }): boolean {
  if (input.received === null) return !input.advertised;
  return input.received === input.expected;
}
