import { checkAbilities } from '../../../domain/security/api-token.js';
import type { TokenVerifier, VerifiedToken } from '../../../ports/token-verifier.js';
import { MisuseError } from '../../../domain/shared/errors.js';

/**
 * Tokens the app or a test hands out in code: `tokens.add('secret-token', { userId: 1 })`.
 * Lookups go through a Map, so the time they take says nothing about near misses.
 */
export class InMemoryTokenVerifier implements TokenVerifier {
  private readonly tokens = new Map<string, VerifiedToken>();

  add(token: string, grant: { userId: number; abilities?: readonly string[] | null }): this {
    if (token === '') throw new MisuseError('security.empty-api-token', 'An API token must not be empty');
    this.tokens.set(token, { userId: grant.userId, abilities: checkAbilities(grant.abilities ?? null) });
    return this;
  }

  revoke(token: string): boolean {
    return this.tokens.delete(token);
  }

  verify(token: string): Promise<VerifiedToken | null> {
    return Promise.resolve(this.tokens.get(token) ?? null);
  }
}
