import { apiTokenHash, API_TOKEN_SECRET_BYTES, checkAbilities, formatApiToken, parseApiToken } from '../../../domain/security/api-token.js';
import { sameSecret } from '../../../domain/security/constant-time.js';
import { base64url } from '../../../domain/shared/bytes.js';
import type { Clock } from '../../../ports/clock.js';
import type { RandomSource } from '../../../ports/random-source.js';
import type { TokenVerifier, VerifiedToken } from '../../../ports/token-verifier.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

interface TokenRow {
  user_id: number | string;
  token_hash: string;
  abilities: string | null;
  expires_at: DateColumn | null;
}

/**
 * API tokens in the `api_tokens` table (`<id>|<secret>`, secret stored hashed). `issue` hands
 * out a token once; only its holder can use it afterwards. Verification is one indexed lookup
 * and a constant-time comparison of hashes.
 */
export class SqlTokenVerifier implements TokenVerifier {
  constructor(
    private readonly raw: RawSql,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async issue(userId: number, name: string, options: { abilities?: readonly string[] | null; expiresAt?: Date | null } = {}): Promise<string> {
    const abilities = checkAbilities(options.abilities ?? null);
    const secretBytes = this.random.bytes(API_TOKEN_SECRET_BYTES);
    const secret = base64url(secretBytes);
    const rows = await this.raw.session((sql) =>
      sql.query<{ id: number | string }>(
        'INSERT INTO api_tokens (user_id, name, token_hash, abilities, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
        [userId, name, apiTokenHash(secret), abilities === null ? null : JSON.stringify(abilities), options.expiresAt ?? null, this.clock.now()],
      ),
    );
    const id = Number(rows[0]?.id);
    return formatApiToken(id, secretBytes);
  }

  async revoke(token: string): Promise<boolean> {
    const parsed = parseApiToken(token);
    if (parsed === null || (await this.verify(token)) === null) return false;
    const rows = await this.raw.session((sql) => sql.query('DELETE FROM api_tokens WHERE id = ? RETURNING id', [parsed.id]));
    return rows.length > 0;
  }

  async verify(token: string): Promise<VerifiedToken | null> {
    const parsed = parseApiToken(token);
    if (parsed === null) return null;
    const rows = await this.raw.session((sql) =>
      sql.query<TokenRow>('SELECT user_id, token_hash, abilities, expires_at FROM api_tokens WHERE id = ?', [parsed.id]),
    );
    const row = rows[0];
    if (row === undefined || !sameSecret(row.token_hash, apiTokenHash(parsed.secret))) return null;
    if (row.expires_at !== null && dateFromColumn(row.expires_at).getTime() <= this.clock.now().getTime()) return null;
    return { userId: Number(row.user_id), abilities: abilitiesOf(row.abilities) };
  }
}

function abilitiesOf(text: string | null): readonly string[] | null {
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    // A damaged list grants nothing rather than everything.
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
