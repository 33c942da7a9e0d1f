import type { AccountServices } from '../adapters/http/auth/account-routes.js';
import type { RequestContext } from '../adapters/http/request-context.js';
import { TOKENS } from './tokens.js';

/** What the account page's handlers get from the app's container, per request. */
export function accountServicesOf(ctx: RequestContext): AccountServices {
  return {
    updateProfile: ctx.service(TOKENS.updateProfile),
    changePassword: ctx.service(TOKENS.changePassword),
    confirmIdentity: ctx.service(TOKENS.confirmIdentity),
    deleteAccount: ctx.service(TOKENS.deleteAccount),
    clock: ctx.service(TOKENS.clock),
  };
}
