import type { BeginSecondStep } from '../../../application/auth/begin-second-step.js';
import type { ChallengeTwoFactor } from '../../../application/auth/challenge-two-factor.js';
import type { ConfirmTwoFactor } from '../../../application/auth/confirm-two-factor.js';
import type { DisableTwoFactor } from '../../../application/auth/disable-two-factor.js';
import type { EnableTwoFactor } from '../../../application/auth/enable-two-factor.js';
import type { RegenerateRecoveryCodes } from '../../../application/auth/regenerate-recovery-codes.js';
import type { ShowTwoFactorSettings } from '../../../application/auth/show-two-factor-settings.js';
import { LoggedIn } from '../../../domain/auth/events.js';
import { PENDING_LOGIN_KEY } from '../../../domain/auth/pending-login.js';
import { Routes } from '../../../domain/http/routing/routes.js';
import type { User } from '../../../domain/users/user.js';
import type { EventBus } from '../../../ports/event-bus.js';
import { HttpAbort } from '../kernel/http-error.js';
import { Redirect, Toast, View, combine } from '../kernel/replies.js';
import type { Reply } from '../kernel/replies.js';
import type { Handler, RequestContext } from '../kernel/request-context.js';
import { backWithError, lockedMessage, MESSAGES } from './auth-messages.js';

export interface TwoFactorServices {
  beginSecondStep: BeginSecondStep;
  challengeTwoFactor: ChallengeTwoFactor;
  enableTwoFactor: EnableTwoFactor;
  confirmTwoFactor: ConfirmTwoFactor;
  disableTwoFactor: DisableTwoFactor;
  regenerateRecoveryCodes: RegenerateRecoveryCodes;
  showTwoFactorSettings: ShowTwoFactorSettings;
  events: EventBus;
}

/** Recovery codes are shown once, on the page after the one that made them. */
const RECOVERY_CODES_FLASH = 'two_factor_recovery_codes';

/**
 * The end of every login's first step (the password form, later a provider's callback): the
 * session becomes the user's now, or, when the user has two-factor on, waits for the code at
 * `/two-factor-challenge` while the visitor stays a guest.
 */
export async function completeFirstStep(
  ctx: RequestContext,
  services: Pick<TwoFactorServices, 'beginSecondStep' | 'events'>,
  login: { user: User; remember: boolean; provider: string | null; redirectTo: string },
  /** Told whether the login waits at the second step, before `LoggedIn` (a social login's `LoggedInWith`). */
  decided?: (secondStep: boolean) => Promise<void>,
): Promise<Reply> {
  const begun = await services.beginSecondStep.execute({ user: login.user, remember: login.remember, provider: login.provider });
  if (begun.kind === 'required') {
    ctx.session.put(PENDING_LOGIN_KEY, begun.pending);
    await decided?.(true);
    return Redirect.route('two-factor.login');
  }
  ctx.auth.login(login.user, { remember: login.remember });
  await decided?.(false);
  await services.events.publish(new LoggedIn(login.user.id, login.remember, login.provider ?? 'password'));
  return Redirect.intended(login.redirectTo);
}

function answerOf(body: unknown): { kind: 'code' | 'recovery-code'; code: string } | null {
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return null;
  const form = body as Record<string, unknown>;
  const recovery = typeof form['recovery_code'] === 'string' ? form['recovery_code'].trim() : '';
  const code = typeof form['code'] === 'string' ? form['code'].trim() : '';
  if (recovery !== '' && recovery.length <= 64) return { kind: 'recovery-code', code: recovery };
  if (code !== '' && code.length <= 16) return { kind: 'code', code };
  return null;
}

/** `/two-factor-challenge` and the settings page `/user/two-factor`. */
export function twoFactorRoutes(services: (ctx: RequestContext) => TwoFactorServices, options: { redirectTo: string }): Routes<Handler> {
  const challengePage: Handler = (ctx) => (ctx.session.has(PENDING_LOGIN_KEY) ? View.make('fw/auth/two-factor-challenge.html') : Redirect.route('login'));

  const challenge: Handler = async (ctx) => {
    const answer = answerOf(ctx.body());
    if (answer === null) backWithError(ctx, 'code', MESSAGES.twoFactorRequired);
    const { challengeTwoFactor, events } = services(ctx);
    const outcome = await challengeTwoFactor.execute({ pending: ctx.session.get(PENDING_LOGIN_KEY), answer });
    switch (outcome.kind) {
      case 'locked':
        throw new HttpAbort(429, lockedMessage(ctx, outcome.retryAfterSeconds), { 'retry-after': String(outcome.retryAfterSeconds) });
      case 'invalid':
        return backWithError(ctx, answer.kind === 'code' ? 'code' : 'recovery_code', MESSAGES.twoFactorInvalid);
      case 'expired':
        ctx.session.remove(PENDING_LOGIN_KEY);
        ctx.session.flash('status', ctx.lang.t(MESSAGES.twoFactorExpired));
        return Redirect.route('login');
      case 'passed':
        ctx.session.remove(PENDING_LOGIN_KEY);
        ctx.auth.login(outcome.user, { remember: outcome.remember });
        await events.publish(new LoggedIn(outcome.user.id, outcome.remember, outcome.provider ?? 'password'));
        return Redirect.intended(options.redirectTo);
    }
  };

  const settings: Handler = async (ctx) => {
    const user = ctx.requireUser();
    const view = await services(ctx).showTwoFactorSettings.execute({ userId: user.id });
    const codes = ctx.session.get(RECOVERY_CODES_FLASH);
    return View.make('fw/auth/two-factor.html', { two_factor: view, recovery_codes: Array.isArray(codes) ? codes : [] });
  };

  const enable: Handler = async (ctx) => {
    const result = await services(ctx).enableTwoFactor.execute({ userId: ctx.requireUser().id });
    if (result.kind === 'pending') ctx.session.flash(RECOVERY_CODES_FLASH, result.recoveryCodes);
    return Redirect.route('two-factor.show');
  };

  const confirm: Handler = async (ctx) => {
    const answer = answerOf(ctx.body());
    if (answer === null || answer.kind !== 'code') backWithError(ctx, 'code', MESSAGES.twoFactorRequired);
    const result = await services(ctx).confirmTwoFactor.execute({ userId: ctx.requireUser().id, code: answer.code });
    if (result.kind === 'invalid-code') backWithError(ctx, 'code', MESSAGES.twoFactorInvalid);
    return combine(Redirect.route('two-factor.show'), Toast.success(ctx.lang.t(result.kind === 'confirmed' ? MESSAGES.twoFactorOn : MESSAGES.twoFactorRestart)));
  };

  const disable: Handler = async (ctx) => {
    await services(ctx).disableTwoFactor.execute({ userId: ctx.requireUser().id });
    return combine(Redirect.route('two-factor.show'), Toast.success(ctx.lang.t(MESSAGES.twoFactorOff)));
  };

  const regenerate: Handler = async (ctx) => {
    const result = await services(ctx).regenerateRecoveryCodes.execute({ userId: ctx.requireUser().id });
    if (result.kind === 'regenerated') ctx.session.flash(RECOVERY_CODES_FLASH, result.recoveryCodes);
    return Redirect.route('two-factor.show');
  };

  const guests = new Routes<Handler>()
    .get('/two-factor-challenge', challengePage)
    .name('two-factor.login')
    .post('/two-factor-challenge', challenge)
    .guestOnly();
  const users = new Routes<Handler>()
    .get('/user/two-factor', settings)
    .name('two-factor.show')
    .merge(
      new Routes<Handler>()
        .post('/user/two-factor', enable)
        .name('two-factor.enable')
        .post('/user/two-factor/confirm', confirm)
        .name('two-factor.confirm')
        .delete('/user/two-factor', disable)
        .name('two-factor.disable')
        .post('/user/two-factor/recovery-codes', regenerate)
        .name('two-factor.recovery-codes')
        .requirePasswordConfirmed(),
    )
    .requireAuth();
  return guests.merge(users);
}
