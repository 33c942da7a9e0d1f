import type { UserRepository } from '../../ports/user-repository.js';
import type { FindUserByEmail } from './find-user-by-email.js';

export type DeleteUserResult = { kind: 'deleted'; id: number } | { kind: 'not-found' };

/**
 * An administrator removes a user. The schema removes what belongs to them (sessions, linked
 * provider accounts, reset tokens) and keeps activity-log rows, which still name the user id.
 */
export class DeleteUser {
  constructor(
    private readonly users: UserRepository,
    private readonly findUser: FindUserByEmail,
  ) {}

  async execute(email: string): Promise<DeleteUserResult> {
    const user = await this.findUser.execute(email);
    if (user === null) return { kind: 'not-found' };
    await this.users.remove(user.id);
    return { kind: 'deleted', id: user.id };
  }
}
