import type { User } from '../../../domain/users/user.js';
import type { AccessPolicy } from '../../../ports/access-policy.js';
import { HttpAbort } from './http-error.js';
import { GUARD_MESSAGES } from './refusal-messages.js';

/**
 * The signed-in user as handlers see it (`ctx.user`): the user record's public fields, role and
 * policy checks, and how the request was signed in. The password hash stays on `record`, which
 * templates never receive.
 */
export class AuthUser {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly emailVerifiedAt: Date | null;

  constructor(
    readonly record: User,
    private readonly policy: AccessPolicy,
    /** The bearer token's abilities; null for a session or an unrestricted token. */
    readonly tokenAbilities: readonly string[] | null,
    /** Signed in by `Authorization: Bearer` rather than the session. */
    readonly viaToken: boolean,
  ) {
    this.id = record.id;
    this.name = record.name;
    this.email = record.email;
    this.emailVerifiedAt = record.emailVerifiedAt;
  }

  hasPassword(): boolean {
    return this.record.hasPassword();
  }

  isVerified(): boolean {
    return this.record.isVerified();
  }

  hasRole(role: string): Promise<boolean> {
    return this.policy.hasRole(this.record, role);
  }

  /** Every role the user holds; empty when the app's policy cannot list them. */
  async roles(): Promise<readonly string[]> {
    return (await this.policy.rolesOf?.(this.record)) ?? [];
  }

  hasPermission(permission: string): Promise<boolean> {
    return this.policy.hasPermission(this.record, permission);
  }

  /** Whether a gate or policy lets this user do `ability` (to `resource`). */
  can(ability: string, ...resource: [unknown?]): Promise<boolean> {
    return resource.length > 0 ? this.policy.allows(this.record, ability, resource[0]) : this.policy.allows(this.record, ability);
  }

  /** Stops the handler with 403 unless `can(ability, resource)`. */
  async authorize(ability: string, ...resource: [unknown?]): Promise<void> {
    if (!(await this.can(ability, ...resource))) throw new HttpAbort(403, GUARD_MESSAGES.forbidden);
  }

  /** Whether the bearer token may do `ability`; sessions and unrestricted tokens may do anything. */
  tokenCan(ability: string): boolean {
    return this.tokenAbilities === null || this.tokenAbilities.includes(ability);
  }

  /** What templates get as `auth.user`: public fields only, never the password hash. */
  forViews(): { id: number; name: string; email: string; verified: boolean; has_password: boolean } {
    return { id: this.id, name: this.name, email: this.email, verified: this.isVerified(), has_password: this.hasPassword() };
  }
}
