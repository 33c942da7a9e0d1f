import type { FindUserByEmail } from '../../../application/users/find-user-by-email.js';
import type { ActivityLog, StoredActivity } from '../../../ports/activity-log.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';
import { formatTable } from '../table.js';
import { NotFound } from './users.js';

export interface ActivityCommandServices {
  findUserByEmail: FindUserByEmail;
  activityLog: ActivityLog;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

function describe(entry: StoredActivity) {
  return { at: entry.at.toISOString(), action: entry.action, userId: entry.userId, data: entry.data, ipAddress: entry.ipAddress, requestId: entry.requestId };
}

/** `fwx activity [--user email] [--action a] [--limit n] [--json]`: the Audit module's log, newest first. */
export function activityCommand(services: () => Promise<ActivityCommandServices>): CliCommand {
  return {
    name: 'activity',
    description: 'Show the activity log (Audit module), newest first',
    options: [
      { flags: '--user <email>', description: "Only this user's entries", type: 'string' },
      { flags: '--action <action>', description: 'Only this action, e.g. oauth.login', type: 'string' },
      { flags: '--limit <n>', description: `How many entries (at most ${MAX_LIMIT})`, type: 'integer', default: DEFAULT_LIMIT },
      { flags: '--json', description: 'Print JSON instead of text', type: 'boolean' },
    ],
    async run({ options }, io) {
      const limit = options['limit'];
      if (typeof limit !== 'number' || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
      const { findUserByEmail, activityLog } = await services();
      const filter: { userId?: number; action?: string; limit: number } = { limit };
      if (typeof options['user'] === 'string') {
        const user = await findUserByEmail.execute(options['user']);
        if (user === null) throw new NotFound(options['user']);
        filter.userId = user.id;
      }
      if (typeof options['action'] === 'string') filter.action = options['action'];
      const entries = (await activityLog.recent(filter)).map(describe);
      if (options['json'] === true) {
        io.out(JSON.stringify(entries, null, 2));
        return;
      }
      if (entries.length === 0) {
        io.out('No activity.');
        return;
      }
      const rows = entries.map((e) => [e.at, e.action, e.userId === null ? '-' : String(e.userId), JSON.stringify(e.data), e.ipAddress ?? '-', e.requestId ?? '-']);
      io.out(formatTable(['Time', 'Action', 'User', 'Data', 'IP address', 'Request'], rows));
    },
  };
}
