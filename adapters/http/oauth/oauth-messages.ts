import { SIGN_IN_MESSAGES, SUCCESS_MESSAGES, TRY_AGAIN, UNLINK_MESSAGES } from '../../../domain/oauth/errors.js';
import type { Notice } from '../../../domain/oauth/errors.js';
import type { Lang } from '../../../domain/lang/lang.js';

/**
 * The social-login sentences as keys of the language files. The domain keeps its English
 * sentences (its tests and API answers read them); the routes translate a notice on the way
 * out, by the sentence the domain chose, so each table row has one key.
 */
export const OAUTH_MESSAGE_KEYS: ReadonlyMap<string, string> = new Map([
  [TRY_AGAIN, 'oauth.message.try_again'],
  [SIGN_IN_MESSAGES['unverified-email'], 'oauth.message.unverified_email'],
  [SIGN_IN_MESSAGES['email-owner-unverified'], 'oauth.message.email_owner_unverified'],
  [SIGN_IN_MESSAGES['registration-closed'], 'oauth.message.registration_closed'],
  [SIGN_IN_MESSAGES['linked-to-another-user'], 'oauth.message.linked_to_another_user'],
  [SIGN_IN_MESSAGES['provider-already-linked'], 'oauth.message.provider_already_linked'],
  [SIGN_IN_MESSAGES['own-email-unverified'], 'oauth.message.own_email_unverified'],
  [SIGN_IN_MESSAGES['not-linked-to-you'], 'oauth.message.not_linked_to_you'],
  [SIGN_IN_MESSAGES['already-logged-in'], 'oauth.message.already_logged_in'],
  [UNLINK_MESSAGES['not-linked'], 'oauth.message.not_linked'],
  [UNLINK_MESSAGES['only-way-to-log-in'], 'oauth.message.only_way_to_log_in'],
  [SUCCESS_MESSAGES.linked, 'oauth.message.linked'],
  [SUCCESS_MESSAGES.alreadyLinked, 'oauth.message.already_linked'],
  [SUCCESS_MESSAGES.unlinked, 'oauth.message.unlinked'],
]);

/** The 403 when a bearer token reaches the social-login routes. */
export const NEEDS_SESSION_KEY = 'oauth.message.needs_session';

/** A domain sentence in the request's language; one without a key is shown as the domain wrote it. */
export function translatedSentence(lang: Lang, sentence: string): string {
  const key = OAUTH_MESSAGE_KEYS.get(sentence);
  return key === undefined ? sentence : lang.t(key);
}

export function translatedNotice(lang: Lang, notice: Notice): Notice {
  return { level: notice.level, message: translatedSentence(lang, notice.message) };
}
