import { Credentials, readSetting } from '../../../domain/oauth/credentials.js';
import type { ProviderSettings } from '../../../domain/oauth/credentials.js';
import { checkEndpointUrl } from '../../../domain/oauth/endpoint-url.js';
import { Profile } from '../../../domain/oauth/profile.js';
import type { HttpClient } from '../../../ports/http-client.js';
import type { OAuth2Provider, ProviderToken } from '../../../ports/identity-provider.js';
import { SignInFailed } from '../../../ports/sign-in-protocol.js';

export interface ProviderBOptions {
  /** Default: PROVIDER_B_LABEL, else 'GitHub'. */
  readonly label?: string;
  /** Defaults: PROVIDER_B_AUTHORIZE_URL, PROVIDER_B_TOKEN_URL, PROVIDER_B_API_URL, else github.com's (GitHub Enterprise sets all three). */
  readonly authorizeUrl?: string;
  readonly tokenUrl?: string;
  readonly apiUrl?: string;
}

const NAME = 'provider_b';
const PREFIX = 'PROVIDER_B';
const SCOPES: readonly string[] = Object.freeze(['read:user', 'user:email']);
const DEFAULTS = {
  label: 'GitHub',
  authorizeUrl: 'https://github.com/login/oauth/authorize',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  apiUrl: 'https://api.github.com',
};

/**
 * `provider_b`: GitHub, plain OAuth 2.0 (no ID token). The profile is two API reads: `/user`
 * for the id, name and avatar, `/user/emails` for the address, because `/user` shows only a
 * public address and never says whether GitHub verified it.
 */
export const ProviderB = {
  /** Credentials from PROVIDER_B_CLIENT_ID and PROVIDER_B_CLIENT_SECRET, read whenever a request needs them. */
  fromConfig(settings: ProviderSettings): OAuth2Provider {
    return build(Credentials.fromConfig(PREFIX), settings, {});
  },

  /** Credentials in code (tests, or an app with its own secret store). */
  create(clientId: string, clientSecret: string, options: ProviderBOptions = {}): (settings: ProviderSettings) => OAuth2Provider {
    const credentials = Credentials.create(clientId, clientSecret);
    return (settings) => build(credentials, settings, options);
  },
};

function build(credentials: Credentials, settings: ProviderSettings, options: ProviderBOptions): OAuth2Provider {
  const label = options.label ?? readSetting(settings, `${PREFIX}_LABEL`) ?? DEFAULTS.label;
  const authorizeUrl = options.authorizeUrl ?? readSetting(settings, `${PREFIX}_AUTHORIZE_URL`) ?? DEFAULTS.authorizeUrl;
  const tokenUrl = options.tokenUrl ?? readSetting(settings, `${PREFIX}_TOKEN_URL`) ?? DEFAULTS.tokenUrl;
  const apiUrl = (options.apiUrl ?? readSetting(settings, `${PREFIX}_API_URL`) ?? DEFAULTS.apiUrl).replace(/\/+$/u, '');
  return {
    name: () => NAME,
    label: () => label,
    credentials: () => credentials,
    authorizeEndpoint: () => authorizeUrl,
    tokenEndpoint: () => tokenUrl,
    scopes: () => SCOPES,
    profile: (http, token) => githubProfile(http, token, apiUrl),
  };
}

async function githubProfile(http: HttpClient, token: ProviderToken, apiUrl: string): Promise<Profile> {
  // The bearer token goes only where a code or a secret may go: https, or http on loopback.
  const check = checkEndpointUrl(apiUrl);
  if (check.kind === 'refused') throw new SignInFailed(`provider_b profile: API URL refused (${check.reason})`);
  const [user, emails] = await Promise.all([getJson(http, token, `${apiUrl}/user`), getJson(http, token, `${apiUrl}/user/emails`)]);
  if (typeof user !== 'object' || user === null) throw new SignInFailed('provider_b profile: /user is not a JSON object');
  const fields = user as Record<string, unknown>;
  const id = fields['id'];
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw new SignInFailed('provider_b profile: /user has no usable id');
  const name = typeof fields['name'] === 'string' && fields['name'].trim() !== '' ? fields['name'] : fields['login'];
  return Profile.create(String(id))
    .email(verifiedPrimary(emails), true)
    .name(typeof name === 'string' ? name : null)
    .picture(typeof fields['avatar_url'] === 'string' ? fields['avatar_url'] : null);
}

/** The address GitHub sends mail to, when GitHub verified it; an unverified primary counts as none. */
function verifiedPrimary(emails: unknown): string | null {
  if (!Array.isArray(emails)) throw new SignInFailed('provider_b profile: /user/emails is not a JSON list');
  for (const entry of emails as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { email, primary, verified } = entry as Record<string, unknown>;
    if (primary === true && verified === true && typeof email === 'string') return email;
  }
  return null;
}

async function getJson(http: HttpClient, token: ProviderToken, url: string): Promise<unknown> {
  const path = new URL(url).pathname;
  let response: Response;
  try {
    response = await http.fetch(url, {
      method: 'GET',
      headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    });
  } catch (error) {
    throw new SignInFailed(`provider_b profile: GET ${path} failed (${error instanceof Error ? error.name : 'error'})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SignInFailed(`provider_b profile: GET ${path} answered ${response.status}`);
  }
  try {
    return await response.json();
  } catch {
    throw new SignInFailed(`provider_b profile: GET ${path} answered something other than JSON`);
  }
}
