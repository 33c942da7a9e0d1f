import { normalizeEmail } from '../../domain/users/email.js';
import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../ports/user-repository.js';

export class FindUserByEmail {
  constructor(private readonly users: UserRepository) {}

  async execute(email: string): Promise<User | null> {
    const checked = normalizeEmail(email);
    return checked.kind === 'valid' ? this.users.findByEmail(checked.email) : null;
  }
}
