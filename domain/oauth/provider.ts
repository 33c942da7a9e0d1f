/**
 * What the domain needs to know about a provider: its name is used in URLs and stored in
 * `oauth_accounts`, so it must be safe in both and never change; a provider without both
 * credentials is off (no button, its routes answer 404).
 */

/** Letters, digits, `_`, `.` and `-`, starting with a letter or digit: a URL segment that needs no escaping. */
const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/u;

export function isProviderName(name: unknown): name is string {
  return typeof name === 'string' && PROVIDER_NAME.test(name);
}

export interface CredentialValues {
  readonly clientId: string | null | undefined;
  readonly clientSecret: string | null | undefined;
}

/**
 * A provider is on only with both a client id and a secret. Blank values count as unset (an
 * `.env` line `PROVIDER_A_CLIENT_ID=` is how one leaves it out), so the same code runs where
 * no credentials exist.
 */
export function providerEnabled(credentials: CredentialValues): boolean {
  return present(credentials.clientId) && present(credentials.clientSecret);
}

function present(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.trim() !== '';
}
