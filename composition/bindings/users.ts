import { Argon2PasswordHasher } from '../../adapters/password/argon2-password-hasher.js';
import { MikroOrmUserRepository } from '../../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { CreateUser } from '../../application/users/create-user.js';
import { DeleteUser } from '../../application/users/delete-user.js';
import { EndAllSessions } from '../../application/users/end-all-sessions.js';
import { EndOtherSessions } from '../../application/users/end-other-sessions.js';
import { FindUserByEmail } from '../../application/users/find-user-by-email.js';
import { ListUserSessions } from '../../application/users/list-user-sessions.js';
import { ListUsers } from '../../application/users/list-users.js';
import { MarkEmailVerified } from '../../application/users/mark-email-verified.js';
import { SetPassword } from '../../application/users/set-password.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { UserRepository } from '../../ports/user-repository.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';
import { SESSION_TOKENS } from './sessions.js';

/** Users and their passwords, and what `user:*` commands and the account page do with them. */
export const USER_TOKENS = {
  userRepository: token<UserRepository>('UserRepository'),
  passwordHasher: token<PasswordHasher>('PasswordHasher'),
  createUser: token<CreateUser>('CreateUser'),
  listUsers: token<ListUsers>('ListUsers'),
  findUserByEmail: token<FindUserByEmail>('FindUserByEmail'),
  markEmailVerified: token<MarkEmailVerified>('MarkEmailVerified'),
  deleteUser: token<DeleteUser>('DeleteUser'),
  setPassword: token<SetPassword>('SetPassword'),
  endAllSessions: token<EndAllSessions>('EndAllSessions'),
  endOtherSessions: token<EndOtherSessions>('EndOtherSessions'),
  listUserSessions: token<ListUserSessions>('ListUserSessions'),
} as const;

const T = USER_TOKENS;

export function bindUsers({ container }: Binding): void {
  provide(container, T.passwordHasher, [], () => new Argon2PasswordHasher());
  provide(container, T.userRepository, [C.database], (db) => new MikroOrmUserRepository(db.orm, db.raw));
  provide(container, T.createUser, [T.userRepository, T.passwordHasher, C.clock], (users, hasher, clock) => new CreateUser(users, hasher, clock));
  provide(container, T.listUsers, [T.userRepository], (users) => new ListUsers(users));
  provide(container, T.findUserByEmail, [T.userRepository], (users) => new FindUserByEmail(users));
  provide(container, T.markEmailVerified, [T.userRepository, T.findUserByEmail, C.clock], (users, find, clock) => new MarkEmailVerified(users, find, clock));
  provide(container, T.deleteUser, [T.userRepository, T.findUserByEmail], (users, find) => new DeleteUser(users, find));
  provide(container, T.endAllSessions, [T.userRepository, SESSION_TOKENS.sessionStore, C.clock], (users, sessions, clock) => new EndAllSessions(users, sessions, clock));
  provide(container, T.endOtherSessions, [T.userRepository, C.clock], (users, clock) => new EndOtherSessions(users, clock));
  provide(container, T.setPassword, [T.userRepository, T.passwordHasher, T.endAllSessions, C.clock], (users, hasher, endAll, clock) => new SetPassword(users, hasher, endAll, clock));
  provide(container, T.listUserSessions, [SESSION_TOKENS.sessionStore, C.clock], (sessions, clock) => new ListUserSessions(sessions, clock));
}
