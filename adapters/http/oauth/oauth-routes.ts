import type { CompleteLogin } from '../../../application/auth/complete-login.js';
import type { CompleteSignIn } from '../../../application/oauth/complete-sign-in.js';
import type { StartSignIn } from '../../../application/oauth/start-sign-in.js';
import type { UnlinkProvider } from '../../../application/oauth/unlink-provider.js';
import type { Landing, Notice } from '../../../domain/oauth/errors.js';
import { PENDING_SIGN_INS_KEY } from '../../../domain/oauth/pending-sign-ins.js';
import type { PendingSignInJson } from '../../../domain/oauth/pending-sign-in.js';
import { Routes } from '../../../domain/http/routing/routes.js';
import type { User } from '../../../domain/users/user.js';
import { loginReply } from '../auth/login-reply.js';
import { HttpAbort } from '../kernel/http-error.js';
import { Redirect, Toast, combine, json } from '../kernel/replies.js';
import { NEEDS_SESSION_KEY, noticeText, translatedNotice } from './oauth-messages.js';
import type { Reply } from '../kernel/replies.js';
import type { Handler, RequestContext } from '../kernel/request-context.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** What the social-login routes need, resolved per request from the app's container. */
export interface OAuthServices {
  startSignIn: StartSignIn;
  completeSignIn: CompleteSignIn;
  unlinkProvider: UnlinkProvider;
  completeLogin: CompleteLogin;
}

/** What the app's `Auth` module configured, read by the callback. */
export interface OAuthRouteOptions {
  /** False under `Auth.withoutRegistration()`: nobody is made by a sign-in. */
  registrationOpen: boolean;
  /** `Auth.redirectTo`: where a sign-in lands when no page was remembered. */
  redirectTo: string;
  onRegistered: ((registration: { name: string; email: string; provider: string | null }) => void | Promise<void>) | null;
}

/** The provider's name as the route carries it; the use cases answer 'not-found' for any that is not enabled. */
function providerOf(ctx: RequestContext): string {
  return ctx.params.string('provider');
}

/** The account page and the pending state need a browser session: a bearer token has neither. */
function sessionVisitor(ctx: RequestContext): User | null {
  const user = ctx.user;
  if (user === null) return null;
  if (user.viaToken) throw new HttpAbort(403, ctx.lang.t(NEEDS_SESSION_KEY));
  return user.record;
}

function storePending(ctx: RequestContext, pending: readonly PendingSignInJson[]): void {
  if (pending.length === 0) ctx.session.remove(PENDING_SIGN_INS_KEY);
  else ctx.session.put(PENDING_SIGN_INS_KEY, pending);
}

function landingReply(landing: Landing, redirectTo: string): Redirect {
  switch (landing) {
    case 'intended':
      return Redirect.intended(redirectTo);
    case 'login':
      return Redirect.route('login');
    case 'account':
      return Redirect.route('account');
    case 'confirm-password':
      return Redirect.route('password.confirm');
  }
}

/** The notice as a toast in the request's language. */
function withNotice(ctx: RequestContext, reply: Redirect, notice: Notice | null): Reply {
  if (notice === null) return reply;
  const { level, message } = translatedNotice(ctx.lang, notice);
  return combine(reply, Toast.of(level, message));
}

/**
 * The module's three routes (spec 000, Endpoints). The redirect and the callback work for guests
 * (a login) and users (a link, or `?intent=confirm`); unlink needs a user and, being a DELETE
 * from a form, the CSRF token. A provider without credentials answers 404 on all three.
 */
export function oauthRoutes(services: (ctx: RequestContext) => OAuthServices, options: OAuthRouteOptions): Routes<Handler> {
  const redirect: Handler = async (ctx) => {
    const provider = providerOf(ctx);
    const visitor = sessionVisitor(ctx);
    const result = await services(ctx).startSignIn.execute({
      provider,
      query: { intent: ctx.query['intent'], remember: ctx.query['remember'] },
      visitorUserId: visitor?.id ?? null,
      storedPending: ctx.session.get(PENDING_SIGN_INS_KEY),
      redirectUri: ctx.urls.absolute('oauth.callback', [provider]),
    });
    if (result.kind === 'not-found') throw new HttpAbort(404, '');
    if (result.kind === 'failed') {
      ctx.log.warn('social sign-in could not start', { provider, reason: result.reason });
      return withNotice(ctx, visitor === null ? Redirect.route('login') : Redirect.back(), { level: 'error', code: 'try-again' });
    }
    storePending(ctx, result.pending);
    return Redirect.to(result.url.href);
  };

  const callback: Handler = async (ctx) => {
    const provider = providerOf(ctx);
    const visitor = sessionVisitor(ctx);
    const callbackUrl = new URL(ctx.urls.absolute('oauth.callback', [provider]));
    for (const [key, value] of Object.entries(ctx.query)) for (const item of Array.isArray(value) ? value : [value]) callbackUrl.searchParams.append(key, item);
    const { completeSignIn, completeLogin } = services(ctx);
    const result = await completeSignIn.execute({
      provider,
      query: ctx.query,
      callbackUrl,
      storedPending: ctx.session.get(PENDING_SIGN_INS_KEY),
      visitor,
      registrationOpen: options.registrationOpen,
      redirectUri: ctx.urls.absolute('oauth.callback', [provider]),
      ...(options.onRegistered === null ? {} : { onRegistered: options.onRegistered }),
    });
    if (result.kind === 'not-found') throw new HttpAbort(404, '');
    // The state is spent by this first callback whatever happens next.
    storePending(ctx, result.remainingPending);
    const { outcome } = result;
    switch (outcome.kind) {
      case 'refused': {
        const details = { provider, reason: outcome.reason, ...(result.logReason === null ? {} : { detail: result.logReason }) };
        if (outcome.log === 'warn') ctx.log.warn('social sign-in failed', details);
        else ctx.log.info('social sign-in refused', details);
        return withNotice(ctx, landingReply(outcome.landing, options.redirectTo), outcome.notice);
      }
      case 'log-in':
      case 'link-and-log-in':
      case 'register': {
        const user = result.user;
        if (user === null) throw new FrameworkError('oauth.outcome-without-user', `A '${outcome.kind}' outcome came without its user`);
        // The login waits at the two-factor challenge when the user has it on; `LoggedInWith`
        // says which it was, and `LoggedIn` fires once the session is the user's.
        return loginReply(await completeLogin.afterFirstStep({ session: ctx.session, user, remember: outcome.remember, provider }), options.redirectTo);
      }
      case 'confirm':
        // Coming back from the provider with the user's own account counts as typing the password.
        ctx.auth.confirmPassword();
        return Redirect.intended(options.redirectTo);
      case 'link':
      case 'already-linked':
        return withNotice(ctx, landingReply(outcome.landing, options.redirectTo), outcome.notice);
    }
  };

  const unlink: Handler = async (ctx) => {
    const provider = providerOf(ctx);
    const user = sessionVisitor(ctx) ?? ctx.requireUser().record;
    const result = await services(ctx).unlinkProvider.execute({ userId: user.id, provider });
    if (result.kind === 'not-found') throw new HttpAbort(404, '');
    if (ctx.isApiClient) {
      return result.kind === 'unlinked' ? json({ provider, linked: false }) : json({ message: noticeText(ctx.lang, result.notice.code), provider, linked: true }, 409);
    }
    return withNotice(ctx, Redirect.route('account'), result.notice);
  };

  const signIn = new Routes<Handler>()
    .get('/auth/{provider}/redirect', redirect)
    .name('oauth.redirect')
    .get('/auth/{provider}/callback', callback)
    .name('oauth.callback')
    .throttle(30, 60);
  const owner = new Routes<Handler>().delete('/auth/{provider}', unlink).name('oauth.unlink').throttle(10, 60).requireAuth();
  return signIn.merge(owner);
}
