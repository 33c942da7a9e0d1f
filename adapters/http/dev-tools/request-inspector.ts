import type { JsonValue } from '../../../domain/session/session.js';
import { REDACTED, redactedText } from './redact.js';
import { MisuseError } from '../../../domain/shared/errors.js';

/** One line the request's code logged. */
export interface InspectedLog {
  level: string;
  message: string;
  /** The line's fields as JSON, secrets replaced. */
  fields: string;
}

/** One SQL statement: the text with its placeholders, never the values bound to them. */
export interface InspectedQuery {
  sql: string;
  /** How many values were bound (the values themselves are not kept). */
  bindings: number;
  ms: number;
}

export interface InspectedMail {
  to: string;
  subject: string;
}

export interface InspectedEvent {
  name: string;
  /** The event's fields as JSON, secrets replaced. */
  fields: string;
}

/** A session key this request added, changed or removed, with its value as JSON (secrets replaced). */
export interface SessionChange {
  change: 'added' | 'changed' | 'removed';
  key: string;
  value: string;
}

/** What the inspector keeps of one request. */
export interface InspectedRequest {
  /** The request id the kernel assigned (`X-Request-Id`). */
  id: string;
  /** When it arrived. */
  at: Date;
  method: string;
  path: string;
  /** The status of the answer; null while it runs. */
  status: number | null;
  /** Milliseconds from arrival to the answer. */
  ms: number | null;
  route: string | null;
  userId: number | null;
  session: SessionChange[];
  logs: InspectedLog[];
  queries: InspectedQuery[];
  mails: InspectedMail[];
  events: InspectedEvent[];
  /** Secret path values (`/reset-password/{token}`) scrubbed from every text recorded for it; not shown. */
  hidden: readonly string[];
}

/** The most of each kind one request keeps: a loop of queries must not eat the memory. */
const PER_REQUEST = 200;

/** What the inspector shows of a session before and after the handler. */
export interface SessionView {
  values: Record<string, JsonValue>;
  flash: Record<string, JsonValue>;
  userId: number | null;
}

/**
 * The request inspector's memory: the last `capacity` requests, newest first, in this process
 * only (never written anywhere, gone on restart). What the request's code does (log lines,
 * SQL, mails, events) is told to `record*` from anywhere: the request it belongs to is found
 * by the request id of the request being answered (`currentRequestId`, carried through every
 * `await` by AsyncLocalStorage) or, for log lines, by the `requestId` field of the request's
 * log span.
 */
export class RequestInspector {
  /** Finished requests, oldest first (the page reverses them). */
  private readonly ring: InspectedRequest[] = [];
  /** Every kept request (running or finished) by id. */
  private readonly byId = new Map<string, InspectedRequest>();

  constructor(
    private readonly currentRequestId: () => string | null,
    readonly capacity = 100,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new MisuseError('http.bad-inspector-capacity', 'The request inspector keeps at least one request');
  }

  /** A request the kernel starts answering. */
  begin(entry: { id: string; method: string; path: string; route: string | null; at: Date; hidden?: readonly string[] }): InspectedRequest {
    const request: InspectedRequest = { hidden: [], ...entry, status: null, ms: null, userId: null, session: [], logs: [], queries: [], mails: [], events: [] };
    this.byId.set(request.id, request);
    this.ring.push(request);
    while (this.ring.length > this.capacity) {
      const dropped = this.ring.shift();
      if (dropped !== undefined) this.byId.delete(dropped.id);
    }
    return request;
  }

  finish(request: InspectedRequest, outcome: { status: number; ms: number; userId: number | null; before: SessionView | null; after: SessionView | null }): void {
    request.status = outcome.status;
    request.ms = Math.round(outcome.ms * 10) / 10;
    request.userId = outcome.userId;
    request.session = sessionChanges(outcome.before, outcome.after);
  }

  /** Newest first. */
  list(): readonly InspectedRequest[] {
    return [...this.ring].reverse();
  }

  find(id: string): InspectedRequest | null {
    return this.byId.get(id) ?? null;
  }

  recordLog(level: string, message: string, fields: Record<string, unknown>): void {
    const requestId = typeof fields['requestId'] === 'string' ? fields['requestId'] : this.currentRequestId();
    const { requestId: _id, ...rest } = fields;
    const hidden = requestId === null ? [] : (this.byId.get(requestId)?.hidden ?? []);
    const text = Object.keys(rest).length === 0 ? '' : redactedText(rest);
    // The access log's line carries the path as requested, secret segment included.
    this.push(requestId, 'logs', { level, message: scrub(message, hidden), fields: scrub(text, hidden) });
  }

  recordQuery(sql: string, bindings: number, ms: number): void {
    this.push(this.currentRequestId(), 'queries', { sql: sql.length > 2000 ? `${sql.slice(0, 2000)}…` : sql, bindings, ms: Math.round(ms * 100) / 100 });
  }

  recordMail(to: string, subject: string): void {
    this.push(this.currentRequestId(), 'mails', { to, subject });
  }

  recordEvent(event: object): void {
    this.push(this.currentRequestId(), 'events', { name: event.constructor.name, fields: redactedText(event) });
  }

  private push<K extends 'logs' | 'queries' | 'mails' | 'events'>(requestId: string | null, kind: K, item: InspectedRequest[K][number]): void {
    if (requestId === null) return;
    const request = this.byId.get(requestId);
    if (request === undefined) return;
    const list = request[kind] as InspectedRequest[K][number][];
    if (list.length < PER_REQUEST) list.push(item);
  }
}

function scrub(text: string, hidden: readonly string[]): string {
  let result = text;
  for (const value of hidden) if (value !== '') result = result.split(value).join(REDACTED).split(encodeURIComponent(value)).join(REDACTED);
  return result;
}

/** Keys added, changed and removed between two views of a session; flashed keys as `flash.<key>`. */
export function sessionChanges(before: SessionView | null, after: SessionView | null): SessionChange[] {
  if (after === null) return [];
  const changes: SessionChange[] = [];
  const compare = (prefix: string, old: Record<string, JsonValue>, now: Record<string, JsonValue>) => {
    for (const [key, value] of Object.entries(now)) {
      const shown = redactedText({ [key]: value });
      if (!(key in old)) changes.push({ change: 'added', key: prefix + key, value: valueOf(shown) });
      else if (JSON.stringify(old[key]) !== JSON.stringify(value)) changes.push({ change: 'changed', key: prefix + key, value: valueOf(shown) });
    }
    for (const key of Object.keys(old)) if (!(key in now)) changes.push({ change: 'removed', key: prefix + key, value: '' });
  };
  const userOf = (view: SessionView | null): Record<string, JsonValue> => (view?.userId === null || view?.userId === undefined ? {} : { user: view.userId });
  compare('', { ...userOf(before), ...(before?.values ?? {}) }, { ...userOf(after), ...after.values });
  compare('flash.', before?.flash ?? {}, after.flash);
  return changes;
}

/** The value part of `{"key":value}`: redacting with the key in place catches secret names. */
function valueOf(wrapped: string): string {
  const colon = wrapped.indexOf(':');
  return colon === -1 ? wrapped : wrapped.slice(colon + 1, -1);
}
