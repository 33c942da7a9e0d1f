import { AccountUnlinked } from '../../domain/oauth/events.js';
import { unlinked, unlinkRefused } from '../../domain/oauth/unlink.js';
import type { UnlinkOutcome } from '../../domain/oauth/unlink.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { LinkedAccounts } from '../../ports/linked-accounts.js';
import type { OAuthProviders } from './oauth-providers.js';

export interface UnlinkProviderInput {
  /** The logged-in user (the route requires one). */
  readonly userId: number;
  /** The `{provider}` segment of `oauth.unlink`. */
  readonly provider: string;
}

export type UnlinkProviderResult =
  /** Not registered, or no credentials now: the route answers 404. */
  | { readonly kind: 'not-found' }
  | UnlinkOutcome;

/**
 * `oauth.unlink`. The rule (`decideUnlink`: a password, or another enabled provider linked) is
 * checked by the store in the same statement that deletes, so two unlinks racing for a
 * password-less user's two providers cannot both pass; this use case only words the answer,
 * in `decideUnlink`'s shape and with its notice codes, and tells `AccountUnlinked` when a row went.
 */
export class UnlinkProvider {
  constructor(
    private readonly providers: OAuthProviders,
    private readonly linkedAccounts: LinkedAccounts,
    private readonly events: EventBus,
  ) {}

  async execute(input: UnlinkProviderInput): Promise<UnlinkProviderResult> {
    if (this.providers.enabledOne(input.provider) === null) return { kind: 'not-found' };
    const result = await this.linkedAccounts.unlink(input.userId, input.provider, this.providers.enabledNames());
    if (result.kind !== 'unlinked') return unlinkRefused(result.kind);
    await this.events.publish(new AccountUnlinked(input.userId, input.provider));
    return unlinked(input.provider);
  }
}
