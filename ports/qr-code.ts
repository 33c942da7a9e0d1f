/** QR codes for pages, such as the otpauth:// URI an authenticator app scans. */
export interface QrCode {
  /** A standalone `<svg>` element (no script, no external reference), ready to inline in a page. */
  svg(text: string): Promise<string>;
}
