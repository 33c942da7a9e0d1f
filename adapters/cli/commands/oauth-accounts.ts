import type { UnlinkProvider } from '../../../application/oauth/unlink-provider.js';
import type { UnlinkRefusalReason } from '../../../domain/oauth/errors.js';
import type { FindUserByEmail } from '../../../application/users/find-user-by-email.js';
import type { LinkedAccount, LinkedAccounts } from '../../../ports/linked-accounts.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import type { CliCommand } from '../command.js';
import { formatTable } from '../table.js';
import { NotFound } from './users.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface OAuthCommandServices {
  findUserByEmail: FindUserByEmail;
  users: UserRepository;
  linkedAccounts: LinkedAccounts;
  unlinkProvider: UnlinkProvider;
}

/** Why an unlink was refused; the command line speaks English, in the words the account page uses. */
const UNLINK_REFUSALS: Readonly<Record<UnlinkRefusalReason, string>> = {
  'not-linked': 'This provider is not linked to your account.',
  'only-way-to-log-in': 'This is your only way to log in. Set a password or link another account first.',
};

/** Enough for an administrator's screen; `--json` for everything. */
const LIST_LIMIT = 1000;

/** Provider data is outside input: control characters cannot move the administrator's cursor. */
function printable(text: string | null): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return text === null || text === '' ? '-' : text.replace(/[\u0000-\u001f\u007f-\u009f]/gu, '?');
}

function describe(account: LinkedAccount, email: string) {
  return { user: email, userId: account.userId, provider: account.provider, providerUserId: account.providerUserId, providerEmail: account.email, since: account.createdAt.toISOString() };
}

/** `fwx oauth:list [--user email]` and `fwx oauth:unlink <email> <provider>`. */
export function oauthAccountCommands(services: () => Promise<OAuthCommandServices>): CliCommand[] {
  return [
    {
      name: 'oauth:list',
      description: 'List linked provider accounts, of every user or of one',
      options: [
        { flags: '--user <email>', description: "Only this user's links", type: 'string' },
        { flags: '--json', description: 'Print JSON instead of text', type: 'boolean' },
      ],
      async run({ options }, io) {
        const { findUserByEmail, users, linkedAccounts } = await services();
        let accounts: LinkedAccount[];
        if (typeof options['user'] === 'string') {
          const user = await findUserByEmail.execute(options['user']);
          if (user === null) throw new NotFound(options['user']);
          accounts = await linkedAccounts.listOfUser(user.id);
        } else {
          accounts = await linkedAccounts.list({ limit: LIST_LIMIT, offset: 0 });
        }
        const emails = new Map<number, string>();
        for (const id of new Set(accounts.map((a) => a.userId))) emails.set(id, (await users.findById(id))?.email ?? `#${id}`);
        const rows = accounts.map((a) => describe(a, emails.get(a.userId) ?? `#${a.userId}`));
        if (options['json'] === true) {
          io.out(JSON.stringify(rows, null, 2));
          return;
        }
        if (rows.length === 0) {
          io.out('No linked accounts.');
          return;
        }
        io.out(formatTable(['User', 'Provider', 'Provider user id', 'Provider email', 'Since'], rows.map((r) => [r.user, r.provider, printable(r.providerUserId), printable(r.providerEmail), r.since])));
        io.out(`${rows.length} linked account${rows.length === 1 ? '' : 's'}.`);
      },
    },
    {
      name: 'oauth:unlink',
      args: '<email> <provider>',
      description: "Unlink a provider from a user (refused when it is the user's only way to log in)",
      async run({ args }, io) {
        const [email = '', provider = ''] = args;
        const { findUserByEmail, unlinkProvider } = await services();
        const user = await findUserByEmail.execute(email);
        if (user === null) throw new NotFound(email);
        const result = await unlinkProvider.execute({ userId: user.id, provider });
        if (result.kind === 'not-found') throw new FrameworkError('cli.provider-not-enabled', `The provider '${provider}' is not enabled in this app`);
        if (result.kind !== 'unlinked') {
          io.err(`Refused: ${UNLINK_REFUSALS[result.reason]}`);
          return 1;
        }
        io.out(`Unlinked ${provider} from ${user.email}.`);
      },
    },
  ];
}
