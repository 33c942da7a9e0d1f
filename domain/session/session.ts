import { createHash } from 'node:crypto';
import {
  DEFAULT_ERROR_BAG,
  ERRORS_KEY,
  OLD_INPUT_KEY,
  RESERVED_FLASH_KEYS,
  checkBagName,
  errorBagFrom,
  isErrorBags,
  isOldInput,
  lookupOld,
  oldInputFrom,
} from './form.js';
import type { ErrorBag } from './form.js';
import { jsonOrThrow } from './json.js';
import type { JsonValue } from './json.js';
import { MINUTE_MS, PASSWORD_CONFIRMATION_MINUTES, checkDefaultLifetime, roundLifetime } from './lifetime.js';
import { isEpoch, isUserId, parseSnapshot, sessionExpiresAt } from './snapshot.js';
import type { SessionSnapshot } from './snapshot.js';
import { timeOf } from './time.js';
import { checkToken } from './token.js';
import { MisuseError } from '../shared/errors.js';

export type { ErrorBag } from './form.js';
export type { JsonValue } from './json.js';
export type { SessionSnapshot } from './snapshot.js';
export { sessionExpiresAt } from './snapshot.js';

export type ResumeResult = { kind: 'resumed'; session: Session } | { kind: 'expired' } | { kind: 'invalid' };

interface SignedIn {
  id: number;
  /** Names this login among all of the user's (see `loginId()`). */
  loginId: string;
  epoch: number;
  authenticatedAt: number;
  passwordConfirmedAt: number | null;
}

interface State {
  token: string;
  values: Map<string, JsonValue>;
  flashOld: Map<string, JsonValue>;
  lifetimeMinutes: number | null;
  user: SignedIn | null;
  intendedUrl: string | null;
  issuedAt: number;
  lastActivityAt: number;
  dirty: boolean;
}

const NO_ERRORS: ErrorBag = Object.freeze({});

/**
 * The visitor's session during one request. It is made by `start` or `resume` when the request
 * comes in and ended by `commit`, which returns the snapshot a driver stores; after that it
 * refuses writes, since they would be lost.
 *
 * Reads see four layers, newest first: values flashed for this request only (`flashNow`),
 * values flashed in this request, values flashed in the previous one, and stored values. The
 * layers are kept apart because `remove` and `pull` must touch stored values only.
 */
export class Session {
  #token: string;
  readonly #values: Map<string, JsonValue>;
  /** Flashed in the previous request: readable now, dropped at commit unless kept. */
  readonly #flashOld: Map<string, JsonValue>;
  /** Flashed (or kept) in this request: readable now and during the next request. */
  readonly #flashNew = new Map<string, JsonValue>();
  /** Readable during this request only; never persisted. */
  readonly #flashNow = new Map<string, JsonValue>();
  #lifetimeMinutes: number | null;
  #user: SignedIn | null;
  #intendedUrl: string | null;
  readonly #issuedAt: number;
  #lastActivityAt: number;
  #dirty: boolean;
  #needsNewId = false;
  #committed = false;

  private constructor(state: State) {
    this.#token = state.token;
    this.#values = state.values;
    this.#flashOld = state.flashOld;
    this.#lifetimeMinutes = state.lifetimeMinutes;
    this.#user = state.user;
    this.#intendedUrl = state.intendedUrl;
    this.#issuedAt = state.issuedAt;
    this.#lastActivityAt = state.lastActivityAt;
    this.#dirty = state.dirty;
  }

  /** A new, empty guest session. It is dirty: it must be stored for its token to be checked later. */
  static start(input: { token: string; now: Date }): Session {
    const now = timeOf(input.now);
    return new Session({
      token: checkToken(input.token),
      values: new Map(),
      flashOld: new Map(),
      lifetimeMinutes: null,
      user: null,
      intendedUrl: null,
      issuedAt: now,
      lastActivityAt: now,
      dirty: true,
    });
  }

  /**
   * The session of a returning visitor, from what a driver stored. `snapshot` comes from
   * outside and is checked field by field: damage gives 'invalid', never an exception.
   * Inactivity is checked here, on the server, because a copy of an old cookie must die too.
   * Resuming ages the flash: what the previous request flashed is readable now, what was
   * readable then is gone.
   */
  static resume(snapshot: unknown, options: { now: Date; defaultLifetimeMinutes: number }): ResumeResult {
    const now = timeOf(options.now);
    const defaultLifetime = checkDefaultLifetime(options.defaultLifetimeMinutes);
    const s = parseSnapshot(snapshot);
    if (s === null) return { kind: 'invalid' };
    if (now > sessionExpiresAt(s, defaultLifetime)) return { kind: 'expired' };
    const user =
      s.userId === null || s.userEpoch === null || s.authenticatedAt === null || s.loginId === null
        ? null
        : { id: s.userId, loginId: s.loginId, epoch: s.userEpoch, authenticatedAt: s.authenticatedAt, passwordConfirmedAt: s.passwordConfirmedAt };
    const flashOld = new Map(Object.entries(s.flash));
    const session = new Session({
      token: s.token,
      values: new Map(Object.entries(s.values)),
      flashOld,
      lifetimeMinutes: s.lifetimeMinutes,
      user,
      intendedUrl: s.intendedUrl,
      issuedAt: s.issuedAt,
      lastActivityAt: s.lastActivityAt,
      // Dropping last request's flash at commit changes what must be stored.
      dirty: flashOld.size > 0,
    });
    return { kind: 'resumed', session };
  }

  // --- Reading -------------------------------------------------------------------------------

  get(key: string): JsonValue | undefined {
    for (const layer of [this.#flashNow, this.#flashNew, this.#flashOld, this.#values]) {
      if (layer.has(key)) return layer.get(key);
    }
    return undefined;
  }

  /** Whether the key is present in any layer; a stored `null` counts as present. */
  has(key: string): boolean {
    return [this.#flashNow, this.#flashNew, this.#flashOld, this.#values].some((layer) => layer.has(key));
  }

  // --- Stored values -------------------------------------------------------------------------

  put(key: string, value: unknown): void {
    this.#writable();
    this.#values.set(checkKey(key), jsonOrThrow(value, `put("${key}")`));
    this.#dirty = true;
  }

  /** Appends to the list under `key`, making it when missing. */
  push(key: string, value: unknown): void {
    this.#writable();
    // Looked up with has(): a stored null is a value, and not a list.
    const list = this.#values.has(checkKey(key)) ? this.#values.get(key) : [];
    if (!Array.isArray(list)) throw new MisuseError('session.not-a-list', `push("${key}"): the stored value is not a list`);
    // The whole list is checked, so the depth limit applies to it as it will on the next resume.
    this.#values.set(key, jsonOrThrow([...(list as readonly JsonValue[]), value], `push("${key}")`));
    this.#dirty = true;
  }

  /** Adds `by` to the number under `key` (missing counts as 0) and returns the new total. */
  increment(key: string, by = 1): number {
    this.#writable();
    const current = this.#values.has(checkKey(key)) ? this.#values.get(key) : 0;
    if (typeof current !== 'number') throw new MisuseError('session.not-a-number', `increment("${key}"): the stored value is not a number`);
    if (typeof by !== 'number' || !Number.isFinite(by)) throw new MisuseError('session.not-a-number', `increment("${key}"): the step must be a finite number`);
    const total = current + by;
    if (!Number.isFinite(total)) throw new MisuseError('session.not-a-number', `increment("${key}"): the total is not a finite number`);
    const stored = total === 0 ? 0 : total; // never -0, which JSON would turn into 0
    this.#values.set(key, stored);
    this.#dirty = true;
    return stored;
  }

  /** Removes a stored value; a flashed value of the same key stays. */
  remove(key: string): void {
    this.pull(key);
  }

  /** Reads and removes a stored value; a flashed value is neither returned nor removed. */
  pull(key: string): JsonValue | undefined {
    this.#writable();
    if (!this.#values.has(checkKey(key))) return undefined;
    const value = this.#values.get(key);
    this.#values.delete(key);
    this.#dirty = true;
    return value;
  }

  // --- Flash ---------------------------------------------------------------------------------

  /** Readable from now until the end of the next request (Laravel's flash). */
  flash(key: string, value: unknown): void {
    this.#writable();
    checkFlashKey(key);
    this.#flashNew.set(key, jsonOrThrow(value, `flash("${key}")`));
    // The newest write wins: an earlier flashNow of the key would otherwise hide this value.
    this.#flashNow.delete(key);
    this.#dirty = true;
  }

  /** Readable during this request only (the page rendered now); never stored. */
  flashNow(key: string, value: unknown): void {
    this.#writable();
    checkFlashKey(key);
    this.#flashNow.set(key, jsonOrThrow(value, `flashNow("${key}")`));
  }

  /** Keeps every value flashed by the previous request for one more request. */
  reflash(): void {
    this.keep([...this.#flashOld.keys()]);
  }

  /** Keeps the named values flashed by the previous request for one more request. */
  keep(keys: readonly string[]): void {
    this.#writable();
    const given: unknown = keys; // checked as it comes, since plain JavaScript callers pass anything
    if (!Array.isArray(given)) throw new MisuseError('session.bad-key', 'keep expects an array of keys');
    for (const key of keys) {
      // A value flashed again in this request is newer than the one kept.
      if (!this.#flashOld.has(key) || this.#flashNew.has(key)) continue;
      this.#flashNew.set(key, this.#flashOld.get(key) ?? null);
      this.#dirty = true;
    }
  }

  /** The keys of flashed values readable now (from any flash layer), without duplicates. */
  flashed(): string[] {
    return [...new Set([...this.#flashOld.keys(), ...this.#flashNew.keys(), ...this.#flashNow.keys()])];
  }

  // --- Forms ---------------------------------------------------------------------------------

  /** Sends a failed form's input back to the next request (passwords and files are left out). */
  flashInput(input: Record<string, unknown>): void {
    this.#writable();
    this.#flashNew.set(OLD_INPUT_KEY, oldInputFrom(input));
    this.#dirty = true;
  }

  /** Sends a failed form's messages back to the next request; bags keep two forms of a page apart. */
  flashErrors(errors: Record<string, string[]>, bag: string = DEFAULT_ERROR_BAG): void {
    this.#writable();
    checkBagName(bag);
    const errorBag = errorBagFrom(errors);
    // Only bags flashed in this request are merged: older ones belong to an older form.
    const pending = this.#flashNew.get(ERRORS_KEY);
    const bags = isErrorBags(pending) ? pending : {};
    this.#flashNew.set(ERRORS_KEY, Object.freeze({ ...bags, [bag]: errorBag }));
    this.#dirty = true;
  }

  old(field: string): JsonValue | undefined;
  old<T>(field: string, fallback: T): JsonValue | T;
  old<T>(field: string, fallback?: T): JsonValue | T | undefined {
    const input = this.#flashValue(OLD_INPUT_KEY);
    const value = isOldInput(input) ? lookupOld(input, field) : undefined;
    return value === undefined ? fallback : value;
  }

  /** Whether a form's input was flashed (and holds at least one field worth refilling). */
  hasOldInput(): boolean {
    const input = this.#flashValue(OLD_INPUT_KEY);
    return isOldInput(input) && Object.keys(input).length > 0;
  }

  /** The messages of a bag, field → messages; an empty record when there are none. */
  errors(bag: string = DEFAULT_ERROR_BAG): ErrorBag {
    const bags = this.#flashValue(ERRORS_KEY);
    if (!isErrorBags(bags) || !Object.hasOwn(bags, bag)) return NO_ERRORS;
    return bags[bag] ?? NO_ERRORS;
  }

  errorBags(): string[] {
    const bags = this.#flashValue(ERRORS_KEY);
    return isErrorBags(bags) ? Object.keys(bags) : [];
  }

  // --- Lifetime, token, flush ----------------------------------------------------------------

  /** Uses this lifetime instead of SESSION_LIFETIME: whole minutes, rounded up, at least one. */
  setLifetime(minutes: number): void {
    this.#writable();
    const rounded = roundLifetime(minutes);
    if (rounded === this.#lifetimeMinutes) return;
    this.#lifetimeMinutes = rounded;
    this.#dirty = true;
  }

  /** The lifetime set for this session, or null for the app's SESSION_LIFETIME. */
  lifetimeMinutes(): number | null {
    return this.#lifetimeMinutes;
  }

  /** The CSRF token. */
  token(): string {
    return this.#token;
  }

  /** `newToken` is fresh random text made by the caller, at least 32 characters. */
  regenerateToken(newToken: string): void {
    this.#writable();
    this.#token = checkToken(newToken);
    this.#dirty = true;
  }

  /**
   * Empties stored and flashed values and the intended URL. The token, the user and the
   * lifetime stay: `logout` is the way to forget the user.
   */
  flush(): void {
    this.#writable();
    const hadData = this.#values.size + this.#flashOld.size + this.#flashNew.size > 0 || this.#intendedUrl !== null;
    this.#values.clear();
    this.#flashOld.clear();
    this.#flashNew.clear();
    this.#flashNow.clear();
    this.#intendedUrl = null;
    if (hadData) this.#dirty = true;
  }

  // --- Authentication ------------------------------------------------------------------------

  userId(): number | null {
    return this.#user?.id ?? null;
  }

  /** The user's session epoch at login; the session is dead once the user's epoch is higher. */
  userEpoch(): number | null {
    return this.#user?.epoch ?? null;
  }

  authenticatedAt(): Date | null {
    return this.#user === null ? null : new Date(this.#user.authenticatedAt);
  }

  /**
   * A name for this login, unique among the user's logins (derived one-way from the random
   * token given at login, so it reveals nothing). It stays the same for the login's whole life,
   * also when the token is regenerated: a driver that cannot delete a session (the cookie one)
   * ends the login by this name.
   */
  loginId(): string | null {
    return this.#user?.loginId ?? null;
  }

  passwordConfirmedAt(): Date | null {
    const at = this.#user?.passwordConfirmedAt ?? null;
    return at === null ? null : new Date(at);
  }

  /** Whether the user typed the password within the last three hours (inclusive). */
  passwordRecentlyConfirmed(now: Date): boolean {
    const at = this.#user?.passwordConfirmedAt ?? null;
    return at !== null && timeOf(now) - at <= PASSWORD_CONFIRMATION_MINUTES * MINUTE_MS;
  }

  /**
   * Signs `userId` in. Typing the password at login counts as confirming it. The token changes
   * (spec: a login gives a new CSRF token) and the database driver is asked for a new id, so a
   * session id planted before the login is worthless after it. Stored values stay.
   */
  login(userId: number, options: { epoch: number; now: Date; newToken: string }): void {
    this.#writable();
    if (!isUserId(userId)) throw new MisuseError('session.bad-user-id', `A user id must be a positive integer; got ${String(userId)}`);
    if (!isEpoch(options.epoch)) throw new MisuseError('session.bad-epoch', `A session epoch must be a non-negative integer; got ${String(options.epoch)}`);
    const now = timeOf(options.now);
    this.#token = checkToken(options.newToken);
    this.#user = { id: userId, loginId: loginIdOf(this.#token), epoch: options.epoch, authenticatedAt: now, passwordConfirmedAt: now };
    this.#needsNewId = true;
    this.#dirty = true;
  }

  /**
   * Forgets the user and everything else in the session (values, flash, intended URL, a
   * remember-me lifetime) and changes the token. Other devices of the user stay signed in.
   */
  logout(newToken: string): void {
    this.#writable();
    checkToken(newToken);
    this.flush();
    this.#token = newToken;
    this.#user = null;
    this.#lifetimeMinutes = null;
    this.#needsNewId = true;
    this.#dirty = true;
  }

  /**
   * Asks the database driver for a new id, keeping everything else: for a session that gains
   * something worth stealing without a login yet (a pending two-factor login), so an id planted
   * before it is worthless after it.
   */
  renewId(): void {
    this.#writable();
    this.#needsNewId = true;
    this.#dirty = true;
  }

  confirmPassword(now: Date): void {
    this.#writable();
    if (this.#user === null) throw new MisuseError('session.not-signed-in', 'confirmPassword needs a signed-in user');
    this.#user = { ...this.#user, passwordConfirmedAt: timeOf(now) };
    this.#dirty = true;
  }

  /** The page a guard sent the visitor away from, for the redirect after login. */
  intendedUrl(): string | null {
    return this.#intendedUrl;
  }

  setIntendedUrl(url: string): void {
    this.#writable();
    if (typeof url !== 'string' || url === '') throw new MisuseError('session.bad-intended-url', 'An intended URL must be a non-empty string');
    this.#intendedUrl = url;
    this.#dirty = true;
  }

  /** Reads and forgets the intended URL: it is used once. */
  pullIntendedUrl(): string | null {
    this.#writable();
    const url = this.#intendedUrl;
    if (url !== null) {
      this.#intendedUrl = null;
      this.#dirty = true;
    }
    return url;
  }

  /**
   * What the session holds now, for the local request inspector (which compares it before and
   * after the handler): stored values, values flashed for the next request (or, before the
   * handler, those flashed by the previous one), and the signed-in user. Copies, read-only.
   */
  inspect(): { values: Record<string, JsonValue>; flash: Record<string, JsonValue>; userId: number | null } {
    const flash = new Map([...this.#flashOld, ...this.#flashNew]);
    return { values: Object.fromEntries(this.#values), flash: Object.fromEntries(flash), userId: this.#user?.id ?? null };
  }

  // --- Lifecycle -----------------------------------------------------------------------------

  /**
   * Whether anything to be stored changed in this request. The moment of the visit is not
   * counted: a driver that skips writing a clean session must still record the activity.
   */
  isDirty(): boolean {
    return this.#dirty;
  }

  /** True after a login, a logout or `renewId` in this request: the database driver stores the session under a new id. */
  needsNewId(): boolean {
    return this.#needsNewId;
  }

  /** Ends the request: drops `flashNow` values, restarts the inactivity clock and returns what to store. */
  commit(now: Date): SessionSnapshot {
    const at = timeOf(now);
    this.#writable();
    this.#committed = true;
    this.#flashNow.clear();
    this.#lastActivityAt = at;
    const user = this.#user;
    return {
      v: 1,
      token: this.#token,
      values: Object.fromEntries(this.#values),
      flash: Object.fromEntries(this.#flashNew),
      lifetimeMinutes: this.#lifetimeMinutes,
      userId: user?.id ?? null,
      userEpoch: user?.epoch ?? null,
      authenticatedAt: user?.authenticatedAt ?? null,
      loginId: user?.loginId ?? null,
      passwordConfirmedAt: user?.passwordConfirmedAt ?? null,
      intendedUrl: this.#intendedUrl,
      issuedAt: this.#issuedAt,
      lastActivityAt: this.#lastActivityAt,
    };
  }

  #writable(): void {
    if (this.#committed) throw new MisuseError('session.committed', 'The session was already committed; a change now would be lost');
  }

  #flashValue(key: string): JsonValue | undefined {
    if (this.#flashNew.has(key)) return this.#flashNew.get(key);
    return this.#flashOld.get(key);
  }
}

function loginIdOf(token: string): string {
  return createHash('sha256').update(`login:${token}`, 'utf8').digest('base64url').slice(0, 22);
}

function checkKey(key: string): string {
  if (typeof key !== 'string' || key === '') throw new MisuseError('session.bad-key', 'A session key must be a non-empty string');
  return key;
}

function checkFlashKey(key: string): void {
  checkKey(key);
  if (RESERVED_FLASH_KEYS.has(key)) throw new MisuseError('session.reserved-key', `"${key}" is written by flashInput/flashErrors only`);
}
