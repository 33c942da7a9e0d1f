import { displayTotpSecret } from '../../domain/auth/totp.js';
import type { QrCode } from '../../ports/qr-code.js';
import type { Totp } from '../../ports/totp.js';

/** What the setup page shows so the user's authenticator app learns the secret. */
export interface TwoFactorSetup {
  /** The `otpauth://` URI, for a link that opens the app on a phone. */
  readonly uri: string;
  /** The same URI as a QR code, an inline `<svg>`. */
  readonly qrCodeSvg: string;
  /** The secret to type by hand, in groups of four (`ABCD EFGH …`). */
  readonly secret: string;
}

/**
 * Turns a secret into what the setup page shows: the app is named by `issuer` (APP_NAME) and
 * the account by the user's email, as the authenticator app will list it.
 */
export class TwoFactorSetups {
  constructor(
    private readonly totp: Totp,
    private readonly qr: QrCode,
    private readonly issuer: string,
  ) {}

  async describe(secret: string, account: string): Promise<TwoFactorSetup> {
    const uri = this.totp.uri({ secret, issuer: this.issuer, account });
    return { uri, qrCodeSvg: await this.qr.svg(uri), secret: displayTotpSecret(secret) };
  }
}
