import { SqlSessionStore } from '../../adapters/persistence/mikro-orm/sql-session-store.js';
import type { SessionStore } from '../../ports/session-store.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const SESSION_TOKENS = {
  /** The `sessions` table: SESSION_DRIVER=database keeps sessions there; the session lists read it. */
  sessionStore: token<SessionStore>('SessionStore'),
} as const;

export function bindSessions({ container }: Binding): void {
  provide(container, SESSION_TOKENS.sessionStore, [C.database], (db) => new SqlSessionStore(db.raw));
}
