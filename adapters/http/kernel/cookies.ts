import { MisuseError } from '../../../domain/shared/errors.js';
/**
 * A cookie to set, as a value: `SetCookie.make('theme', 'dark').maxAge(86_400)`. Defaults:
 * `Path=/`, `HttpOnly`, `SameSite=Lax`, `Secure` when APP_URL is https, and no expiry (the
 * browser drops it when it closes). `encrypted` seals the value with a key derived from
 * APP_KEY: the browser can neither read nor change it.
 */
export class SetCookie {
  private constructor(
    readonly name: string,
    readonly value: unknown,
    readonly options: {
      readonly encrypted: boolean;
      readonly remove: boolean;
      readonly maxAgeSeconds: number | null;
      readonly path: string;
      readonly httpOnly: boolean;
      readonly sameSite: 'Lax' | 'Strict';
    },
  ) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/u.test(name)) throw new MisuseError('http.bad-cookie', `"${name}" is not a valid cookie name`);
  }

  static make(name: string, value: string): SetCookie {
    // Checked here, where the handler's stack points at the mistake: hapi would refuse it only
    // while sending, after the error pages ran, with a bare 500 and no security headers.
    if (typeof value !== 'string' || !COOKIE_TEXT.test(value)) {
      throw new MisuseError('http.bad-cookie', `The value of cookie "${name}" must be printable ASCII without ';': encode it (encodeURIComponent) or use SetCookie.encrypted`);
    }
    return new SetCookie(name, value, DEFAULTS);
  }

  /** Any JSON value, sealed: read back with `cookies.getEncrypted(name)`. */
  static encrypted(name: string, value: unknown): SetCookie {
    return new SetCookie(name, value, { ...DEFAULTS, encrypted: true });
  }

  static remove(name: string): SetCookie {
    return new SetCookie(name, '', { ...DEFAULTS, remove: true });
  }

  maxAge(seconds: number): SetCookie {
    if (!Number.isInteger(seconds) || seconds < 0) throw new MisuseError('http.bad-cookie', 'maxAge takes whole seconds');
    return new SetCookie(this.name, this.value, { ...this.options, maxAgeSeconds: seconds });
  }

  path(path: string): SetCookie {
    // Same reason as in make(): hapi refuses a path with ';' or control characters only while sending.
    if (!path.startsWith('/') || !COOKIE_TEXT.test(path)) throw new MisuseError('http.bad-cookie', 'a cookie path starts with / and is printable ASCII without ;');
    return new SetCookie(this.name, this.value, { ...this.options, path });
  }

  /** Scripts may read it (no `HttpOnly`): only for values that are not secrets. */
  readableByScripts(): SetCookie {
    return new SetCookie(this.name, this.value, { ...this.options, httpOnly: false });
  }

  /** `SameSite=Strict`: not sent when another site links here. */
  strict(): SetCookie {
    return new SetCookie(this.name, this.value, { ...this.options, sameSite: 'Strict' });
  }
}

/** What a cookie value or path may hold: one header line of printable ASCII, and no `;` (it ends the value). */
const COOKIE_TEXT = /^[\x20-\x3a\x3c-\x7e]*$/u;

const DEFAULTS = { encrypted: false, remove: false, maxAgeSeconds: null, path: '/', httpOnly: true, sameSite: 'Lax' } as const;

/** The request's cookies. */
export interface Cookies {
  get(name: string): string | undefined;
  /** The value of a cookie set with `SetCookie.encrypted`; undefined when missing, tampered or sealed for another name. */
  getEncrypted<T = unknown>(name: string): Promise<T | undefined>;
}
