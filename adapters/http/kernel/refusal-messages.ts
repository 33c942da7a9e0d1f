import type { GuardReason } from '../../../domain/http/guards.js';

/**
 * The sentences of the framework's own refusals, made here where answers are made; the domain
 * decides only the stable reason. The JSON `message` and the error page's text are these.
 */
export const GUARD_MESSAGES: Readonly<Record<GuardReason, string>> = {
  unauthenticated: 'Unauthenticated.',
  forbidden: 'This action is unauthorized.',
  unverified: 'Your email address is not verified.',
  'confirm-password': 'Password confirmation required.',
};

/** What a visitor reads when a body nests deeper than BODY_MAX_DEPTH. */
export const BODY_TOO_DEEP = 'The request body is nested too deeply.';
