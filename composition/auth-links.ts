import type { Handler } from '../adapters/http/kernel/request-context.js';
import { emailVerificationHash, VERIFICATION_LINK_TTL_SECONDS } from '../domain/auth/email-verification.js';
import type { RouteTable } from '../domain/http/routing/route-table.js';
import { urlFor } from '../domain/http/routing/url.js';
import { expiresAfter, signUrl } from '../domain/http/signed-urls/signed-url.js';
import type { User } from '../domain/users/user.js';
import type { Clock } from '../ports/clock.js';

/** The links the Auth mails carry, absolute (APP_URL), from the app's own routes. */
export interface AuthLinks {
  verifyEmail(user: User): string;
  resetPassword(user: User, token: string): string;
}

export function authLinks(table: RouteTable<Handler>, appUrl: string, signingKey: Buffer, clock: Clock): AuthLinks {
  const base = appUrl.replace(/\/+$/u, '');
  return {
    verifyEmail(user) {
      const path = urlFor(table, 'verification.verify', [user.id, emailVerificationHash(user.email)]);
      const expiresAt = expiresAfter(Math.floor(clock.now().getTime() / 1000), VERIFICATION_LINK_TTL_SECONDS);
      return signUrl(base, path, { expiresAt, key: signingKey });
    },
    resetPassword(user, token) {
      return `${base}${urlFor(table, 'password.reset', [token], { email: user.email })}`;
    },
  };
}
