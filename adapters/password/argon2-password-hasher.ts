import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/** `Algorithm.Argon2id` of @node-rs/argon2, whose `const enum` cannot be read under isolatedModules. */
const ARGON2ID = 2;

/** OWASP's first recommended setting for Argon2id: 19 MiB of memory, two passes, one lane. */
export const OWASP_ARGON2ID = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class Argon2PasswordHasher implements PasswordHasher {
  constructor(private readonly options: { memoryCost: number; timeCost: number; parallelism: number } = OWASP_ARGON2ID) {}

  hash(password: string): Promise<string> {
    return hash(password, { ...this.options, algorithm: ARGON2ID });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    if (!passwordHash.startsWith('$argon2')) return false;
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }
}
