import { guardOutcome } from '../../../domain/http/guards.js';
import type { GuardFacts, GuardKind } from '../../../domain/http/guards.js';
import type { Clock } from '../../../ports/clock.js';
import type { Middleware } from './request-context.js';
import { guardReply } from './guard-replies.js';
import type { IdentityServices } from './identity.js';
import type { KernelContext } from './context.js';

/**
 * A guard layer (`requireAuth()`, `requireRole('admin')`, …) as route middleware. The facts
 * are gathered here (the app's policy is asked only for a signed-in user and only by the guards
 * that need it); the decision is `guardOutcome`'s.
 */
export function guardMiddleware(kind: GuardKind, name: string | null, services: Pick<IdentityServices, 'policy' | 'pages'> & { clock: Clock }): Middleware {
  return async (context, next) => {
    const ctx = context as KernelContext;
    const user = ctx.user;
    const facts: GuardFacts = {
      user:
        user === null
          ? null
          : {
              verified: user.isVerified(),
              viaToken: user.viaToken,
              abilities: user.tokenAbilities,
              passwordConfirmedRecently: ctx.session.passwordRecentlyConfirmed(services.clock.now()),
            },
    };
    if (user !== null && name !== null) {
      if (kind === 'gate') facts.allowed = (await services.policy.allows(user.record, name)) || (await services.policy.hasPermission(user.record, name));
      else if (kind === 'role') facts.allowed = await services.policy.hasRole(user.record, name);
      else if (kind === 'permission') facts.allowed = await services.policy.hasPermission(user.record, name);
      else if (kind === 'ability') facts.ability = name;
    }
    const outcome = guardOutcome(kind, facts, { method: ctx.method, api: ctx.isApiClient, partial: ctx.hx.request }, services.pages);
    return outcome.kind === 'pass' ? next() : guardReply(ctx, outcome);
  };
}
