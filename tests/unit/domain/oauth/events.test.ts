import { describe, expect, it } from 'vitest';
import { AccountLinked, AccountUnlinked, auditEntry, LoggedInWith } from '../../../../domain/oauth/events.js';
import type { OAuthEvent } from '../../../../domain/oauth/events.js';

describe("the spec's Events table", () => {
  it.each<[string, OAuthEvent, Record<string, unknown>, string]>([
    ['AccountLinked: a provider account was linked to a user', new AccountLinked(5, 'provider_a'), { userId: 5, provider: 'provider_a' }, 'oauth.linked'],
    ['AccountUnlinked: a user unlinked a provider', new AccountUnlinked(5, 'provider_a'), { userId: 5, provider: 'provider_a' }, 'oauth.unlinked'],
    ['LoggedInWith: a user logged in with a provider', new LoggedInWith(5, 'provider_b', false), { userId: 5, provider: 'provider_b', secondStep: false }, 'oauth.login'],
    ['LoggedInWith: second_step is true when the login waits for a second step', new LoggedInWith(5, 'provider_b', true), { userId: 5, provider: 'provider_b', secondStep: true }, 'oauth.login'],
  ])('%s', (_row, event, fields, action) => {
    // Exactly these fields: never a token, a code or a state.
    expect({ ...event }).toEqual(fields);
    expect(auditEntry(event)).toEqual({ action, userId: 5, data: { provider: fields['provider'] } });
  });

  it('refuses a plain object that only looks like an event', () => {
    expect(() => auditEntry({ userId: 1, provider: 'x' })).toThrow(TypeError);
  });
});
