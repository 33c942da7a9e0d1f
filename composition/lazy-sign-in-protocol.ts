import type { HttpClient } from '../ports/http-client.js';
import type { AuthorizationRequest, CodeRedemption, SignInProtocol } from '../ports/sign-in-protocol.js';
import type { ProviderToken } from '../ports/identity-provider.js';

/**
 * The OAuth/OpenID protocol (openid-client, oauth4webapi, jose), loaded on the first sign-in
 * with a provider rather than at start: most processes of an app never start one, and the
 * libraries stay out of their memory.
 */
export class LazySignInProtocol implements SignInProtocol {
  private loaded: Promise<SignInProtocol> | null = null;

  constructor(private readonly http: HttpClient) {}

  async authorizationUrl(request: AuthorizationRequest): Promise<URL> {
    return (await this.protocol()).authorizationUrl(request);
  }

  async redeem(request: CodeRedemption): Promise<ProviderToken> {
    return (await this.protocol()).redeem(request);
  }

  private protocol(): Promise<SignInProtocol> {
    this.loaded ??= import('../adapters/oauth/openid-client-protocol.js').then(({ OpenIdClientProtocol }) => new OpenIdClientProtocol(this.http));
    return this.loaded;
  }
}
