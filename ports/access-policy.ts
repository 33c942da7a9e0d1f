import type { User } from '../domain/users/user.js';

/**
 * The app's answers to 'may this user…?': gates and policies (`user.authorize(ability,
 * resource)`), roles and permissions. The kernel asks; the app (or a permissions module) fills
 * it. Whatever the policy does not know is refused.
 */
export interface AccessPolicy {
  allows(user: User, ability: string, resource?: unknown): Promise<boolean>;
  hasRole(user: User, role: string): Promise<boolean>;
  hasPermission(user: User, permission: string): Promise<boolean>;
  /** Every role the user holds (`auth.roles` in views); a policy that cannot list them leaves this out. */
  rolesOf?(user: User): Promise<readonly string[]>;
}
