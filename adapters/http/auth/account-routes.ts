import type { ChangePassword } from '../../../application/auth/change-password.js';
import type { ConfirmIdentity } from '../../../application/auth/confirm-identity.js';
import type { DeleteAccount } from '../../../application/auth/delete-account.js';
import type { UpdateProfile } from '../../../application/auth/update-profile.js';
import { Routes } from '../../../domain/http/routing/routes.js';
import type { Clock } from '../../../ports/clock.js';
import type { AuthUser } from '../kernel/auth-user.js';
import { HttpAbort } from '../kernel/http-error.js';
import { Redirect, Toast, View, combine } from '../kernel/replies.js';
import type { Reply } from '../kernel/replies.js';
import type { Handler, RequestContext } from '../kernel/request-context.js';
import { ACCOUNT_BAGS, deleteAccountForm, otherDevicesForm, passwordForm, profileForm } from './account-forms.js';
import type { AccountSections } from './account-sections.js';

/** What the account page needs, resolved per request from the app's container. */
export interface AccountServices {
  updateProfile: UpdateProfile;
  changePassword: ChangePassword;
  confirmIdentity: ConfirmIdentity;
  deleteAccount: DeleteAccount;
  clock: Clock;
}

/** What the account page tells its user: keys of the language files, read with `ctx.lang.t(...)`. */
export const ACCOUNT_MESSAGES = {
  profileSaved: 'auth.account.message.profile_saved',
  verifyNewEmail: 'auth.account.message.verify_new_email',
  emailTaken: 'auth.message.email_taken',
  wrongCurrentPassword: 'auth.account.message.wrong_current_password',
  wrongPassword: 'auth.message.wrong_password',
  passwordChanged: 'auth.account.message.password_changed',
  passwordSet: 'auth.account.message.password_set',
  otherDevicesLoggedOut: 'auth.account.message.other_devices_logged_out',
  deleted: 'auth.account.message.deleted',
  needsSession: 'auth.account.message.needs_session',
} as const;

/**
 * The account page needs a session: it changes what sessions hold, and a bearer token's
 * abilities do not extend to the account itself.
 */
function sessionUser(ctx: RequestContext): AuthUser {
  const user = ctx.requireUser();
  if (user.viaToken) throw new HttpAbort(403, ctx.lang.t(ACCOUNT_MESSAGES.needsSession));
  return user;
}

/** Back to the page with one field's error (a message key) in the card's bag, keeping what was typed (never passwords). */
function backWithError(ctx: RequestContext, bag: string, field: string, messageKey: string): Reply {
  ctx.flashFormErrors({ [field]: [ctx.lang.t(messageKey)] }, bag);
  return Redirect.route('account');
}

/** A user without a password, last confirmed over three hours ago: confirm, then come back to the page. */
function confirmFirst(ctx: RequestContext): Reply {
  ctx.session.setIntendedUrl(ctx.urls.route('account'));
  return Redirect.route('password.confirm');
}

function done(ctx: RequestContext, messageKey: string): Reply {
  return combine(Redirect.route('account'), Toast.success(ctx.lang.t(messageKey)));
}

/** The user vanished meanwhile (an administrator removed them): this session ends too. */
function gone(ctx: RequestContext): Reply {
  ctx.auth.logout();
  return Redirect.to('/');
}

/**
 * `/account`: the profile, the password ('Change password', or 'Set a password' for a user
 * without one), the sections other modules add, 'Log out other devices' and 'Delete account'.
 * Every form answers with a redirect back to the page and a toast; the forms are throttled per
 * user (they check passwords, and a new address gets a mail).
 */
export function accountRoutes(services: (ctx: RequestContext) => AccountServices, sections: AccountSections): Routes<Handler> {
  const show: Handler = async (ctx) => {
    sessionUser(ctx);
    return View.make('fw/auth/account.html', {
      sections: await sections.render(ctx),
      password_recently_confirmed: ctx.session.passwordRecentlyConfirmed(services(ctx).clock.now()),
    });
  };

  const updateProfile: Handler = async (ctx) => {
    const user = sessionUser(ctx);
    const form = await ctx.valid(profileForm);
    const result = await services(ctx).updateProfile.execute({ userId: user.id, name: form.name, email: form.email });
    switch (result.kind) {
      case 'not-found':
        return gone(ctx);
      case 'email-taken':
        return backWithError(ctx, ACCOUNT_BAGS.profile, 'email', ACCOUNT_MESSAGES.emailTaken);
      case 'invalid':
        return backWithError(ctx, ACCOUNT_BAGS.profile, result.field, `The ${result.field} ${result.reason}.`);
      case 'updated':
        return done(ctx, result.emailChanged ? ACCOUNT_MESSAGES.verifyNewEmail : ACCOUNT_MESSAGES.profileSaved);
    }
  };

  const changePassword: Handler = async (ctx) => {
    const user = sessionUser(ctx);
    const form = await ctx.valid(passwordForm);
    const hadPassword = user.hasPassword();
    const result = await services(ctx).changePassword.execute({ userId: user.id, currentPassword: form.current_password ?? null, password: form.password });
    switch (result.kind) {
      case 'not-found':
        return gone(ctx);
      case 'wrong-current-password':
        return backWithError(ctx, ACCOUNT_BAGS.password, 'current_password', ACCOUNT_MESSAGES.wrongCurrentPassword);
      case 'invalid-password':
        return backWithError(ctx, ACCOUNT_BAGS.password, 'password', `The password ${result.reason}.`);
      case 'changed':
        // The epoch went up, which ends every session; this one moves to it and stays.
        await ctx.auth.adoptEpoch(result.epoch);
        return done(ctx, hadPassword ? ACCOUNT_MESSAGES.passwordChanged : ACCOUNT_MESSAGES.passwordSet);
    }
  };

  const logoutOtherDevices: Handler = async (ctx) => {
    const user = sessionUser(ctx);
    const form = await ctx.valid(otherDevicesForm);
    const { confirmIdentity, clock } = services(ctx);
    const confirmation = await confirmIdentity.execute(user.record, {
      password: form.password ?? null,
      recentlyConfirmed: ctx.session.passwordRecentlyConfirmed(clock.now()),
    });
    switch (confirmation.kind) {
      case 'wrong-password':
        return backWithError(ctx, ACCOUNT_BAGS.devices, 'password', ACCOUNT_MESSAGES.wrongPassword);
      case 'needs-confirmation':
        return confirmFirst(ctx);
      case 'confirmed':
        await ctx.auth.logoutOtherDevices();
        return done(ctx, ACCOUNT_MESSAGES.otherDevicesLoggedOut);
    }
  };

  const destroy: Handler = async (ctx) => {
    const user = sessionUser(ctx);
    const form = await ctx.valid(deleteAccountForm);
    const { deleteAccount, clock } = services(ctx);
    const result = await deleteAccount.execute({
      userId: user.id,
      password: form.password ?? null,
      recentlyConfirmed: ctx.session.passwordRecentlyConfirmed(clock.now()),
    });
    switch (result.kind) {
      case 'wrong-password':
        return backWithError(ctx, ACCOUNT_BAGS.deletion, 'password', ACCOUNT_MESSAGES.wrongPassword);
      case 'needs-confirmation':
        return confirmFirst(ctx);
      case 'not-found':
        return gone(ctx);
      case 'deleted':
        ctx.auth.logout();
        return combine(Redirect.to('/'), Toast.success(ctx.lang.t(ACCOUNT_MESSAGES.deleted)));
    }
  };

  const page = new Routes<Handler>().get('/account', show).name('account');
  const forms = new Routes<Handler>()
    .post('/account/profile', updateProfile)
    .name('account.profile')
    .post('/account/password', changePassword)
    .name('account.password')
    .post('/account/logout-other-devices', logoutOtherDevices)
    .name('account.logout-other-devices')
    .delete('/account', destroy)
    .name('account.destroy')
    .throttle(6, 60);
  return page.merge(forms).requireAuth();
}
