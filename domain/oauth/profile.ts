import { normalizeEmail } from '../users/email.js';
import { NAME_MAX_LENGTH } from '../users/user.js';
import { MisuseError } from '../shared/errors.js';

/**
 * What a provider said about the person, read once with the token: the rules see these fields
 * and nothing else. `Profile` satisfies it; tests and callers may also pass plain objects.
 */
export interface ProfileFacts {
  /** The provider's id of the account, as a string (GitHub's numbers too). */
  readonly providerUserId: string;
  /** The address in its canonical spelling, or null when the provider gave none (or junk). */
  readonly emailAddress: string | null;
  /** True only when the provider itself verified the address. */
  readonly emailVerified: boolean;
  readonly displayName: string | null;
  readonly pictureUrl: string | null;
}

/** Longer ids are no id any provider issues; the column is sized for this. */
export const PROVIDER_USER_ID_MAX_LENGTH = 255;

/** Longer picture URLs are dropped rather than stored: they are decoration, not identity. */
export const PICTURE_URL_MAX_LENGTH = 2048;

// Control characters make no sense in an id or a name and can forge lines in logs.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

/**
 * The spec's `Profile::new(id).email(address, verified).name(name)`, immutable: each call
 * returns a new value. Provider data is outside input, so it is cleaned here once: the address
 * is normalised (a malformed one counts as none, and is then never verified), the name is
 * trimmed and cut to what a user's name may hold, a picture is kept only as an http(s) URL.
 */
export class Profile implements ProfileFacts {
  private constructor(
    readonly providerUserId: string,
    readonly emailAddress: string | null,
    readonly emailVerified: boolean,
    readonly displayName: string | null,
    readonly pictureUrl: string | null,
  ) {
    Object.freeze(this);
  }

  /**
   * A provider's normaliser that cannot find an id has a bad response in hand: that is a
   * failure of the sign-in ('try again'), which the caller gets as this TypeError.
   */
  static create(providerUserId: string): Profile {
    if (!isProviderUserId(providerUserId)) {
      throw new MisuseError('oauth.bad-provider-user-id', `A provider user id must be 1 to ${PROVIDER_USER_ID_MAX_LENGTH} characters without spaces at the ends or control characters`);
    }
    return new Profile(providerUserId, null, false, null, null);
  }

  email(address: string | null, verified: boolean): Profile {
    const check = typeof address === 'string' ? normalizeEmail(address) : null;
    const email = check?.kind === 'valid' ? check.email : null;
    // `=== true`: a claim of "true" (a string) from a sloppy provider is no verification.
    return new Profile(this.providerUserId, email, email !== null && verified === true, this.displayName, this.pictureUrl);
  }

  name(name: string | null): Profile {
    return new Profile(this.providerUserId, this.emailAddress, this.emailVerified, cleanName(name), this.pictureUrl);
  }

  picture(url: string | null): Profile {
    return new Profile(this.providerUserId, this.emailAddress, this.emailVerified, this.displayName, cleanPictureUrl(url));
  }
}

export function isProviderUserId(id: unknown): id is string {
  return typeof id === 'string' && id !== '' && id.length <= PROVIDER_USER_ID_MAX_LENGTH && id.trim() === id && !CONTROL.test(id);
}

/** Trimmed, control characters turned into spaces, cut to `NAME_MAX_LENGTH` characters; empty is none. */
export function cleanName(name: string | null): string | null {
  if (typeof name !== 'string') return null;
  const clean = [...name.replace(new RegExp(CONTROL.source, 'gu'), ' ').trim()].slice(0, NAME_MAX_LENGTH).join('').trim();
  return clean === '' ? null : clean;
}

function cleanPictureUrl(url: string | null): string | null {
  if (typeof url !== 'string' || url.length > PICTURE_URL_MAX_LENGTH || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return parsed.href;
}
