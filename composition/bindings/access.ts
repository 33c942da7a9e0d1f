import { RegisteredAccessPolicy } from '../../adapters/access/registered-access-policy.js';
import { SqlTokenVerifier } from '../../adapters/persistence/mikro-orm/sql-token-verifier.js';
import type { AccessPolicy } from '../../ports/access-policy.js';
import type { TokenVerifier } from '../../ports/token-verifier.js';
import { CORE_TOKENS as C } from './core.js';
import { provideDefault, token } from './provide.js';
import type { Binding } from './provide.js';

/** Who may do what (gates, roles, permissions), and who an API token signs in. */
export const ACCESS_TOKENS = {
  accessPolicy: token<AccessPolicy>('AccessPolicy'),
  tokenVerifier: token<TokenVerifier>('TokenVerifier'),
} as const;

export function bindAccess(binding: Binding): void {
  // Tokens issued into the api_tokens table; an app with its own token format provides another.
  provideDefault(binding, ACCESS_TOKENS.tokenVerifier, [C.database, C.clock, C.random], (db, clock, random) => new SqlTokenVerifier(db.raw, clock, random));
  // Refuses everything until the app registers gates, roles or permissions (App.gate, …).
  provideDefault(binding, ACCESS_TOKENS.accessPolicy, [], () => new RegisteredAccessPolicy());
}
