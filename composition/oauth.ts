import type { Container } from 'inversify';
import type { CliCommand } from '../adapters/cli/command.js';
import { oauthDevProviderCommand } from '../adapters/cli/commands/oauth-dev-provider.js';
import { oauthAccountCommands } from '../adapters/cli/commands/oauth-accounts.js';
import { oauthRoutes } from '../adapters/http/oauth/oauth-routes.js';
import type { OAuthServices } from '../adapters/http/oauth/oauth-routes.js';
import type { Handler, RequestContext } from '../adapters/http/kernel/request-context.js';
import { startDevIdentityProvider } from '../adapters/oauth/dev-identity-provider.js';
import { ProviderA } from '../adapters/oauth/providers/provider-a.js';
import { ProviderB } from '../adapters/oauth/providers/provider-b.js';
import { linkedAccountsCard, loginOptions, providerButtons } from '../adapters/http/oauth/oauth-view-data.js';
import type { Routes } from '../domain/http/routing/routes.js';
import type { ProviderDefinition } from '../ports/identity-provider.js';
import { Auth } from './auth.js';
import { oauthArea } from './bindings/oauth.js';
import type { Config } from './config.js';
import type { Module, ModuleHost } from './module.js';
import { servicesFrom } from './request-services.js';
import type { AppServices } from './services.js';
import { TOKENS } from './tokens.js';
import { MisuseError } from '../domain/shared/errors.js';

const OAUTH_SERVICES = {
  startSignIn: TOKENS.startSignIn,
  completeSignIn: TOKENS.completeSignIn,
  unlinkProvider: TOKENS.unlinkProvider,
  completeLogin: TOKENS.completeLogin,
} as const;

const servicesOf = (ctx: RequestContext) => servicesFrom<OAuthServices>(ctx, OAUTH_SERVICES);

/**
 * Social login as a module (spec 000): `app.module(Auth.create().account()).module(OAuth.create().providerA().providerB())`.
 * Registered after `Auth`, whose settings it follows (registration open or closed, where a
 * login lands, `onRegistered`) and whose account page gets the 'Linked accounts' card.
 * A provider without credentials is off: no button, and its three routes answer 404.
 */
export class OAuth implements Module {
  readonly name = 'oauth';
  private readonly definitions: ProviderDefinition[] = [];
  private auth: Auth | null = null;

  private constructor() {}

  static create(): OAuth {
    return new OAuth();
  }

  /** `provider_a` ('Google'): OpenID Connect, PROVIDER_A_CLIENT_ID/_SECRET, PROVIDER_A_ISSUER, PROVIDER_A_LABEL. */
  providerA(): this {
    return this.provider((settings) => ProviderA.fromConfig(settings));
  }

  /** `provider_b` ('GitHub'): OAuth 2.0, PROVIDER_B_CLIENT_ID/_SECRET, PROVIDER_B_*_URL, PROVIDER_B_LABEL. */
  providerB(): this {
    return this.provider((settings) => ProviderB.fromConfig(settings));
  }

  /** Any provider: `ProviderA.create(id, secret)`, `OidcProvider.discover({…})`, or one of your own. */
  provider(definition: ProviderDefinition): this {
    this.definitions.push(definition);
    return this;
  }

  register(host: ModuleHost): void {
    const auth = host.find(Auth);
    if (auth === null) throw new MisuseError('app.module-order', 'Register OAuth after Auth: App.create().module(Auth.create().account()).module(OAuth.create().providerA())');
    this.auth = auth;
    auth.accountSection({
      name: 'linked-accounts',
      template: 'oauth/section.html',
      data: async (ctx) => {
        // No provider has credentials: no card, as the login page shows no buttons then.
        if (ctx.service(TOKENS.oauthProviders).enabledNames().length === 0) return null;
        const user = ctx.requireUser().record;
        const overview = await ctx.service(TOKENS.showLinkedAccounts).execute({ user });
        return {
          ...linkedAccountsCard(overview, {
            redirectUrl: (name) => ctx.urls.route('oauth.redirect', [name]),
            setPasswordUrl: `${ctx.urls.route('account')}#account-password`,
          }),
        };
      },
    });
    // Every view gets the buttons of the providers that have credentials (spec 000, Template
    // data). On the confirm-password page they are the user's own linked providers, asking to
    // confirm (`?intent=confirm`): another account proves nothing about this user, and a
    // replaced `fw/auth/login_options.html` that reads only `oauth_providers` still confirms.
    host.share('oauth_providers', async (ctx) => {
      const providers = ctx.service(TOKENS.oauthProviders).enabledLabels();
      const redirectUrl = (name: string) => ctx.urls.route('oauth.redirect', [name]);
      const user = ctx.user;
      if (ctx.route.name !== 'password.confirm' || user === null) return providerButtons(providers, redirectUrl);
      const linkedProviders = await ctx.service(TOKENS.showLinkedAccounts).linkedProviders(user.id);
      return loginOptions({ page: 'confirm', providers, redirectUrl, linkedProviders }).oauth_providers;
    });
  }

  bind(container: Container, config: Config): void {
    oauthArea([...this.definitions])({ container, config });
  }

  get routes(): Routes<Handler> {
    const settings = this.auth?.settings;
    if (settings === undefined) throw new MisuseError('app.module-order', 'OAuth has no routes before the app registers it after Auth');
    return oauthRoutes(servicesOf, { registrationOpen: settings.registration, redirectTo: settings.redirectTo, onRegistered: settings.onRegistered });
  }

  commands(services: () => Promise<AppServices>): CliCommand[] {
    const oauthServices = async () => {
      const app = await services();
      return {
        findUserByEmail: app.get(TOKENS.findUserByEmail),
        users: app.get(TOKENS.userRepository),
        linkedAccounts: app.get(TOKENS.linkedAccounts),
        unlinkProvider: app.get(TOKENS.unlinkProvider),
      };
    };
    return [...oauthAccountCommands(oauthServices), oauthDevProviderCommand(async () => (await services()).config.app.url, { start: startDevIdentityProvider })];
  }
}
