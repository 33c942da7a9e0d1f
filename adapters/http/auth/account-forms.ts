import { object } from 'superstruct';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../domain/auth/password-policy.js';
import { EMAIL_MAX_LENGTH } from '../../../domain/users/email.js';
import { NAME_MAX_LENGTH } from '../../../domain/users/user.js';
import { optionalText, text } from '../validation/fields.js';
import type { FormContext } from '../validation/form-context.js';
import { formSchema } from '../validation/form-schema.js';
import type { FormSchema } from '../validation/form-schema.js';

/**
 * The account page's forms. Each card has its own error bag (`error('password', 'password')`
 * in the template): three cards have a `password` field.
 */
export const ACCOUNT_BAGS = { profile: 'profile', password: 'password', devices: 'devices', deletion: 'deletion' } as const;

function hasPassword(context: FormContext): boolean {
  const hash = context.user?.passwordHash ?? null;
  return hash !== null && hash !== '';
}

/** `unique` compares exactly; the domain stores addresses trimmed and in lower case. */
function lowerEmail(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const record = input as Record<string, unknown>;
  return typeof record['email'] === 'string' ? { ...record, email: record['email'].trim().toLowerCase() } : input;
}

export const profileForm = formSchema({
  struct: object({ name: text(), email: text() }),
  prepare: lowerEmail,
  bag: ACCOUNT_BAGS.profile,
  rules(v, _value, context) {
    v.field('name').max(NAME_MAX_LENGTH);
    v.field('email').email().max(EMAIL_MAX_LENGTH).unique('users', 'email').ignore(context.user?.id);
  },
});

/**
 * 'Change password', or 'Set a password' for a user without one (no current password then).
 * Whether the current password is right is the use case's answer, checked once (Argon2 is slow).
 */
export const passwordForm = formSchema({
  struct: object({ current_password: optionalText({ trim: false }), password: text({ trim: false }) }),
  bag: ACCOUNT_BAGS.password,
  labels: { current_password: 'current password' },
  rules(v, _value, context) {
    if (hasPassword(context)) v.field('current_password').required().max(PASSWORD_MAX_LENGTH);
    v.field('password').min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH).confirmed();
  },
});

/**
 * 'Log out other devices' and 'Delete account': the password, for a user who has one (the
 * others confirm by a recent login). Whether it is right is `ConfirmIdentity`'s answer.
 */
function confirmationForm(bag: string): FormSchema<{ password?: string | undefined }> {
  return formSchema({
    struct: object({ password: optionalText({ trim: false }) }),
    bag,
    rules(v, _value, context) {
      if (hasPassword(context)) v.field('password').required().max(PASSWORD_MAX_LENGTH);
    },
  });
}

export const otherDevicesForm = confirmationForm(ACCOUNT_BAGS.devices);
export const deleteAccountForm = confirmationForm(ACCOUNT_BAGS.deletion);
