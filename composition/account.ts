import type { AccountServices } from '../adapters/http/auth/account-routes.js';
import type { RequestContext } from '../adapters/http/kernel/request-context.js';
import { TOKENS } from './tokens.js';
import { servicesFrom } from './request-services.js';

/** What the account page's handlers get from the app's container, per request. */
export function accountServicesOf(ctx: RequestContext): AccountServices {
  return servicesFrom<AccountServices>(ctx, {
    updateProfile: TOKENS.updateProfile,
    changePassword: TOKENS.changePassword,
    confirmIdentity: TOKENS.confirmIdentity,
    deleteAccount: TOKENS.deleteAccount,
    clock: TOKENS.clock,
  });
}
