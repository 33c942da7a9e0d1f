import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideCallback } from '../../../../domain/oauth/callback-outcome.js';
import { AccountLinked, AccountUnlinked, auditEntry } from '../../../../domain/oauth/events.js';
import { canUnlink, decideUnlink } from '../../../../domain/oauth/unlink.js';
import type { UnlinkFacts, UnlinkOutcome } from '../../../../domain/oauth/unlink.js';
import { facts, linkBy, user } from './callback-facts.js';

const BOTH = ['provider_a', 'provider_b'];
const unlinked: UnlinkOutcome = { kind: 'unlinked', provider: 'provider_a', notice: { level: 'success', code: 'unlinked' } };
const onlyWay: UnlinkOutcome = {
  kind: 'refused',
  reason: 'only-way-to-log-in',
  notice: { level: 'error', code: 'only-way-to-log-in' },
};

describe("the spec's 'Link state of a provider account' table", () => {
  it('unlinked → callback (sign-in or Link), rows above allow it → linked; AccountLinked; log entry oauth.linked', () => {
    for (const input of [facts({ userWithEmail: user(5) }), facts(), facts({ purpose: linkBy(3), visitor: user(3) })]) {
      expect(['link', 'link-and-log-in', 'register']).toContain(decideCallback(input).kind);
    }
    expect(auditEntry(new AccountLinked(5, 'provider_a'))).toEqual({ action: 'oauth.linked', userId: 5, data: { provider: 'provider_a' } });
  });

  it.each<[string, UnlinkFacts, UnlinkOutcome]>([
    ['linked → oauth.unlink by the owner, who has a password → unlinked', { provider: 'provider_a', hasPassword: true, linkedProviders: ['provider_a'], enabledProviders: BOTH }, unlinked],
    ['linked → oauth.unlink by the owner, who has another linked provider → unlinked', { provider: 'provider_a', hasPassword: false, linkedProviders: BOTH, enabledProviders: BOTH }, unlinked],
    ["linked → oauth.unlink of the user's only provider, no password → linked (refused), nothing changes", { provider: 'provider_a', hasPassword: false, linkedProviders: ['provider_a'], enabledProviders: BOTH }, onlyWay],
    // Not in the table:
    [
      'a second link at a provider that lost its credentials is no way in today: refused',
      { provider: 'provider_a', hasPassword: false, linkedProviders: BOTH, enabledProviders: ['provider_a'] },
      onlyWay,
    ],
    [
      'a provider the user has no account at: refused, nothing changes',
      { provider: 'provider_b', hasPassword: true, linkedProviders: ['provider_a'], enabledProviders: BOTH },
      { kind: 'refused', reason: 'not-linked', notice: { level: 'error', code: 'not-linked' } },
    ],
  ])('%s', (_row, input, expected) => {
    expect(decideUnlink(input)).toEqual(expected);
  });

  it('the unlink rows log oauth.unlinked with the provider', () => {
    expect(auditEntry(new AccountUnlinked(5, 'provider_b'))).toEqual({ action: 'oauth.unlinked', userId: 5, data: { provider: 'provider_b' } });
  });

  const provider = fc.constantFrom('provider_a', 'provider_b', 'provider_c');
  const unlinkFacts = fc.record({
    provider,
    hasPassword: fc.boolean(),
    linkedProviders: fc.uniqueArray(provider, { maxLength: 3 }),
    enabledProviders: fc.uniqueArray(provider, { maxLength: 3 }),
  });

  it('Authentication rule 5: unlinking never leaves a user without a way to log in', () => {
    fc.assert(
      fc.property(unlinkFacts, (f) => {
        if (decideUnlink(f).kind !== 'unlinked') return;
        const left = f.linkedProviders.filter((p) => p !== f.provider && f.enabledProviders.includes(p));
        expect(f.hasPassword || left.length > 0).toBe(true);
        expect(f.linkedProviders).toContain(f.provider);
      }),
    );
  });

  it("the card's can_unlink says exactly whether Unlink of a linked, enabled provider is accepted", () => {
    fc.assert(
      fc.property(unlinkFacts, (f) => {
        fc.pre(f.linkedProviders.includes(f.provider) && f.enabledProviders.includes(f.provider));
        expect(canUnlink(f)).toBe(decideUnlink(f).kind === 'unlinked');
      }),
    );
  });
});
