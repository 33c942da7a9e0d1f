import { linkedAccountsOverview } from '../../domain/oauth/linked-accounts.js';
import type { LinkedAccountsOverview } from '../../domain/oauth/linked-accounts.js';
import type { User } from '../../domain/users/user.js';
import type { LinkedAccounts } from '../../ports/linked-accounts.js';
import type { OAuthProviders } from './oauth-providers.js';

export interface ShowLinkedAccountsInput {
  readonly user: User;
}

/**
 * What the 'Linked accounts' card of /account shows: the enabled providers, linked or not, and
 * whether Unlink is allowed (the page adapter names it for the template); and the user's linked
 * ones alone, for the confirm-password page's buttons.
 */
export class ShowLinkedAccounts {
  constructor(
    private readonly providers: OAuthProviders,
    private readonly linkedAccounts: LinkedAccounts,
  ) {}

  async execute(input: ShowLinkedAccountsInput): Promise<LinkedAccountsOverview> {
    const links = await this.linkedAccounts.listOfUser(input.user.id);
    return linkedAccountsOverview({
      providers: this.providers.enabledLabels(),
      links: links.map(({ provider, email, createdAt }) => ({ provider, email, createdAt })),
      hasPassword: input.user.hasPassword(),
    });
  }

  /**
   * The user's linked providers that are enabled now, in registration order: the buttons of the
   * confirm-password page ('Or confirm it's you with'). Only a provider account linked to this
   * user proves who they are, and a provider without credentials has no working button.
   */
  async linkedProviders(userId: number): Promise<string[]> {
    const linked = new Set((await this.linkedAccounts.listOfUser(userId)).map((link) => link.provider));
    return this.providers.enabledNames().filter((name) => linked.has(name));
  }
}
