import type { EnabledProvider, LinkedAccountsOverview } from '../../../domain/oauth/linked-accounts.js';

/**
 * The spec's template data table: what `fw/auth/login_options.html` and `oauth/section.html`
 * receive, with the spec's (snake_case) names, made here where the pages are made from what the
 * domain and the use cases decided. URLs come from the router as functions.
 */

/** `route('oauth.redirect', name)`. */
export type RedirectUrl = (provider: string) => string;

export interface ProviderButton {
  readonly name: string;
  readonly label: string;
  readonly url: string;
}

export type LoginOptionsPage = 'login' | 'register' | 'confirm';

/** Every view's `oauth_providers`: one button per provider that has credentials, in the order registered. */
export function providerButtons(providers: readonly EnabledProvider[], redirectUrl: RedirectUrl): ProviderButton[] {
  return providers.map(({ name, label }) => ({ name, label, url: redirectUrl(name) }));
}

export interface LoginOptionsData {
  readonly page: LoginOptionsPage;
  readonly oauth_providers: ProviderButton[];
}

/**
 * The buttons under a form. On the confirm-password page only the user's linked providers are
 * offered (another account proves nothing about this user), and each button asks for
 * `?intent=confirm`, so the round trip confirms instead of linking.
 */
export function loginOptions(input: {
  page: LoginOptionsPage;
  providers: readonly EnabledProvider[];
  redirectUrl: RedirectUrl;
  /** The signed-in user's linked providers; read on the confirm page only. */
  linkedProviders?: readonly string[];
}): LoginOptionsData {
  const buttons = providerButtons(input.providers, input.redirectUrl);
  if (input.page !== 'confirm') return { page: input.page, oauth_providers: buttons };
  const linked = input.linkedProviders ?? [];
  return {
    page: 'confirm',
    oauth_providers: buttons.filter((b) => linked.includes(b.name)).map((b) => ({ ...b, url: withQuery(b.url, 'intent=confirm') })),
  };
}

export interface CardProvider {
  readonly name: string;
  readonly label: string;
  /** Link: a round trip to the provider; a signed-in user's sign-in links. */
  readonly link_url: string;
  readonly linked: boolean;
  readonly email: string | null;
  /** A `Date` for the view's `date` filter; null while unlinked. */
  readonly since: Date | null;
}

export interface AccountCardData {
  readonly providers: CardProvider[];
  readonly has_password: boolean;
  /** Whether Unlink is allowed; without it the card explains why. */
  readonly can_unlink: boolean;
  /** Where 'Set a password' is: the password card of /account. */
  readonly set_password_url: string;
}

/** The 'Linked accounts' card (`section.data`) of a user's overview. */
export function linkedAccountsCard(overview: LinkedAccountsOverview, urls: { redirectUrl: RedirectUrl; setPasswordUrl: string }): AccountCardData {
  return {
    providers: overview.providers.map(({ name, label, linked, email, since }) => ({ name, label, link_url: urls.redirectUrl(name), linked, email, since })),
    has_password: overview.hasPassword,
    can_unlink: overview.canUnlink,
    set_password_url: urls.setPasswordUrl,
  };
}

function withQuery(url: string, query: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
