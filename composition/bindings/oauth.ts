import { SqlLinkedAccounts } from '../../adapters/persistence/mikro-orm/sql-linked-accounts.js';
import { CompleteSignIn } from '../../application/oauth/complete-sign-in.js';
import { OAuthProviders } from '../../application/oauth/oauth-providers.js';
import { ShowLinkedAccounts } from '../../application/oauth/show-linked-accounts.js';
import { StartSignIn } from '../../application/oauth/start-sign-in.js';
import { UnlinkProvider } from '../../application/oauth/unlink-provider.js';
import type { ProviderDefinition } from '../../ports/identity-provider.js';
import type { LinkedAccounts } from '../../ports/linked-accounts.js';
import type { SignInProtocol } from '../../ports/sign-in-protocol.js';
import { LazySignInProtocol } from '../lazy-sign-in-protocol.js';
import { CACHE_TOKENS } from './cache.js';
import { CORE_TOKENS as C } from './core.js';
import { EVENT_TOKENS } from './events.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';
import { USER_TOKENS } from './users.js';

/** Social login (the OAuth module) and the `oauth_accounts` table it links users with. */
export const OAUTH_TOKENS = {
  linkedAccounts: token<LinkedAccounts>('LinkedAccounts'),
  oauthProviders: token<OAuthProviders>('OAuthProviders'),
  signInProtocol: token<SignInProtocol>('SignInProtocol'),
  startSignIn: token<StartSignIn>('StartSignIn'),
  completeSignIn: token<CompleteSignIn>('CompleteSignIn'),
  unlinkProvider: token<UnlinkProvider>('UnlinkProvider'),
  showLinkedAccounts: token<ShowLinkedAccounts>('ShowLinkedAccounts'),
} as const;

const T = OAUTH_TOKENS;

/** The table is the framework's (its migration runs in every app), so its store is always bound. */
export function bindLinkedAccounts({ container }: Binding): void {
  provide(container, T.linkedAccounts, [C.database], (db) => new SqlLinkedAccounts(db.raw));
}

/** The OAuth module's services, over the providers it registered (`OAuth.create().providerA()…`). */
export function oauthArea(definitions: readonly ProviderDefinition[]) {
  return ({ container, config }: Pick<Binding, 'container' | 'config'>): void => {
    provide(container, T.oauthProviders, [], () => new OAuthProviders(definitions, { get: (name) => config.env(name) }));
    provide(container, T.signInProtocol, [C.httpClient], (http) => new LazySignInProtocol(http));
    provide(container, T.startSignIn, [T.oauthProviders, T.signInProtocol, C.random, C.clock], (providers, protocol, random, clock) => new StartSignIn(providers, protocol, random, clock));
    provide(
      container,
      T.completeSignIn,
      [T.oauthProviders, T.signInProtocol, C.httpClient, T.linkedAccounts, USER_TOKENS.userRepository, EVENT_TOKENS.eventBus, C.clock, CACHE_TOKENS.cacheStore],
      (providers, protocol, http, links, users, events, clock, counters) => new CompleteSignIn(providers, protocol, http, links, users, events, clock, counters),
    );
    provide(container, T.unlinkProvider, [T.oauthProviders, T.linkedAccounts, EVENT_TOKENS.eventBus], (providers, links, events) => new UnlinkProvider(providers, links, events));
    provide(container, T.showLinkedAccounts, [T.oauthProviders, T.linkedAccounts], (providers, links) => new ShowLinkedAccounts(providers, links));
  };
}
