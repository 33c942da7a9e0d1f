import { describe, expect, it } from 'vitest';
import { linkedAccountsCard, loginOptions, providerButtons } from '../../../../../adapters/http/oauth/oauth-view-data.js';
import type { LoginOptionsData } from '../../../../../adapters/http/oauth/oauth-view-data.js';
import type { EnabledProvider } from '../../../../../domain/oauth/linked-accounts.js';

const enabled: EnabledProvider[] = [
  { name: 'provider_a', label: 'Google' },
  { name: 'provider_b', label: 'GitHub' },
];
const redirectUrl = (name: string): string => `/auth/${name}/redirect`;
const buttonA = { name: 'provider_a', label: 'Google', url: '/auth/provider_a/redirect' };
const buttonB = { name: 'provider_b', label: 'GitHub', url: '/auth/provider_b/redirect' };
const since = new Date('2026-01-02T03:04:05Z');

describe("the spec's Template data table: fw/auth/login_options.html", () => {
  it.each<[string, Parameters<typeof loginOptions>[0], LoginOptionsData]>([
    ['login: page and one button per enabled provider (name, label, url)', { page: 'login', providers: enabled, redirectUrl }, { page: 'login', oauth_providers: [buttonA, buttonB] }],
    ['register: the same buttons', { page: 'register', providers: enabled, redirectUrl }, { page: 'register', oauth_providers: [buttonA, buttonB] }],
    [
      "confirm: only the user's linked providers, each asking ?intent=confirm",
      { page: 'confirm', providers: enabled, redirectUrl, linkedProviders: ['provider_b', 'provider_gone'] },
      { page: 'confirm', oauth_providers: [{ ...buttonB, url: '/auth/provider_b/redirect?intent=confirm' }] },
    ],
    ['confirm: a user with no linked provider gets no buttons', { page: 'confirm', providers: enabled, redirectUrl }, { page: 'confirm', oauth_providers: [] }],
    [
      'confirm: a URL that already has a query gets the intent added',
      { page: 'confirm', providers: enabled, redirectUrl: (n) => `/auth/${n}/redirect?x=1`, linkedProviders: ['provider_a'] },
      { page: 'confirm', oauth_providers: [{ ...buttonA, url: '/auth/provider_a/redirect?x=1&intent=confirm' }] },
    ],
    ['no provider has credentials: no buttons', { page: 'login', providers: [], redirectUrl }, { page: 'login', oauth_providers: [] }],
  ])('%s', (_row, input, expected) => {
    expect(loginOptions(input)).toEqual(expected);
  });

  it("every view receives oauth_providers: the providers that have credentials", () => {
    expect(providerButtons(enabled, redirectUrl)).toEqual([buttonA, buttonB]);
  });
});

describe("the spec's Template data table: oauth/section.html", () => {
  it('section.data: providers (name, label, link_url, linked, email, since), has_password, can_unlink, set_password_url', () => {
    const overview = {
      providers: [
        { name: 'provider_a', label: 'Google', linked: true, email: 'ann@example.com', since },
        { name: 'provider_b', label: 'GitHub', linked: false, email: null, since: null },
      ],
      hasPassword: false,
      canUnlink: true,
    };
    expect(linkedAccountsCard(overview, { redirectUrl, setPasswordUrl: '/account#password' })).toEqual({
      providers: [
        { name: 'provider_a', label: 'Google', link_url: '/auth/provider_a/redirect', linked: true, email: 'ann@example.com', since },
        { name: 'provider_b', label: 'GitHub', link_url: '/auth/provider_b/redirect', linked: false, email: null, since: null },
      ],
      has_password: false,
      can_unlink: true,
      set_password_url: '/account#password',
    });
  });
});
