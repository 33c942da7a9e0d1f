import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../ports/user-repository.js';

export interface UserPage {
  users: User[];
  total: number;
}

export class ListUsers {
  constructor(private readonly users: UserRepository) {}

  async execute(input: { limit: number; offset: number }): Promise<UserPage> {
    const [users, total] = await Promise.all([this.users.list(input), this.users.count()]);
    return { users, total };
  }
}
