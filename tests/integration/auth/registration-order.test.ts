import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { AccountLinked, Auth, LoggedIn, LoggedInWith, OAuth, ProviderB, Registered } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { fakeProviderB } from '../../support/fake-provider-b.js';
import { register, socialSignIn } from '../../support/flows.js';

const dir = useTempDir('fw-registration-order-');

/**
 * A new account tells the app the same things in the same order whichever way it was made:
 * `Auth.onRegistered` first (the app finishes setting the account up), then `Registered`, then
 * the login's `LoggedIn` (docs/decisions.md, 'onRegistered before Registered').
 */
describe('sign-up by the register form and by a provider', () => {
  /** What happened, in order, per address: the hook's call and the events. */
  const told = new Map<string, string[]>();
  const emails = new Map<number, string>();
  const tell = (email: string | undefined, what: string): void => {
    if (email === undefined) throw new Error(`${what} for a user no hook or Registered named`);
    told.set(email, [...(told.get(email) ?? []), what]);
  };
  let server: TestServer;

  beforeAll(async () => {
    const testApp = TestApp.create({
      root: join(dir(), 'app'),
      clock: new FixedClock('2026-06-01T08:00:00Z'),
      environment: { DATABASE_URL: `sqlite:${join(dir(), 'db.sqlite')}`, MAIL_URL: 'log:', APP_URL: 'http://localhost' },
      build: (options) =>
        createWelcomeApp(
          App.create(options)
            .module(Auth.create().onRegistered((registration) => tell(registration.email, 'onRegistered')))
            .module(OAuth.create().provider(ProviderB.create('client-b', 'secret-b'))),
        )
          .listen(Registered, (e) => {
            emails.set(e.userId, e.email);
            tell(e.email, 'Registered');
          })
          .listen(AccountLinked, (e) => tell(emails.get(e.userId), 'AccountLinked'))
          .listen(LoggedInWith, (e) => tell(emails.get(e.userId), 'LoggedInWith'))
          .listen(LoggedIn, (e) => tell(emails.get(e.userId), 'LoggedIn')),
    });
    fakeProviderB(testApp.fakeHttp(), [{ id: 301, email: 'social-order@example.com', verified: true, name: 'Social Order' }]);
    server = await testApp.serve();
  });
  afterAll(() => server.stop());

  it('the register form: onRegistered, then Registered, then LoggedIn', async () => {
    const answer = await register(server.client(), { name: 'Form Order', email: 'form-order@example.com' });
    expect([answer.status, answer.location]).toEqual([303, '/']);
    expect(told.get('form-order@example.com')).toEqual(['onRegistered', 'Registered', 'LoggedIn']);
  });

  it('a provider: the same order, with the link and the provider login between Registered and LoggedIn', async () => {
    const { back } = await socialSignIn(server.client(), 'provider_b', 'code-301');
    expect([back.status, back.location]).toEqual([303, '/']);
    expect(told.get('social-order@example.com')).toEqual(['onRegistered', 'Registered', 'AccountLinked', 'LoggedInWith', 'LoggedIn']);
    // What both ways share comes in one order.
    const shared = (email: string) => (told.get(email) ?? []).filter((what) => ['onRegistered', 'Registered', 'LoggedIn'].includes(what));
    expect(shared('social-order@example.com')).toEqual(shared('form-order@example.com'));
  });
});
