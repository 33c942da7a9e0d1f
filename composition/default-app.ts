import type { Handler } from '../adapters/http/kernel/request-context.js';
import { Routes } from '../domain/http/routing/routes.js';
import type { AppOptions } from './app.js';
import { App } from './app.js';
import { TOKENS } from './tokens.js';
import { Auth } from './auth.js';
import { Audit } from './audit.js';
import { OAuth } from './oauth.js';
import { FrameworkError } from '../domain/shared/errors.js';

/**
 * The app that `npm start` serves: the framework with every built-in module registered, so a
 * newcomer sees it all at work: password accounts with the account page, social login with
 * `provider_a` and `provider_b` (their buttons appear once PROVIDER_*_CLIENT_ID and _SECRET are
 * set; `fwx oauth:dev-provider` gives a local one), and the activity log.
 */
export function createDefaultApp(options: AppOptions = {}): App {
  return createWelcomeApp(App.create(options).module(Auth.create().account()).module(OAuth.create().providerA().providerB()).module(Audit.create()));
}

/**
 * The welcome page and the demo seeder without the built-in modules: for tests and apps that
 * bring their own login (routes named `login`, `logout`… would clash with Auth's).
 */
export function createWelcomeApp(app: App = App.create()): App {
  return app.module({
    name: 'demo',
    // The welcome page; an app puts its own `/` in place of this module.
    routes: new Routes<Handler>().view('/', 'fw/home.html').name('home'),
    seeders: [
      {
        // A verified user to sign in with during development: test@example.com / password.
        name: 'demo-user',
        async run(services) {
          const result = await services.get(TOKENS.createUser).execute({
            name: 'Test User',
            email: 'test@example.com',
            password: 'password',
            verified: true,
          });
          if (result.kind === 'invalid') throw new FrameworkError('app.bad-seeder', `The demo seeder is wrong: ${result.field} ${result.reason}`);
        },
      },
    ],
  });
}
