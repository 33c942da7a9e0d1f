import { canUnlink } from './unlink.js';

/**
 * The spec's template data table: what `fw/auth/login_options.html` and `oauth/section.html`
 * receive, with the spec's (snake_case) names. URLs come from the caller's router as a
 * function, so this stays a pure mapping.
 */
export interface EnabledProvider {
  readonly name: string;
  readonly label: string;
}

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

/** A row of `oauth_accounts` as the card needs it. */
export interface StoredLink {
  readonly provider: string;
  /** The address the provider gave when it was linked or last used. */
  readonly email: string | null;
  /** When it was linked: the card's 'since'. */
  readonly createdAt: Date;
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
  /** Whether Unlink is allowed (a password, or two providers linked); without it the card explains why. */
  readonly can_unlink: boolean;
  /** Where 'Set a password' is: the password card of /account. */
  readonly set_password_url: string;
}

/**
 * The 'Linked accounts' card (`section.data`): one entry per enabled provider, in the order
 * registered. A link at a provider that has lost its credentials is not listed, since its
 * routes answer 404; it also does not count for `can_unlink`.
 */
export function linkedAccountsCard(input: {
  providers: readonly EnabledProvider[];
  links: readonly StoredLink[];
  hasPassword: boolean;
  setPasswordUrl: string;
  redirectUrl: RedirectUrl;
}): AccountCardData {
  const providers = input.providers.map(({ name, label }): CardProvider => {
    const link = input.links.find((l) => l.provider === name);
    return { name, label, link_url: input.redirectUrl(name), linked: link !== undefined, email: link?.email ?? null, since: link?.createdAt ?? null };
  });
  const can_unlink = canUnlink({
    hasPassword: input.hasPassword,
    linkedProviders: input.links.map((l) => l.provider),
    enabledProviders: input.providers.map((p) => p.name),
  });
  return { providers, has_password: input.hasPassword, can_unlink, set_password_url: input.setPasswordUrl };
}

function withQuery(url: string, query: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
