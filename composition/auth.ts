import { authRoutes } from '../adapters/http/auth/auth-routes.js';
import type { AuthRouteOptions, AuthServices } from '../adapters/http/auth/auth-routes.js';
import type { RegistrationRules } from '../adapters/http/auth/auth-forms.js';
import { twoFactorRoutes } from '../adapters/http/auth/two-factor-routes.js';
import type { TwoFactorServices } from '../adapters/http/auth/two-factor-routes.js';
import { accountRoutes } from '../adapters/http/auth/account-routes.js';
import { AccountSections } from '../adapters/http/auth/account-sections.js';
import type { AccountSection } from '../adapters/http/auth/account-sections.js';
import type { Handler, RequestContext } from '../adapters/http/kernel/request-context.js';
import type { Routes } from '../domain/http/routing/routes.js';
import { accountServicesOf } from './account.js';
import type { Module } from './module.js';
import { TOKENS } from './tokens.js';
import { servicesFrom } from './request-services.js';
import { MisuseError } from '../domain/shared/errors.js';

/** What `onRegistered` hooks receive: the new account, and the provider when a social login made it. */
export interface Registration {
  name: string;
  email: string;
  provider: string | null;
}

const AUTH_SERVICES = {
  attemptLogin: TOKENS.attemptLogin,
  registerUser: TOKENS.registerUser,
  requestPasswordReset: TOKENS.requestPasswordReset,
  resetPassword: TOKENS.resetPassword,
  verifyEmail: TOKENS.verifyEmail,
  checkPassword: TOKENS.checkPassword,
  mail: TOKENS.authMail,
  events: TOKENS.eventBus,
  completeLogin: TOKENS.completeLogin,
} as const;

const TWO_FACTOR_SERVICES = {
  completeLogin: TOKENS.completeLogin,
  challengeTwoFactor: TOKENS.challengeTwoFactor,
  enableTwoFactor: TOKENS.enableTwoFactor,
  confirmTwoFactor: TOKENS.confirmTwoFactor,
  disableTwoFactor: TOKENS.disableTwoFactor,
  regenerateRecoveryCodes: TOKENS.regenerateRecoveryCodes,
  showTwoFactorSettings: TOKENS.showTwoFactorSettings,
} as const;

const servicesOf = (ctx: RequestContext) => servicesFrom<AuthServices>(ctx, AUTH_SERVICES);
const twoFactorServicesOf = (ctx: RequestContext) => servicesFrom<TwoFactorServices>(ctx, TWO_FACTOR_SERVICES);

/**
 * Password accounts as a module: `app.module(Auth.create().redirectTo('/dashboard'))`. Login
 * with 'remember me' and the login lock, registration, logout, email verification, password
 * reset and password confirmation, with the spec's route names and pages under
 * `templates/fw/auth/` (replaceable from `resources/views/fw/auth/`).
 */
export class Auth implements Module {
  readonly name = 'auth';
  private readonly options: AuthRouteOptions = { registration: true, redirectTo: '/', registrationRules: null, onRegistered: null };
  /** Whether `/account` is served; its sections may be added before or after `.account()`. */
  private accountPage = false;
  private readonly accountSections = new AccountSections();

  private constructor() {}

  static create(): Auth {
    return new Auth();
  }

  /** No `/register`: accounts come from an administrator (`fwx user:create`) or a provider. */
  withoutRegistration(): this {
    this.options.registration = false;
    return this;
  }

  /** Where a login lands when no page was remembered by a guard (default `/`). */
  redirectTo(path: string): this {
    if (!path.startsWith('/') || path.startsWith('//')) throw new MisuseError('app.bad-path', `redirectTo needs a path of this site, got '${path}'`);
    this.options.redirectTo = path;
    return this;
  }

  /** Runs after a registration (the register form, or a social login that made the account). */
  onRegistered(hook: (registration: Registration) => void | Promise<void>): this {
    this.options.onRegistered = hook;
    return this;
  }

  /** Extra rules for the register form: `(v, value) => v.field('name').min(3)`. */
  registrationRules(rules: RegistrationRules): this {
    this.options.registrationRules = rules;
    return this;
  }

  /**
   * Serves `/account`: profile, password, 'Log out other devices', 'Delete account', and the
   * sections added with `accountSection`. Without it the page and its forms do not exist (404).
   */
  account(): this {
    this.accountPage = true;
    return this;
  }

  /**
   * A card on the account page from another module (the social-login card), shown after the
   * password card in the order added; it counts only with `.account()`.
   */
  accountSection(section: AccountSection): this {
    this.accountSections.add(section);
    return this;
  }

  /** What other modules read of this one: OAuth's callback makes users only while registration is open. */
  get settings(): Readonly<AuthRouteOptions> {
    return this.options;
  }

  /** Whether `/account` is served (`.account()`). */
  get hasAccountPage(): boolean {
    return this.accountPage;
  }

  get routes(): Routes<Handler> {
    const routes = authRoutes(servicesOf, this.options).merge(twoFactorRoutes(twoFactorServicesOf, { redirectTo: this.options.redirectTo }));
    return this.accountPage ? routes.merge(accountRoutes(accountServicesOf, this.accountSections)) : routes;
  }
}
