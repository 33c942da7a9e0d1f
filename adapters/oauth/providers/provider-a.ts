import { Credentials, readSetting } from '../../../domain/oauth/credentials.js';
import type { ProviderSettings } from '../../../domain/oauth/credentials.js';
import type { OpenIdProvider } from '../../../ports/identity-provider.js';
import { OPENID_SCOPES, openIdProvider } from './oidc-provider.js';

export interface ProviderAOptions {
  /** Default: PROVIDER_A_ISSUER, else Google's. `fwx oauth:dev-provider` prints the local one. */
  readonly issuer?: string;
  /** Default: PROVIDER_A_LABEL, else 'Google'. */
  readonly label?: string;
}

const NAME = 'provider_a';
const PREFIX = 'PROVIDER_A';
const DEFAULT_ISSUER = 'https://accounts.google.com';
const DEFAULT_LABEL = 'Google';

/**
 * `provider_a`: Google by default, or any OpenID Connect issuer through PROVIDER_A_ISSUER.
 * Endpoints and keys come from the issuer's discovery document; the profile is the checked
 * ID token's `sub`, `email`, `email_verified`, `name` and `picture`.
 */
export const ProviderA = {
  /** Credentials from PROVIDER_A_CLIENT_ID and PROVIDER_A_CLIENT_SECRET, read whenever a request needs them. */
  fromConfig(settings: ProviderSettings): OpenIdProvider {
    return build(Credentials.fromConfig(PREFIX), settings, {});
  },

  /** Credentials in code (tests, or an app with its own secret store). */
  create(clientId: string, clientSecret: string, options: ProviderAOptions = {}): (settings: ProviderSettings) => OpenIdProvider {
    const credentials = Credentials.create(clientId, clientSecret);
    return (settings) => build(credentials, settings, options);
  },
};

function build(credentials: Credentials, settings: ProviderSettings, options: ProviderAOptions): OpenIdProvider {
  return openIdProvider({
    name: NAME,
    label: options.label ?? readSetting(settings, `${PREFIX}_LABEL`) ?? DEFAULT_LABEL,
    issuer: options.issuer ?? readSetting(settings, `${PREFIX}_ISSUER`) ?? DEFAULT_ISSUER,
    credentials,
    scopes: OPENID_SCOPES,
  });
}
