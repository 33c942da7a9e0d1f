import type { User } from '../../domain/users/user.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/** Whether `password` is the user's ('confirm password', the current password of a form). Never true without a password. */
export class CheckPassword {
  constructor(private readonly hasher: PasswordHasher) {}

  async execute(user: User, password: string): Promise<boolean> {
    if (!user.hasPassword() || password === '') return false;
    return this.hasher.verify(user.passwordHash as string, password);
  }
}
