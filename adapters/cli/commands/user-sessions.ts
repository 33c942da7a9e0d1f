import type { EndAllSessions } from '../../../application/users/end-all-sessions.js';
import type { FindUserByEmail } from '../../../application/users/find-user-by-email.js';
import type { ListUserSessions, UserSessionView } from '../../../application/users/list-user-sessions.js';
import type { CliCommand } from '../command.js';
import { formatTable } from '../table.js';
import { NotFound } from './users.js';

export interface UserSessionDeps {
  sessions(): Promise<{
    findUserByEmail: FindUserByEmail;
    listUserSessions: ListUserSessions;
    endAllSessions: EndAllSessions;
    driver: 'cookie' | 'database';
  }>;
}

/** A user agent of a few hundred characters would make the table unreadable; JSON keeps it whole. */
const AGENT_WIDTH = 60;

function describe(session: UserSessionView) {
  return {
    signedInAt: session.signedInAt.toISOString(),
    lastActivity: session.lastActivity.toISOString(),
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    expiresAt: session.expiresAt.toISOString(),
    remembered: session.remembered,
  };
}

/**
 * A user agent is whatever a client sent: control characters are replaced so that a crafted
 * one cannot move the administrator's cursor or recolour their terminal.
 */
function shortened(text: string | null): string {
  if (text === null || text === '') return '-';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  const chars = [...text.replace(/[\u0000-\u001f\u007f-\u009f]/gu, '?')];
  return chars.length <= AGENT_WIDTH ? text : `${chars.slice(0, AGENT_WIDTH - 1).join('')}…`;
}

/** `fwx user:sessions <email>` and `fwx user:logout <email>`. */
export function userSessionCommands(deps: UserSessionDeps): CliCommand[] {
  return [
    {
      name: 'user:sessions',
      args: '<email>',
      description: "List a user's sessions (SESSION_DRIVER=database; cookie sessions live in browsers)",
      options: [{ flags: '--json', description: 'Print JSON instead of text', type: 'boolean' }],
      async run({ args, options }, io) {
        const email = args[0] ?? '';
        const { findUserByEmail, listUserSessions, driver } = await deps.sessions();
        const user = await findUserByEmail.execute(email);
        if (user === null) throw new NotFound(email);
        if (driver === 'cookie') {
          // Nothing on the server knows which cookies exist; the epoch is what ends them all.
          if (options['json'] === true) {
            io.out(JSON.stringify({ driver, sessionEpoch: user.sessionEpoch, sessions: null }, null, 2));
            return;
          }
          io.out('SESSION_DRIVER is the cookie: sessions live in browsers and cannot be listed.');
          io.out(`Session epoch of ${user.email}: ${user.sessionEpoch} (user:logout raises it, which ends every one of them).`);
          return;
        }
        const { live, ended } = await listUserSessions.execute(user);
        if (options['json'] === true) {
          io.out(JSON.stringify({ driver, sessionEpoch: user.sessionEpoch, sessions: live.map(describe), ended }, null, 2));
          return;
        }
        if (live.length === 0) {
          io.out(`${user.email} has no sessions.`);
        } else {
          const rows = live.map((session) => [
            session.lastActivity.toISOString(),
            session.ipAddress ?? '-',
            shortened(session.userAgent),
            session.signedInAt.toISOString(),
            session.expiresAt.toISOString(),
            session.remembered ? 'yes' : 'no',
          ]);
          io.out(formatTable(['Last activity', 'IP address', 'User agent', 'Signed in', 'Expires', 'Remembered'], rows));
          io.out(`${live.length} session${live.length === 1 ? '' : 's'} of ${user.email}.`);
        }
        if (ended > 0) io.out(`${ended} ended session${ended === 1 ? '' : 's'} not shown (kept until they expire or session:prune).`);
        io.out(`Session epoch: ${user.sessionEpoch}.`);
      },
    },
    {
      name: 'user:logout',
      args: '<email>',
      description: 'End every session of a user, on every device and with every session driver',
      async run({ args }, io) {
        const email = args[0] ?? '';
        const { findUserByEmail, endAllSessions } = await deps.sessions();
        const user = await findUserByEmail.execute(email);
        if (user === null) throw new NotFound(email);
        const result = await endAllSessions.execute(user.id);
        // Deleted between the lookup and now: the user has no sessions left either way.
        if (result.kind === 'not-found') throw new NotFound(email);
        io.out(`Ended every session of ${user.email} (session epoch now ${result.epoch}).`);
        io.out(`Deleted ${result.deleted} database session${result.deleted === 1 ? '' : 's'}.`);
      },
    },
  ];
}
