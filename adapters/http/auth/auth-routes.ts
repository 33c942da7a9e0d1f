import type { AttemptLogin } from '../../../application/auth/attempt-login.js';
import type { CheckPassword } from '../../../application/auth/check-password.js';
import type { CompleteLogin } from '../../../application/auth/complete-login.js';
import type { RegisterUser } from '../../../application/auth/register-user.js';
import type { RequestPasswordReset } from '../../../application/auth/request-password-reset.js';
import type { ResetPassword } from '../../../application/auth/reset-password.js';
import type { VerifyEmail } from '../../../application/auth/verify-email.js';
import { LoggedOut } from '../../../domain/auth/events.js';
import { backWithError, lockedMessage, MESSAGES } from './auth-messages.js';
import { loginReply } from './login-reply.js';
import { Routes } from '../../../domain/http/routing/routes.js';
import type { AuthMail } from '../../../ports/auth-mail.js';
import type { EventBus } from '../../../ports/event-bus.js';
import { HttpAbort } from '../kernel/http-error.js';
import { Redirect, View } from '../kernel/replies.js';
import type { Reply } from '../kernel/replies.js';
import type { Handler, RequestContext } from '../kernel/request-context.js';
import { confirmPasswordForm, forgotPasswordForm, loginForm, registerForm, resetPasswordForm } from './auth-forms.js';
import type { RegistrationRules } from './auth-forms.js';

/** What the Auth pages need, resolved per request from the app's container. */
export interface AuthServices {
  attemptLogin: AttemptLogin;
  registerUser: RegisterUser;
  requestPasswordReset: RequestPasswordReset;
  resetPassword: ResetPassword;
  verifyEmail: VerifyEmail;
  checkPassword: CheckPassword;
  mail: AuthMail;
  events: EventBus;
  completeLogin: CompleteLogin;
}

/** What `Auth.create()…` configured. */
export interface AuthRouteOptions {
  registration: boolean;
  /** Where a login lands when no intended page is remembered. */
  redirectTo: string;
  registrationRules: RegistrationRules | null;
  onRegistered: ((registration: { name: string; email: string; provider: string | null }) => void | Promise<void>) | null;
}

/**
 * The pages and form posts of password accounts, with the spec's route names. Guards: the
 * forms for guests are `guestOnly`, the rest `requireAuth`; `/register` is absent (404) when
 * registration is off.
 */
export function authRoutes(services: (ctx: RequestContext) => AuthServices, options: AuthRouteOptions): Routes<Handler> {
  const register = registerForm(options.registrationRules);

  const login: Handler = async (ctx) => {
    const form = await ctx.valid(loginForm);
    const { attemptLogin, completeLogin } = services(ctx);
    const outcome = await attemptLogin.execute({ email: form.email, password: form.password, ip: ctx.ip });
    if (outcome.kind === 'locked') {
      throw new HttpAbort(429, lockedMessage(ctx, outcome.retryAfterSeconds), { 'retry-after': String(outcome.retryAfterSeconds) });
    }
    if (outcome.kind === 'failed') backWithError(ctx, 'email', MESSAGES.failed);
    return loginReply(await completeLogin.afterFirstStep({ session: ctx.session, user: outcome.user, remember: form.remember, provider: null }), options.redirectTo);
  };

  const registerUser: Handler = async (ctx) => {
    const form = await ctx.valid(register);
    const { registerUser: useCase, completeLogin } = services(ctx);
    const result = await useCase.execute({ ...form, onRegistered: options.onRegistered });
    if (result.kind === 'email-taken') backWithError(ctx, 'email', MESSAGES.emailTaken);
    if (result.kind === 'invalid') backWithError(ctx, result.field, `The ${result.field} ${result.reason}.`);
    // A new account has no second step yet, so this logs in; it goes through the one owner of
    // logins all the same, which tells `LoggedIn` as every other way in does.
    const done = await completeLogin.afterFirstStep({ session: ctx.session, user: result.user, remember: false, provider: null });
    return done.kind === 'signed-in' ? Redirect.to(options.redirectTo) : loginReply(done, options.redirectTo);
  };

  const logout: Handler = async (ctx) => {
    const user = ctx.user;
    ctx.auth.logout();
    if (user !== null) await services(ctx).events.publish(new LoggedOut(user.id));
    return Redirect.to('/');
  };

  const sendReset: Handler = async (ctx) => {
    const form = await ctx.valid(forgotPasswordForm);
    // The lookup, the new token and the mail all run after the answer is written, so neither
    // its text nor its timing tells whether the address has an account (a mailer's round trip
    // would otherwise show).
    const requestReset = services(ctx).requestPasswordReset;
    ctx.afterResponse(() => requestReset.execute(form.email));
    ctx.session.flash('status', ctx.lang.t(MESSAGES.resetLinkSent));
    return Redirect.back();
  };

  const resetPassword: Handler = async (ctx) => {
    const form = await ctx.valid(resetPasswordForm);
    const result = await services(ctx).resetPassword.execute(form);
    if (result.kind === 'invalid-token') backWithError(ctx, 'email', MESSAGES.resetInvalid);
    if (result.kind === 'invalid-password') backWithError(ctx, 'password', `The password ${result.reason}.`);
    ctx.session.flash('status', ctx.lang.t(MESSAGES.passwordReset));
    return Redirect.route('login');
  };

  const confirmPassword: Handler = async (ctx) => {
    const user = ctx.requireUser();
    const form = await ctx.valid(confirmPasswordForm);
    if (!(await services(ctx).checkPassword.execute(user.record, form.password ?? ''))) backWithError(ctx, 'password', MESSAGES.wrongPassword);
    ctx.auth.confirmPassword();
    return Redirect.intended(options.redirectTo);
  };

  const verify: Handler = async (ctx): Promise<Reply> => {
    const user = ctx.requireUser();
    if (!ctx.urls.hasValidSignature() || ctx.params.int('id') !== user.id) throw new HttpAbort(403, ctx.lang.t(MESSAGES.verificationInvalid));
    const result = await services(ctx).verifyEmail.execute(user.id, ctx.params.string('hash'));
    if (result.kind === 'invalid') throw new HttpAbort(403, ctx.lang.t(MESSAGES.verificationInvalid));
    ctx.session.flash('status', ctx.lang.t(MESSAGES.verified));
    return Redirect.to(`${options.redirectTo}${options.redirectTo.includes('?') ? '&' : '?'}verified=1`);
  };

  const resendVerification: Handler = async (ctx) => {
    const user = ctx.requireUser();
    if (user.isVerified()) return Redirect.to(options.redirectTo);
    await services(ctx).mail.sendEmailVerification(user.record);
    ctx.session.flash('status', ctx.lang.t(MESSAGES.verificationSent));
    return Redirect.back();
  };

  const guests = new Routes<Handler>()
    .view('/login', 'fw/auth/login.html')
    .name('login')
    .post('/login', login)
    .view('/forgot-password', 'fw/auth/forgot-password.html')
    .name('password.request')
    .post('/forgot-password', sendReset)
    .name('password.email')
    .get('/reset-password/{token}', (ctx) => View.make('fw/auth/reset-password.html', { token: ctx.params.string('token'), email: typeof ctx.query['email'] === 'string' ? ctx.query['email'] : '' }))
    .name('password.reset')
    .post('/reset-password', resetPassword)
    .name('password.update');
  const registration = options.registration
    ? new Routes<Handler>().view('/register', 'fw/auth/register.html').name('register').post('/register', registerUser)
    : new Routes<Handler>();
  const users = new Routes<Handler>()
    .view('/verify-email', 'fw/auth/verify-email.html')
    .name('verification.notice')
    .get('/verify-email/{id}/{hash}', verify)
    .name('verification.verify')
    .view('/confirm-password', 'fw/auth/confirm-password.html')
    .name('password.confirm')
    .post('/confirm-password', confirmPassword);
  const resend = new Routes<Handler>().post('/email/verification-notification', resendVerification).name('verification.send').throttle(6, 60);
  // Throttled like the rest of the guest forms: a flood of reset mails is abuse of the mailer.
  const throttledGuests = guests.merge(options.registration ? registration : new Routes<Handler>()).throttle(30, 60).guestOnly();
  return throttledGuests
    .merge(users.merge(resend).requireAuth())
    .merge(new Routes<Handler>().post('/logout', logout).name('logout'));
}
