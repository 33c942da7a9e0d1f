import type { User } from '../../domain/users/user.js';
import type { AccessPolicy } from '../../ports/access-policy.js';
import { MisuseError } from '../../domain/shared/errors.js';

/** A gate or policy: whether `user` may do the ability (to `resource`, when one is given). */
export type Gate = (user: User, resource?: unknown) => boolean | Promise<boolean>;
/** The names a user holds (roles or permissions), as the app stores them. */
export type NamesOf = (user: User) => readonly string[] | Promise<readonly string[]>;

/**
 * The access policy an app fills through `App.gate`, `App.roles` and `App.permissions`. An
 * ability without a gate, and every role or permission when the app registered no lookup, is
 * refused: forgetting to write a rule must close the door, not open it.
 */
export class RegisteredAccessPolicy implements AccessPolicy {
  private readonly gates = new Map<string, Gate>();
  private roleLookup: NamesOf | null = null;
  private permissionsOf: NamesOf | null = null;

  define(ability: string, gate: Gate): this {
    if (ability === '') throw new MisuseError('access.bad-gate', 'A gate needs a name');
    if (this.gates.has(ability)) throw new MisuseError('access.gate-twice', `The gate "${ability}" is defined twice`);
    this.gates.set(ability, gate);
    return this;
  }

  roles(lookup: NamesOf): this {
    this.roleLookup = lookup;
    return this;
  }

  permissions(lookup: NamesOf): this {
    this.permissionsOf = lookup;
    return this;
  }

  async allows(user: User, ability: string, resource?: unknown): Promise<boolean> {
    const gate = this.gates.get(ability);
    if (gate === undefined) return false;
    return (await (arguments.length > 2 ? gate(user, resource) : gate(user))) === true;
  }

  async hasRole(user: User, role: string): Promise<boolean> {
    return this.roleLookup !== null && (await this.roleLookup(user)).includes(role);
  }

  async rolesOf(user: User): Promise<readonly string[]> {
    return this.roleLookup === null ? [] : [...(await this.roleLookup(user))];
  }

  async hasPermission(user: User, permission: string): Promise<boolean> {
    return this.permissionsOf !== null && (await this.permissionsOf(user)).includes(permission);
  }
}
