import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FrameworkError } from '../../domain/shared/errors.js';

export interface DevClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUris: readonly string[];
}

export interface DevIdentityProviderOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly clients: readonly DevClient[];
  /** Whether the provider says it verified the address of a login; default: all but logins starting with 'unverified'. */
  readonly emailVerified?: (login: string) => boolean;
}

export interface DevIdentityProvider {
  /** `http://127.0.0.1:<port>`: what PROVIDER_A_ISSUER is set to. */
  readonly issuer: string;
  stop(): Promise<void>;
}

/** The part of oidc-provider used here; the package ships no types. */
interface OidcProviderModule {
  Provider: new (issuer: string, configuration: Record<string, unknown>) => { callback(): (req: IncomingMessage, res: ServerResponse) => void };
}

/** Lifetimes in seconds: short ones, a dev provider's artifacts are used at once. */
const TTL_SECONDS = { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 3600, Session: 86_400, Grant: 86_400 };

export const MISSING_PACKAGE = 'oauth:dev-provider needs the oidc-provider package (a development dependency): run npm install';

/**
 * A real OpenID Connect provider on 127.0.0.1 for development and end-to-end tests
 * (oidc-provider): discovery, signed ID tokens, PKCE (S256 only, required), RFC 9207 `iss` in
 * the authorization response. Any login name is accepted, with no password check: the login
 * `alice` is `alice@example.test`, a login with '@' is that address. Keys and sessions live in
 * memory and die with it.
 */
export async function startDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  const { Provider } = await loadOidcProvider();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: a provider that lets anyone in by name must not be reachable from the network.
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const emailVerified = options.emailVerified ?? ((login: string) => !login.startsWith('unverified'));
  try {
    const provider = new Provider(issuer, {
      clients: options.clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [...client.redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      })),
      findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => claimsOf(id, emailVerified(id)) }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Put the scopes' claims in the ID token, as Google does; the spec default sends them to userinfo only.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      jwks: { keys: [signingKey()] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      // Set, not left to the defaults, which print a notice each time one is used.
      ttl: TTL_SECONDS,
    });
    server.on('request', provider.callback());
  } catch (error) {
    await close(server);
    throw error;
  }
  return { issuer, stop: () => close(server) };
}

function claimsOf(login: string, verified: boolean): Record<string, unknown> {
  const email = login.includes('@') ? login : `${login}@example.test`;
  return { sub: login, email, email_verified: verified, name: login.split('@')[0] ?? login };
}

/** A fresh RSA key per start (RS256 is the ID token default): nothing signed by a previous run verifies. */
function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };
}

async function loadOidcProvider(): Promise<OidcProviderModule> {
  // A specifier in a variable: the package is a devDependency, so neither the compiler nor a
  // bundler should require it for the app; it is loaded only when a developer asks for it.
  const specifier = 'oidc-provider';
  try {
    return (await import(specifier)) as OidcProviderModule;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') throw new FrameworkError('oauth.dev-provider-missing', MISSING_PACKAGE, { cause: error });
    throw error;
  }
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Browsers keep connections alive; without this `close` waits for them to idle out.
    server.closeAllConnections();
  });
}
