import { createHash } from 'node:crypto';
import { MisuseError } from '../shared/errors.js';
import { base64url } from '../shared/bytes.js';

/** 40 bytes of randomness as base64url: the secret part of a database API token. */
export const API_TOKEN_SECRET_BYTES = 40;

const TOKEN = /^([1-9]\d{0,15})\|([A-Za-z0-9_-]{54})$/u;

/**
 * The database-backed tokens read `<id>|<secret>`: the id finds the row in one indexed lookup,
 * the secret is compared by hash. Anything else is not a token of this kind.
 */
export function parseApiToken(text: string): { id: number; secret: string } | null {
  const match = TOKEN.exec(text);
  if (match === null) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? { id, secret: match[2] as string } : null;
}

export function formatApiToken(id: number, secretBytes: Uint8Array): string {
  if (secretBytes.length !== API_TOKEN_SECRET_BYTES) throw new MisuseError('security.random-bytes', `An API token secret needs ${API_TOKEN_SECRET_BYTES} random bytes`);
  return `${id}|${base64url(secretBytes)}`;
}

/** What is stored of a secret: its SHA-256, hex. A leaked table gives no usable token. */
export function apiTokenHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Abilities as given when issuing: trimmed, distinct, non-empty; null means unrestricted. */
export function checkAbilities(abilities: readonly string[] | null): readonly string[] | null {
  if (abilities === null) return null;
  const clean = [...new Set(abilities.map((ability) => ability.trim()))];
  if (clean.some((ability) => ability === '' || /[\s,]/u.test(ability))) throw new MisuseError('security.bad-ability', 'An ability is a non-empty name without spaces or commas');
  return Object.freeze(clean);
}
