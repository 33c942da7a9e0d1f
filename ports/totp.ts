/**
 * Time-based one-time passwords (RFC 6238) with the settings of `domain/auth/totp.ts`. The
 * secret is the base32 text an authenticator app takes.
 */
export interface Totp {
  /** The `otpauth://totp/…` URI an app reads from a QR code. */
  uri(input: { secret: string; issuer: string; account: string }): string;
  /**
   * The time step whose code `code` is, looking one step either side of `at`; null when it is
   * the code of none. Whether that step was already used is the caller's question.
   */
  match(secret: string, code: string, at: Date): number | null;
}
