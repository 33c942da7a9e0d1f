import type { Credentials, ProviderSettings } from '../domain/oauth/credentials.js';
import type { Profile } from '../domain/oauth/profile.js';
import type { HttpClient } from './http-client.js';

/**
 * The spec's `Provider`: one external identity provider. The module does the authorization
 * URL, `state`, PKCE and the code exchange; a provider says where its endpoints are, which
 * scopes it asks for, and how to read a profile with the token.
 *
 * Two shapes:
 * - `OAuth2Provider` names its endpoints (`authorizeEndpoint()`, `tokenEndpoint()`), like the
 *   spec's trait (GitHub's shape, `provider_b`);
 * - `OpenIdProvider` names an issuer instead; the endpoints come from its discovery document,
 *   and the ID token is checked (signature, `iss`, `aud`, expiry, nonce) before `profile()` runs
 *   (`provider_a`, `OidcProvider.discover`).
 */
interface ProviderBase {
  /** Used in URLs and stored in `oauth_accounts`: never changed once in use. */
  name(): string;
  /** Shown on buttons. */
  label(): string;
  credentials(): Credentials;
  scopes(): readonly string[];
  /** Reads the person's profile once; `token.accessToken` is the bearer value. */
  profile(http: HttpClient, token: ProviderToken): Promise<Profile>;
}

export interface OAuth2Provider extends ProviderBase {
  authorizeEndpoint(): string;
  tokenEndpoint(): string;
  /** For a provider whose code exchange differs from the standard request. */
  exchange?(http: HttpClient, request: CodeExchange): Promise<ProviderToken>;
}

export interface OpenIdProvider extends ProviderBase {
  /** The issuer whose `/.well-known/openid-configuration` gives the endpoints and keys. */
  issuer(): string;
}

export type IdentityProvider = OAuth2Provider | OpenIdProvider;

export function isOpenIdProvider(provider: IdentityProvider): provider is OpenIdProvider {
  return typeof (provider as Partial<OpenIdProvider>).issuer === 'function';
}

/**
 * What `OAuth.create().provider(…)` takes: a provider, or a function that builds one from the
 * app's settings once it has booted (`ProviderA.create(id, secret)` reads `PROVIDER_A_ISSUER`).
 */
export type ProviderDefinition = IdentityProvider | ((settings: ProviderSettings) => IdentityProvider);

/** What the token endpoint answered, held for the one profile read and then dropped. */
export interface ProviderToken {
  readonly accessToken: string;
  readonly tokenType: string;
  /** The checked ID token's claims (OpenID providers); null for plain OAuth 2.0. */
  readonly idTokenClaims: Readonly<Record<string, unknown>> | null;
}

/** The standard request a custom `exchange` replaces. */
export interface CodeExchange {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly code: string;
  readonly redirectUri: string;
  readonly codeVerifier: string;
}
