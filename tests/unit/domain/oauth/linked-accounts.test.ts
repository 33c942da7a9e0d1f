import { describe, expect, it } from 'vitest';
import { linkedAccountsOverview } from '../../../../domain/oauth/linked-accounts.js';
import type { EnabledProvider, LinkedAccountsOverview } from '../../../../domain/oauth/linked-accounts.js';

const enabled: EnabledProvider[] = [
  { name: 'provider_a', label: 'Google' },
  { name: 'provider_b', label: 'GitHub' },
];
const since = new Date('2026-01-02T03:04:05Z');

describe('a user\'s linked accounts: the enabled providers, linked or not, and whether Unlink is allowed', () => {
  const card = (over: Partial<Parameters<typeof linkedAccountsOverview>[0]>): LinkedAccountsOverview => linkedAccountsOverview({ providers: enabled, links: [], hasPassword: true, ...over });
  const unlinkedA = { name: 'provider_a', label: 'Google', linked: false, email: null, since: null };
  const unlinkedB = { name: 'provider_b', label: 'GitHub', linked: false, email: null, since: null };
  const linkedA = { ...unlinkedA, linked: true, email: 'ann@example.com', since };
  const linkedB = { ...unlinkedB, linked: true, email: null, since };

  it.each<[string, Parameters<typeof card>[0], LinkedAccountsOverview]>([
    [
      'each enabled provider in order, linked or not, with the address and since when; a password allows Unlink',
      { links: [{ provider: 'provider_a', email: 'ann@example.com', createdAt: since }] },
      { providers: [linkedA, unlinkedB], hasPassword: true, canUnlink: true },
    ],
    [
      'a password-less user with one provider cannot unlink it',
      { hasPassword: false, links: [{ provider: 'provider_a', email: 'ann@example.com', createdAt: since }] },
      { providers: [linkedA, unlinkedB], hasPassword: false, canUnlink: false },
    ],
    [
      'a password-less user with two providers can unlink either',
      {
        hasPassword: false,
        links: [
          { provider: 'provider_b', email: null, createdAt: since },
          { provider: 'provider_a', email: 'ann@example.com', createdAt: since },
        ],
      },
      { providers: [linkedA, linkedB], hasPassword: false, canUnlink: true },
    ],
    [
      'a link at a provider that lost its credentials is not shown and does not count',
      {
        hasPassword: false,
        links: [
          { provider: 'provider_a', email: 'ann@example.com', createdAt: since },
          { provider: 'provider_gone', email: null, createdAt: since },
        ],
      },
      { providers: [linkedA, unlinkedB], hasPassword: false, canUnlink: false },
    ],
  ])('%s', (_row, over, expected) => {
    expect(card(over)).toEqual(expected);
  });
});
