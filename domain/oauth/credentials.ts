import { providerEnabled } from './provider.js';
import { MisuseError } from '../shared/errors.js';

/** Where a provider's settings come from: the app's configuration (`.env` and the environment). */
export interface ProviderSettings {
  get(name: string): string | undefined;
}

/** A provider's setting; a blank `.env` line (`PROVIDER_A_LABEL=`) means unset, like a missing one. */
export function readSetting(settings: ProviderSettings, name: string): string | undefined {
  const value = settings.get(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export interface ClientCredentials {
  readonly clientId: string;
  /** Stays on the server: it goes to the token endpoint only, never into a URL, a log or a view. */
  readonly clientSecret: string;
}

/**
 * The spec's `Credentials`: `Credentials.create(id, secret)` in code, or
 * `Credentials.fromConfig('PROVIDER_A')`, read from `<PREFIX>_CLIENT_ID` and
 * `<PREFIX>_CLIENT_SECRET` each time a request needs them. Without both the provider is off.
 */
export class Credentials {
  private constructor(
    private readonly source: { readonly kind: 'fixed'; readonly clientId: string; readonly clientSecret: string } | { readonly kind: 'config'; readonly prefix: string },
  ) {}

  static create(clientId: string, clientSecret: string): Credentials {
    return new Credentials({ kind: 'fixed', clientId, clientSecret });
  }

  static fromConfig(prefix: string): Credentials {
    if (!/^[A-Z][A-Z0-9_]*$/u.test(prefix)) throw new MisuseError('oauth.bad-credentials-prefix', `A credentials prefix is upper case letters, digits and '_', got '${prefix}'`);
    return new Credentials({ kind: 'config', prefix });
  }

  /** The client id and secret now, or null: the provider is off (no button, its routes answer 404). */
  resolve(settings: ProviderSettings): ClientCredentials | null {
    const values =
      this.source.kind === 'fixed'
        ? { clientId: this.source.clientId, clientSecret: this.source.clientSecret }
        : { clientId: readSetting(settings, `${this.source.prefix}_CLIENT_ID`), clientSecret: readSetting(settings, `${this.source.prefix}_CLIENT_SECRET`) };
    if (!providerEnabled(values)) return null;
    return { clientId: (values.clientId as string).trim(), clientSecret: (values.clientSecret as string).trim() };
  }

  /** Never the secret: a provider printed in a log or an error shows where its credentials come from. */
  toString(): string {
    return this.source.kind === 'fixed' ? 'Credentials(in code)' : `Credentials(${this.source.prefix}_CLIENT_ID, ${this.source.prefix}_CLIENT_SECRET)`;
  }

  toJSON(): string {
    return this.toString();
  }
}
