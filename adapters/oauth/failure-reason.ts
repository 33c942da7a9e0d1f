import { AuthorizationResponseError, ResponseBodyError, WWWAuthenticateChallengeError } from 'openid-client';
import { redactedReason } from '../../domain/oauth/log-reason.js';

/**
 * The `reason` of a `SignInFailed`, for the log: what broke, in a few words. Built from the
 * error's kind and the library's own (static) messages, never from a response body; then any
 * secret of the sign-in (code, verifier, client secret, token) that still shows up is cut out,
 * so a provider echoing the code in an error text cannot put it in the log.
 */
export function failureReason(stage: string, error: unknown, secrets: readonly (string | null | undefined)[]): string {
  return redactedReason(`${stage}: ${describe(error)}`, secrets, MAX_REASON_LENGTH);
}

/** Longer reasons are cut: a reason is one log line, not a dump. */
const MAX_REASON_LENGTH = 300;

// RFC 6749's error codes are %x20-21 / %x23-5B / %x5D-7E; anything else is not repeated verbatim.
const ERROR_CODE = /^[\u0020-\u0021\u0023-\u005b\u005d-\u007e]{1,64}$/u;

function describe(error: unknown): string {
  if (error instanceof ResponseBodyError) return `the provider answered ${error.status} ${errorCode(error.error)}`;
  if (error instanceof AuthorizationResponseError) return `the provider sent error ${errorCode(error.error)}`;
  if (error instanceof WWWAuthenticateChallengeError) return `the provider answered ${error.response.status} with a challenge`;
  const messages: string[] = [];
  let current: unknown = error;
  // The chain holds the useful part: openid-client's generic message, then the specific check,
  // then (for a network failure) the system error code such as ECONNREFUSED.
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current.name === 'TimeoutError') return [...messages, 'timed out'].join(': ');
    const code = (current as { code?: unknown }).code;
    const text = typeof code === 'string' && /^E[A-Z_]+$/u.test(code) ? code : current.message;
    if (text !== '' && !messages.includes(text)) messages.push(text);
    current = current.cause;
  }
  // openid-client puts the Response itself as the cause of 'unexpected HTTP response status code'.
  if (current instanceof Response) messages.push(`status ${current.status}`);
  // GitHub answers a bad code with 200 and `{"error": "bad_verification_code"}`; openid-client
  // then complains of a missing access_token and keeps the body as the cause. Its error code says more.
  const body = (current as { body?: { error?: unknown } } | undefined)?.body;
  if (typeof body === 'object' && body !== null && body.error !== undefined) messages.push(`error ${errorCode(body.error)}`);
  return messages.length > 0 ? messages.join(': ') : 'unknown error';
}

function errorCode(code: unknown): string {
  return typeof code === 'string' && ERROR_CODE.test(code) ? code : '(unreadable error code)';
}
