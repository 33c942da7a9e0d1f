import type { ClientCredentials, ProviderSettings } from '../../domain/oauth/credentials.js';
import { isProviderName } from '../../domain/oauth/provider.js';
import type { EnabledProvider } from '../../domain/oauth/linked-accounts.js';
import type { IdentityProvider, ProviderDefinition } from '../../ports/identity-provider.js';
import { MisuseError } from '../../domain/shared/errors.js';

/** A provider that has credentials now, with them resolved for this request. */
export interface ActiveProvider {
  readonly provider: IdentityProvider;
  readonly credentials: ClientCredentials;
}

/**
 * The providers registered with `OAuth.create().provider(…)`, in registration order. The list
 * is fixed at boot; whether each one is on is not: credentials are resolved on every call, since
 * the spec reads them 'when a request needs them', and a provider without both is off (no
 * button, its routes answer 404).
 */
export class OAuthProviders {
  private readonly registered: readonly { readonly name: string; readonly provider: IdentityProvider }[];

  constructor(
    definitions: readonly ProviderDefinition[],
    private readonly settings: ProviderSettings,
  ) {
    const seen = new Set<string>();
    this.registered = definitions.map((definition) => {
      const provider = typeof definition === 'function' ? definition(settings) : definition;
      // Read once: a name is stored in `oauth_accounts` and used in URLs, so it must not move.
      const name = provider.name();
      if (!isProviderName(name)) throw new MisuseError('oauth.bad-provider-name', `A provider name is letters, digits, '_', '.' and '-' (at most 64, starting with a letter or digit); got ${JSON.stringify(name)}`);
      // Two providers under one name would share URLs and rows: a setup mistake, caught at boot.
      if (seen.has(name)) throw new MisuseError('oauth.provider-twice', `The provider '${name}' is registered twice`);
      seen.add(name);
      return { name, provider };
    });
  }

  /** Every registered name, enabled or not (`fwx oauth:list`, diagnostics). */
  names(): string[] {
    return this.registered.map((entry) => entry.name);
  }

  /** The providers with credentials now, in registration order. */
  enabled(): ActiveProvider[] {
    return this.active().map(({ provider, credentials }) => ({ provider, credentials }));
  }

  /** The named provider if it is registered and has credentials now; null: its routes answer 404. */
  enabledOne(name: string): ActiveProvider | null {
    const entry = this.registered.find((candidate) => candidate.name === name);
    if (entry === undefined) return null;
    const credentials = entry.provider.credentials().resolve(this.settings);
    return credentials === null ? null : { provider: entry.provider, credentials };
  }

  /** The names of the enabled providers: what counts as a way in when unlinking. */
  enabledNames(): string[] {
    return this.active().map(({ name }) => name);
  }

  /** Name and label of each enabled provider: the template data's input (buttons, the account card). */
  enabledLabels(): EnabledProvider[] {
    return this.active().map(({ name, provider }) => ({ name, label: provider.label() }));
  }

  private active(): { name: string; provider: IdentityProvider; credentials: ClientCredentials }[] {
    return this.registered.flatMap(({ name, provider }) => {
      const credentials = provider.credentials().resolve(this.settings);
      return credentials === null ? [] : [{ name, provider, credentials }];
    });
  }
}
