import { Credentials } from '../../../domain/oauth/credentials.js';
import { checkEndpointUrl } from '../../../domain/oauth/endpoint-url.js';
import { Profile } from '../../../domain/oauth/profile.js';
import { isProviderName } from '../../../domain/oauth/provider.js';
import type { HttpClient } from '../../../ports/http-client.js';
import type { OpenIdProvider, ProviderToken } from '../../../ports/identity-provider.js';
import { SignInFailed } from '../../../ports/sign-in-protocol.js';
import { MisuseError } from '../../../domain/shared/errors.js';

export interface OidcProviderOptions {
  /** Used in URLs and stored in `oauth_accounts`: never change it once in use. */
  readonly name: string;
  /** Shown on the button. */
  readonly label: string;
  /** The issuer identifier: `https://keycloak.example/realms/main`, `https://tenant.eu.auth0.com/`. */
  readonly issuer: string;
  /** `<PREFIX>_CLIENT_ID` and `<PREFIX>_CLIENT_SECRET` hold the credentials. */
  readonly prefix: string;
  /** `openid` is added when missing: without it no ID token comes back. Default: openid, email, profile. */
  readonly scopes?: readonly string[];
}

export const OPENID_SCOPES: readonly string[] = Object.freeze(['openid', 'email', 'profile']);

/** Any OpenID Connect provider (Keycloak, Auth0, …), found by discovery from its issuer. */
export const OidcProvider = {
  discover(options: OidcProviderOptions): OpenIdProvider {
    if (!isProviderName(options.name)) throw new MisuseError('oauth.bad-provider-name', `A provider name is 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit; got ${JSON.stringify(options.name)}`);
    const scopes = options.scopes ?? OPENID_SCOPES;
    return openIdProvider({
      name: options.name,
      label: options.label,
      issuer: options.issuer,
      credentials: Credentials.fromConfig(options.prefix),
      scopes: scopes.includes('openid') ? scopes : ['openid', ...scopes],
    });
  },
};

export interface OpenIdProviderData {
  readonly name: string;
  readonly label: string;
  readonly issuer: string;
  readonly credentials: Credentials;
  readonly scopes: readonly string[];
}

/** An OpenID provider is data plus the standard claims mapping; `provider_a` is one too. */
export function openIdProvider(data: OpenIdProviderData): OpenIdProvider {
  const scopes = Object.freeze([...data.scopes]);
  return {
    name: () => data.name,
    label: () => data.label,
    issuer: () => data.issuer,
    credentials: () => data.credentials,
    scopes: () => scopes,
    profile: (http, token) => openIdProfile(http, token, data.issuer),
  };
}

/**
 * The profile from the checked ID token's standard claims. An ID token without `email` (a
 * provider that puts it only at the userinfo endpoint) costs two requests: the discovery
 * document for the userinfo endpoint, then userinfo itself, whose `sub` must be the ID token's
 * (OpenID Connect Core §5.3.2) or the answer is someone else's.
 */
export async function openIdProfile(http: HttpClient, token: ProviderToken, issuer: string): Promise<Profile> {
  const claims = token.idTokenClaims;
  if (claims === null) throw new SignInFailed('profile: no ID token claims');
  if (typeof claims['email'] === 'string') return profileFromClaims(claims);
  const userinfo = await readUserinfo(http, token, issuer);
  if (userinfo['sub'] !== claims['sub']) throw new SignInFailed('profile: userinfo is about another subject than the ID token');
  return profileFromClaims({ ...userinfo, ...claims, email: userinfo['email'], email_verified: userinfo['email_verified'] });
}

/** `email_verified` counts only as the boolean `true`: a string "true" from a sloppy provider is no verification. */
export function profileFromClaims(claims: Readonly<Record<string, unknown>>): Profile {
  const sub = claims['sub'];
  let profile: Profile;
  try {
    profile = Profile.create(typeof sub === 'string' ? sub : '');
  } catch {
    throw new SignInFailed('profile: the ID token has no usable sub');
  }
  return profile
    .email(stringOrNull(claims['email']), claims['email_verified'] === true)
    .name(stringOrNull(claims['name']))
    .picture(stringOrNull(claims['picture']));
}

async function readUserinfo(http: HttpClient, token: ProviderToken, issuer: string): Promise<Record<string, unknown>> {
  const discoveryUrl = `${issuer.replace(/\/+$/u, '')}/.well-known/openid-configuration`;
  const discovery = await getJson(http, 'discovery', allowed('issuer', discoveryUrl), {});
  const endpoint = discovery['userinfo_endpoint'];
  if (typeof endpoint !== 'string') throw new SignInFailed('profile: no email in the ID token and no userinfo endpoint');
  // The bearer token goes only where a code or a secret may go: https, or http on loopback.
  return getJson(http, 'userinfo', allowed('userinfo endpoint', endpoint), { authorization: `Bearer ${token.accessToken}` });
}

async function getJson(http: HttpClient, what: string, url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await http.fetch(url, { method: 'GET', headers: { accept: 'application/json', ...headers } });
  } catch (error) {
    throw new SignInFailed(`profile: ${what} request failed (${error instanceof Error ? error.name : 'error'})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SignInFailed(`profile: ${what} answered ${response.status}`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SignInFailed(`profile: ${what} answer is not a JSON object`);
  return body as Record<string, unknown>;
}

function allowed(what: string, url: string): string {
  const check = checkEndpointUrl(url);
  if (check.kind === 'refused') throw new SignInFailed(`profile: ${what} refused (${check.reason})`);
  return check.href;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
