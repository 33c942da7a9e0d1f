import type { FindUserByEmail } from '../../../application/users/find-user-by-email.js';
import type { SetPassword } from '../../../application/users/set-password.js';
import type { CliCommand, PromptInput } from '../command.js';
import { NotFound } from './users.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface UserPasswordDeps {
  passwords(): Promise<{ findUserByEmail: FindUserByEmail; setPassword: SetPassword }>;
}

/**
 * `fwx user:password <email>`. The password is never an argument: arguments end up in shell
 * history and in every process listing. At a terminal it is asked twice without echo (a typo
 * nobody saw would lock the user out); a pipe gives it as its first line.
 */
export function userPasswordCommand(deps: UserPasswordDeps): CliCommand {
  return {
    name: 'user:password',
    args: '<email>',
    description: "Set a user's password (asked without echo, or the first line of standard input) and end their sessions",
    async run({ args }, io) {
      const email = args[0] ?? '';
      const { findUserByEmail, setPassword } = await deps.passwords();
      // Before asking: nobody should type a password for a user who does not exist.
      const user = await findUserByEmail.execute(email);
      if (user === null) throw new NotFound(email);
      if (io.input === undefined) throw new FrameworkError('cli.no-input', 'user:password reads the password from standard input, and there is none here');
      const password = await askPassword(io.input, user.email);
      const result = await setPassword.execute({ userId: user.id, password });
      switch (result.kind) {
        case 'not-found':
          throw new NotFound(email);
        case 'invalid':
          throw new FrameworkError('cli.password-refused', `The password ${result.reason}; nothing was changed`);
        case 'set': {
          const rows = result.deleted === 0 ? '' : `, ${result.deleted} database session${result.deleted === 1 ? '' : 's'} deleted`;
          io.out(`Set the password of ${user.email}.`);
          io.out(`Every session of ${user.email} has ended (session epoch now ${result.epoch}${rows}).`);
        }
      }
    },
  };
}

async function askPassword(input: PromptInput, email: string): Promise<string> {
  const first = await input.prompt(`New password for ${email}: `, { secret: true });
  if (first === null) throw new FrameworkError('cli.no-input', 'No password was given (the input ended); nothing was changed');
  if (!input.interactive) return first;
  const again = await input.prompt('The same password again: ', { secret: true });
  if (again === null) throw new FrameworkError('cli.no-input', 'No password was given (the input ended); nothing was changed');
  if (again !== first) throw new FrameworkError('cli.passwords-differ', 'The two passwords differ; nothing was changed');
  return first;
}
