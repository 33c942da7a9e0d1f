import type { ProviderSettings } from '../../../domain/oauth/credentials.js';

/** A provider's optional setting; a blank `.env` line (`PROVIDER_A_LABEL=`) means the default, like a missing one. */
export function setting(settings: ProviderSettings, name: string): string | undefined {
  const value = settings.get(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}
