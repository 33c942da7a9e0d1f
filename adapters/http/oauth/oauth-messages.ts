import type { Notice, NoticeCode } from '../../../domain/oauth/errors.js';
import type { Lang } from '../../../domain/lang/lang.js';

/**
 * The social-login notices as keys of the language files: the domain says which notice (a
 * stable code), the pages say it in the request's language. A code without a key here is a
 * compile error, so no notice can reach a page untranslated.
 */
export const OAUTH_NOTICE_KEYS: Readonly<Record<NoticeCode, string>> = {
  'try-again': 'oauth.message.try_again',
  'unverified-email': 'oauth.message.unverified_email',
  'email-owner-unverified': 'oauth.message.email_owner_unverified',
  'registration-closed': 'oauth.message.registration_closed',
  'linked-to-another-user': 'oauth.message.linked_to_another_user',
  'provider-already-linked': 'oauth.message.provider_already_linked',
  'own-email-unverified': 'oauth.message.own_email_unverified',
  'not-linked-to-you': 'oauth.message.not_linked_to_you',
  'already-logged-in': 'oauth.message.already_logged_in',
  'not-linked': 'oauth.message.not_linked',
  'only-way-to-log-in': 'oauth.message.only_way_to_log_in',
  linked: 'oauth.message.linked',
  'already-linked': 'oauth.message.already_linked',
  unlinked: 'oauth.message.unlinked',
};

/** The 403 when a bearer token reaches the social-login routes. */
export const NEEDS_SESSION_KEY = 'oauth.message.needs_session';

/** A notice's sentence in the request's language. */
export function noticeText(lang: Lang, code: NoticeCode): string {
  return lang.t(OAUTH_NOTICE_KEYS[code]);
}

/** A notice as a toast shows it: its level, and its sentence in the request's language. */
export function translatedNotice(lang: Lang, notice: Notice): { level: Notice['level']; message: string } {
  return { level: notice.level, message: noticeText(lang, notice.code) };
}
