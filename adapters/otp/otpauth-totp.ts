import { createRequire } from 'node:module';
import type * as Otpauth from 'otpauth';
import { TOTP_ALGORITHM, TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_WINDOW, normalizeTotpCode, totpStep } from '../../domain/auth/totp.js';
import type { Totp } from '../../ports/totp.js';

/**
 * RFC 6238 by `otpauth`: SHA-1, six digits, 30 seconds, one step either side. The library
 * compares codes in constant time; the step a code belongs to is worked out here, so the
 * caller can refuse a step already used.
 */
const load = createRequire(import.meta.url);
let library: typeof Otpauth | null = null;

/** The library, loaded with the first code or key URI: most processes never handle one (0.6 MB of heap). */
function otpauth(): typeof Otpauth {
  library ??= load('otpauth') as typeof Otpauth;
  return library;
}

export class OtpauthTotp implements Totp {
  uri(input: { secret: string; issuer: string; account: string }): string {
    return this.totp(input.secret, input.issuer, input.account).toString();
  }

  match(secret: string, code: string, at: Date): number | null {
    const token = normalizeTotpCode(code);
    if (token === null) return null;
    const delta = this.totp(secret).validate({ token, timestamp: at.getTime(), window: TOTP_WINDOW });
    return delta === null ? null : totpStep(at) + delta;
  }

  private totp(secret: string, issuer = '', label = 'OTPAuth'): Otpauth.TOTP {
    const { Secret, TOTP } = otpauth();
    return new TOTP({
      issuer,
      label,
      // `Issuer:account` in the label as well as `issuer=`: Google's key URI format
      // recommends both, and older apps read only the label.
      issuerInLabel: issuer !== '',
      secret: Secret.fromBase32(secret),
      algorithm: TOTP_ALGORITHM,
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
    });
  }
}
