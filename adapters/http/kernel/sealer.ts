/**
 * Seals values into cookie text and opens them again: the kernel's view of the cookie
 * encryption (the transports hand it the iron sealer, `adapters/http/cookie-sealer.ts`).
 */
export interface Sealer {
  seal(name: string, value: unknown): Promise<string>;
  /** The value, or undefined when the text is tampered, foreign, or sealed for another name. */
  unseal(name: string, sealed: string): Promise<unknown>;
}
