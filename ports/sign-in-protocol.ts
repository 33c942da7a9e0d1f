import type { ClientCredentials } from '../domain/oauth/credentials.js';
import type { IdentityProvider, ProviderToken } from './identity-provider.js';
import { FrameworkError } from '../domain/shared/errors.js';

/**
 * The OAuth 2.0 / OpenID Connect protocol as the sign-in use cases need it; openid-client does
 * it in `adapters/oauth`. Both calls go through the app's `HttpClient`.
 */
export interface SignInProtocol {
  /** The provider's authorization URL carrying `state`, the S256 challenge and (OpenID) the nonce. */
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  /**
   * Checks the callback (RFC 9207 `iss` when the provider advertises it), exchanges the code
   * with the verifier and, for OpenID providers, checks the ID token and its nonce. Throws
   * `SignInFailed` for anything that went wrong; the reason is for the log, never for the page.
   */
  redeem(request: CodeRedemption): Promise<ProviderToken>;
}

export interface AuthorizationRequest {
  readonly provider: IdentityProvider;
  readonly credentials: ClientCredentials;
  /** `{APP_URL}/auth/<provider>/callback`. */
  readonly redirectUri: string;
  readonly state: string;
  readonly codeChallenge: string;
  readonly nonce: string | null;
}

export interface CodeRedemption {
  readonly provider: IdentityProvider;
  readonly credentials: ClientCredentials;
  readonly redirectUri: string;
  /** The callback's full URL as the browser requested it (code, state, iss). */
  readonly callbackUrl: URL;
  readonly state: string;
  readonly codeVerifier: string;
  readonly nonce: string | null;
}

/** A sign-in broke at the provider or on the wire: the visitor reads 'try again', the log reads `reason`. */
export class SignInFailed extends FrameworkError {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('oauth.sign-in-failed', reason, options);
  }
}
