import { LoggedIn, LoggedOut, PasswordReset, Registered, PasswordChanged } from '../../domain/auth/events.js';
import { AccountLinked, AccountUnlinked, auditEntry, LoggedInWith } from '../../domain/oauth/events.js';
import type { ActivityEntry, ActivityLog } from '../../ports/activity-log.js';
import type { Clock } from '../../ports/clock.js';
import type { EventClass } from '../../ports/event-bus.js';
import type { RequestOrigin } from '../../ports/request-origin.js';
import { MisuseError } from '../../domain/shared/errors.js';

/** An entry as an event gives it; where and when are added by `record`. */
type EventEntry = Pick<ActivityEntry, 'action' | 'userId' | 'data'>;

/**
 * The Audit module's listener: each event it knows becomes one `activity_log` row. Events say
 * what happened; the client address and request id are the origin the bus hands over with the
 * event (the request that published it; null from a command or a job), the time is the
 * clock's. The composition registers `record` for each class of `RecordActivity.EVENTS` with
 * `bus.listen`.
 */
export class RecordActivity {
  /** Every event class this listener writes, in one list so the wiring cannot miss one. */
  static readonly EVENTS: readonly EventClass<object>[] = [AccountLinked, AccountUnlinked, LoggedInWith, Registered, LoggedIn, LoggedOut, PasswordReset, PasswordChanged];

  constructor(
    private readonly log: ActivityLog,
    private readonly clock: Clock,
  ) {}

  handles(event: object): boolean {
    return RecordActivity.EVENTS.some((type) => event instanceof type);
  }

  async record(event: object, origin: RequestOrigin | null): Promise<void> {
    const entry = entryOf(event);
    await this.log.record({ ...entry, ipAddress: origin?.ipAddress ?? null, requestId: origin?.requestId ?? null, at: this.clock.now() });
  }
}

function entryOf(event: object): EventEntry {
  if (event instanceof AccountLinked || event instanceof AccountUnlinked || event instanceof LoggedInWith) return auditEntry(event);
  // `provider` is null for the register form: the same action either way, told apart by data.
  if (event instanceof Registered) return { action: 'auth.registered', userId: event.userId, data: { provider: event.provider } };
  if (event instanceof LoggedIn) return { action: 'auth.login', userId: event.userId, data: { method: event.via } };
  if (event instanceof LoggedOut) return { action: 'auth.logout', userId: event.userId, data: {} };
  if (event instanceof PasswordReset) return { action: 'auth.password_reset', userId: event.userId, data: {} };
  // Setting a first password (a social login's user) is told apart from changing one by data.
  if (event instanceof PasswordChanged) return { action: 'auth.password_changed', userId: event.userId, data: { had_password: event.hadPassword } };
  // The bus hands a listener only the classes it registered for: anything else is a wiring bug.
  throw new MisuseError('audit.unknown-event', `RecordActivity does not record ${event.constructor.name}`);
}
