/**
 * Encryption at rest for secrets the app must read back (a TOTP secret; unlike a password it
 * cannot be hashed). Sealed text is authenticated: a changed byte opens to nothing.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or null when `sealed` was damaged, or sealed under another key (APP_KEY changed). */
  open(sealed: string): string | null;
}
