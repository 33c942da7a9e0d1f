import { object } from 'superstruct';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../domain/auth/password-policy.js';
import { NAME_MAX_LENGTH } from '../../../domain/users/user.js';
import { checkbox, optionalText, text } from '../validation/fields.js';
import { formSchema } from '../validation/form-schema.js';
import type { FormSchema } from '../validation/form-schema.js';
import type { Validator } from '../validation/validator.js';

/** Emails are compared in the one spelling the domain stores: trimmed, lower case. */
function lowerEmail(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const record = input as Record<string, unknown>;
  return typeof record['email'] === 'string' ? { ...record, email: record['email'].trim().toLowerCase() } : input;
}

/** A new password: the policy's length, typed twice. No composition rules (NIST SP 800-63B). */
function newPassword(v: Validator): void {
  v.field('password').required().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH).confirmed();
}

const EMAIL_MAX = 254;

export const loginForm = formSchema({
  struct: object({ email: text(), password: text({ trim: false }), remember: checkbox() }),
  prepare: lowerEmail,
  rules(v) {
    v.field('email').email().max(EMAIL_MAX);
    // Only a bound on what is hashed; whether it is right is the login's answer, not a rule.
    v.field('password').max(PASSWORD_MAX_LENGTH);
  },
});

export type RegistrationRules = (v: Validator, value: Record<string, unknown>) => void | Promise<void>;

export function registerForm(extra: RegistrationRules | null): FormSchema<{ name: string; email: string; password: string }> {
  return formSchema({
    struct: object({ name: text(), email: text(), password: text({ trim: false }) }),
    prepare: lowerEmail,
    async rules(v, value) {
      v.field('name').max(NAME_MAX_LENGTH);
      v.field('email').email().max(EMAIL_MAX).unique('users', 'email');
      newPassword(v);
      if (extra !== null) await extra(v, value);
    },
  });
}

export const forgotPasswordForm = formSchema({
  struct: object({ email: text() }),
  prepare: lowerEmail,
  rules(v) {
    v.field('email').email().max(EMAIL_MAX);
  },
});

export const resetPasswordForm = formSchema({
  struct: object({ token: text(), email: text(), password: text({ trim: false }) }),
  prepare: lowerEmail,
  rules(v) {
    v.field('email').email().max(EMAIL_MAX);
    newPassword(v);
  },
});

export const confirmPasswordForm = formSchema({
  struct: object({ password: optionalText({ trim: false }) }),
  rules(v) {
    v.field('password').required().max(PASSWORD_MAX_LENGTH);
  },
});
