import type { Notice, UnlinkRefusalReason } from './errors.js';

/**
 * The unlink rows of the spec's 'Link state of a provider account' table. Unlinking never
 * leaves a user without a way to log in: a password, or another linked provider that is
 * enabled now. A link at a provider whose credentials are gone is no way in today, so it does
 * not count.
 */
export interface UnlinkFacts {
  readonly provider: string;
  readonly hasPassword: boolean;
  /** The providers the user has accounts at, as stored. */
  readonly linkedProviders: readonly string[];
  /** The providers that have credentials in this app. */
  readonly enabledProviders: readonly string[];
}

export type UnlinkOutcome =
  /** The link goes; `AccountUnlinked` is told. */
  | { readonly kind: 'unlinked'; readonly provider: string; readonly notice: Notice }
  /** Nothing changes. */
  | { readonly kind: 'refused'; readonly reason: UnlinkRefusalReason; readonly notice: Notice };

export function decideUnlink(facts: UnlinkFacts): UnlinkOutcome {
  const refuse = (reason: UnlinkRefusalReason): UnlinkOutcome => unlinkRefused(reason);
  if (!facts.linkedProviders.includes(facts.provider)) return refuse('not-linked');
  const others = facts.linkedProviders.filter((name) => name !== facts.provider && facts.enabledProviders.includes(name));
  if (!facts.hasPassword && others.length === 0) return refuse('only-way-to-log-in');
  return unlinked(facts.provider);
}

export function unlinked(provider: string): UnlinkOutcome {
  return { kind: 'unlinked', provider, notice: { level: 'success', code: 'unlinked' } };
}

/** The refusal's notice code is its reason: each says what to do next. */
export function unlinkRefused(reason: UnlinkRefusalReason): UnlinkOutcome {
  return { kind: 'refused', reason, notice: { level: 'error', code: reason } };
}

/**
 * The card's `can_unlink`: whether Unlink would be accepted for a linked, enabled provider.
 * True with a password, or with two enabled providers linked (either may go).
 */
export function canUnlink(facts: Omit<UnlinkFacts, 'provider'>): boolean {
  const usable = new Set(facts.linkedProviders.filter((name) => facts.enabledProviders.includes(name)));
  return facts.hasPassword || usable.size >= 2;
}
