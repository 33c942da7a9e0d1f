import { canUnlink } from './unlink.js';

/** A provider that has credentials now: its stored name and the label its button shows. */
export interface EnabledProvider {
  readonly name: string;
  readonly label: string;
}

/** A row of `oauth_accounts` as the overview needs it. */
export interface StoredLink {
  readonly provider: string;
  /** The address the provider gave when it was linked or last used. */
  readonly email: string | null;
  /** When it was linked. */
  readonly createdAt: Date;
}

export interface ProviderLinkState {
  readonly name: string;
  readonly label: string;
  readonly linked: boolean;
  readonly email: string | null;
  /** When it was linked; null while unlinked. */
  readonly since: Date | null;
}

/** A user's standing with the enabled providers: what the 'Linked accounts' card is made from. */
export interface LinkedAccountsOverview {
  readonly providers: readonly ProviderLinkState[];
  readonly hasPassword: boolean;
  /** Whether Unlink is allowed (a password, or two providers linked). */
  readonly canUnlink: boolean;
}

/**
 * One entry per enabled provider, in the order registered. A link at a provider that has lost
 * its credentials is not listed, since its routes answer 404; it also does not count for
 * `canUnlink`.
 */
export function linkedAccountsOverview(input: { providers: readonly EnabledProvider[]; links: readonly StoredLink[]; hasPassword: boolean }): LinkedAccountsOverview {
  const providers = input.providers.map(({ name, label }): ProviderLinkState => {
    const link = input.links.find((l) => l.provider === name);
    return { name, label, linked: link !== undefined, email: link?.email ?? null, since: link?.createdAt ?? null };
  });
  const allowed = canUnlink({
    hasPassword: input.hasPassword,
    linkedProviders: input.links.map((l) => l.provider),
    enabledProviders: input.providers.map((p) => p.name),
  });
  return { providers, hasPassword: input.hasPassword, canUnlink: allowed };
}
