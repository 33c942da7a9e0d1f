import type { CreateUser } from '../../../application/users/create-user.js';
import type { DeleteUser } from '../../../application/users/delete-user.js';
import type { FindUserByEmail } from '../../../application/users/find-user-by-email.js';
import type { ListUsers } from '../../../application/users/list-users.js';
import type { MarkEmailVerified } from '../../../application/users/mark-email-verified.js';
import type { User } from '../../../domain/users/user.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';
import { formatTable } from '../table.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface UserCommandDeps {
  users(): Promise<{
    createUser: CreateUser;
    listUsers: ListUsers;
    findUserByEmail: FindUserByEmail;
    markEmailVerified: MarkEmailVerified;
    deleteUser: DeleteUser;
  }>;
}

/** What an administrator may see of a user: never the password hash. */
function describe(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    verified: user.isVerified(),
    emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
    hasPassword: user.hasPassword(),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** The one-line failure of every command naming a user who does not exist. */
export class NotFound extends FrameworkError {
  constructor(email: string) {
    super('cli.not-found', `No user has the email address ${email}`);
  }
}

const JSON_OPTION = { flags: '--json', description: 'Print JSON instead of text', type: 'boolean' } as const;

export function userCommands(deps: UserCommandDeps): CliCommand[] {
  return [
    {
      name: 'user:create',
      description: 'Create a user (without --password: a password-less user)',
      options: [
        { flags: '--email <email>', description: 'Email address', type: 'string', required: true },
        { flags: '--name <name>', description: 'Display name', type: 'string', required: true },
        { flags: '--password <password>', description: 'Password (at least 8 characters)', type: 'string' },
        { flags: '--verified', description: 'Mark the email address as verified', type: 'boolean' },
      ],
      async run({ options }, io) {
        const { createUser } = await deps.users();
        const result = await createUser.execute({
          email: String(options['email']),
          name: String(options['name']),
          password: typeof options['password'] === 'string' ? options['password'] : null,
          verified: options['verified'] === true,
        });
        switch (result.kind) {
          case 'invalid':
            throw new UsageError(`--${result.field} ${result.reason}`);
          case 'email-taken':
            throw new FrameworkError('cli.user-exists', `A user with the email address ${String(options['email']).trim().toLowerCase()} already exists`);
          case 'created': {
            const { user } = result;
            const traits = [user.hasPassword() ? 'with a password' : 'without a password', user.isVerified() ? 'verified' : 'unverified'];
            io.out(`Created user #${user.id} ${user.email} (${traits.join(', ')}).`);
          }
        }
      },
    },
    {
      name: 'user:list',
      description: 'List users in the order they were created',
      options: [
        { flags: '--limit <n>', description: 'How many to show', type: 'integer', default: 50 },
        { flags: '--offset <n>', description: 'How many to skip', type: 'integer', default: 0 },
        JSON_OPTION,
      ],
      async run({ options }, io) {
        const limit = Number(options['limit'] ?? 50);
        if (limit < 1 || limit > 1000) throw new UsageError('--limit must be from 1 to 1000');
        const { listUsers } = await deps.users();
        const page = await listUsers.execute({ limit, offset: Number(options['offset'] ?? 0) });
        if (options['json'] === true) {
          io.out(JSON.stringify({ total: page.total, users: page.users.map(describe) }, null, 2));
          return;
        }
        if (page.total === 0) {
          io.out('No users yet.');
          return;
        }
        const rows = page.users.map((user) => [
          String(user.id),
          user.name,
          user.email,
          user.isVerified() ? 'yes' : 'no',
          user.hasPassword() ? 'yes' : 'no',
          user.createdAt.toISOString(),
        ]);
        io.out(formatTable(['ID', 'Name', 'Email', 'Verified', 'Password', 'Created'], rows));
        io.out(`${page.users.length} of ${page.total} user${page.total === 1 ? '' : 's'}.`);
      },
    },
    {
      name: 'user:show',
      args: '<email>',
      description: 'Show one user',
      options: [JSON_OPTION],
      async run({ args, options }, io) {
        const email = args[0] ?? '';
        const user = await (await deps.users()).findUserByEmail.execute(email);
        if (user === null) throw new NotFound(email);
        const view = describe(user);
        if (options['json'] === true) {
          io.out(JSON.stringify(view, null, 2));
          return;
        }
        io.out(formatTable(['Field', 'Value'], Object.entries(view).map(([key, value]) => [key, String(value)])).split('\n').slice(1).join('\n'));
      },
    },
    {
      name: 'user:verify',
      args: '<email>',
      description: "Mark a user's email address as verified",
      async run({ args }, io) {
        const email = args[0] ?? '';
        const result = await (await deps.users()).markEmailVerified.execute(email);
        if (result.kind === 'not-found') throw new NotFound(email);
        io.out(result.kind === 'verified' ? `Verified ${email.trim().toLowerCase()}.` : `${email.trim().toLowerCase()} was already verified.`);
      },
    },
    {
      name: 'user:delete',
      args: '<email>',
      description: 'Delete a user, their sessions and linked accounts',
      async run({ args }, io) {
        const email = args[0] ?? '';
        const result = await (await deps.users()).deleteUser.execute(email);
        if (result.kind === 'not-found') throw new NotFound(email);
        io.out(`Deleted user #${result.id} ${email.trim().toLowerCase()}.`);
      },
    },
  ];
}
