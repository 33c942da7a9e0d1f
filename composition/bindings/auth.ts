import { SqlPasswordResetTokens } from '../../adapters/persistence/mikro-orm/sql-password-reset-tokens.js';
import { AttemptLogin } from '../../application/auth/attempt-login.js';
import { ChangePassword } from '../../application/auth/change-password.js';
import { CheckPassword } from '../../application/auth/check-password.js';
import { ConfirmIdentity } from '../../application/auth/confirm-identity.js';
import { DeleteAccount } from '../../application/auth/delete-account.js';
import { RegisterUser } from '../../application/auth/register-user.js';
import { RequestPasswordReset } from '../../application/auth/request-password-reset.js';
import { ResetPassword } from '../../application/auth/reset-password.js';
import { UpdateProfile } from '../../application/auth/update-profile.js';
import { VerifyEmail } from '../../application/auth/verify-email.js';
import type { PasswordResetTokens } from '../../ports/password-reset-tokens.js';
import { AUTH_MAIL_TOKENS } from './auth-mail.js';
import { CACHE_TOKENS } from './cache.js';
import { CORE_TOKENS as C } from './core.js';
import { EVENT_TOKENS } from './events.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';
import { USER_TOKENS as U } from './users.js';

/** Password accounts: logging in, registering, resets, verification, the account page. */
export const AUTH_TOKENS = {
  passwordResetTokens: token<PasswordResetTokens>('PasswordResetTokens'),
  attemptLogin: token<AttemptLogin>('AttemptLogin'),
  registerUser: token<RegisterUser>('RegisterUser'),
  requestPasswordReset: token<RequestPasswordReset>('RequestPasswordReset'),
  resetPassword: token<ResetPassword>('ResetPassword'),
  verifyEmail: token<VerifyEmail>('VerifyEmail'),
  checkPassword: token<CheckPassword>('CheckPassword'),
  updateProfile: token<UpdateProfile>('UpdateProfile'),
  changePassword: token<ChangePassword>('ChangePassword'),
  confirmIdentity: token<ConfirmIdentity>('ConfirmIdentity'),
  deleteAccount: token<DeleteAccount>('DeleteAccount'),
} as const;

const T = AUTH_TOKENS;
const { authMail } = AUTH_MAIL_TOKENS;
const { eventBus } = EVENT_TOKENS;

export function bindAuth({ container }: Binding): void {
  provide(container, T.passwordResetTokens, [C.database], (db) => new SqlPasswordResetTokens(db.raw));
  provide(container, T.attemptLogin, [U.userRepository, U.passwordHasher, CACHE_TOKENS.cacheStore, C.clock], (users, hasher, counters, clock) => new AttemptLogin(users, hasher, counters, clock));
  provide(container, T.registerUser, [U.createUser, authMail, eventBus], (create, mail, events) => new RegisterUser(create, mail, events));
  provide(
    container,
    T.requestPasswordReset,
    [U.userRepository, T.passwordResetTokens, authMail, C.random, C.clock],
    (users, tokens, mail, random, clock) => new RequestPasswordReset(users, tokens, mail, random, clock),
  );
  provide(
    container,
    T.resetPassword,
    [U.userRepository, T.passwordResetTokens, U.passwordHasher, eventBus, C.clock],
    (users, tokens, hasher, events, clock) => new ResetPassword(users, tokens, hasher, events, clock),
  );
  provide(container, T.verifyEmail, [U.userRepository, eventBus, C.clock], (users, events, clock) => new VerifyEmail(users, events, clock));
  provide(container, T.checkPassword, [U.passwordHasher], (hasher) => new CheckPassword(hasher));
  // The account page (Auth.create().account()).
  provide(container, T.updateProfile, [U.userRepository, authMail, C.clock], (users, mail, clock) => new UpdateProfile(users, mail, clock));
  provide(
    container,
    T.changePassword,
    [U.userRepository, U.passwordHasher, T.checkPassword, C.clock, eventBus],
    (users, hasher, check, clock, events) => new ChangePassword(users, hasher, check, clock, events),
  );
  provide(container, T.confirmIdentity, [T.checkPassword], (check) => new ConfirmIdentity(check));
  provide(container, T.deleteAccount, [U.userRepository, T.confirmIdentity], (users, confirm) => new DeleteAccount(users, confirm));
}
