import { bearerToken } from '../../../../domain/http/bearer.js';
import { GUARD_MESSAGES } from '../refusal-messages.js';
import { AuthUser } from '../auth-user.js';
import { HttpAbort } from '../http-error.js';
import type { IdentityServices } from '../identity.js';
import { headerText } from '../context.js';
import type { Stage } from '../pipeline.js';
import type { KernelContext } from '../context.js';
import type { Reply } from '../replies.js';
import { newSessionToken } from '../../../../application/auth/session-login.js';

/**
 * Stage 5, 'user': who is asking. An `Authorization: Bearer` token is asked of the
 * `TokenVerifier` (a token that signs in nobody is 401, and such requests keep no session);
 * otherwise the session's user is loaded. A session signed in under an older session epoch
 * than the user's ('log out other devices', a password change) or for a deleted user is
 * ended here, whichever driver stored it: that is what kills a copied cookie.
 */
export function userStage(services: IdentityServices): Stage {
  // Not an async function: a guest's request (no token, nobody signed in) goes straight on.
  return (ctx, next) => {
    const token = bearerToken(headerText(ctx.headers['authorization']));
    if (token === null && ctx.session.userId() === null) return next();
    return identify(ctx, next, token);
  };

  async function identify(ctx: KernelContext, next: () => Promise<Reply>, token: string | null): Promise<Reply> {
    if (token !== null) {
      const verified = token === '' ? null : await services.tokens.verify(token);
      const user = verified === null ? null : await services.users.findById(verified.userId);
      if (verified === null || user === null) throw new HttpAbort(401, GUARD_MESSAGES.unauthenticated, { 'www-authenticate': 'Bearer' });
      ctx.identify(new AuthUser(user, services.policy, verified.abilities, true));
      return next();
    }
    const session = ctx.session;
    const userId = session.userId();
    if (userId !== null) {
      const user = await services.users.findById(userId);
      if (user === null || user.sessionEpoch !== session.userEpoch()) {
        session.logout(newSessionToken(services.random));
        ctx.log.info('a signed-in session ended: its user logged out other devices, changed the password or was deleted', { userId });
      } else {
        ctx.identify(new AuthUser(user, services.policy, null, false));
      }
    }
    return next();
  }
}
