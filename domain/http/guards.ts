/**
 * The guards of spec 001 as one decision over plain facts: who the visitor is, what kind of
 * request it is, and where the app's pages are. The HTTP adapter gathers the facts (asking the
 * app's gates and roles when needed) and turns the outcome into an answer.
 */
export type GuardKind = 'auth' | 'verified' | 'guest' | 'gate' | 'role' | 'permission' | 'ability' | 'password-confirmed';

export interface GuardUser {
  verified: boolean;
  /** Signed in by an `Authorization: Bearer` token rather than the session. */
  viaToken: boolean;
  /** The token's abilities; null for a session or an unrestricted token. */
  abilities: readonly string[] | null;
  /** Typed the password in the last three hours (a login counts). */
  passwordConfirmedRecently: boolean;
}

export interface GuardRequest {
  method: string;
  /** `Accept: application/json`, a JSON body, or an `Authorization` header. */
  api: boolean;
  /** A partial-update (htmx) request: it follows `HX-Redirect`, not a 3xx swapped into a fragment. */
  partial: boolean;
}

/** Where the app's pages are; null when the app has no such route. */
export interface GuardPages {
  login: string | null;
  verificationNotice: string | null;
  home: string;
  passwordConfirm: string;
}

export interface GuardFacts {
  user: GuardUser | null;
  /** `gate`, `role`, `permission`: what the app's policy said for this user. */
  allowed?: boolean;
  /** `ability`: the ability the route needs. */
  ability?: string;
}

export type GuardOutcome =
  | { kind: 'pass' }
  /** Send the browser to `to`; `remember` stores the current page for `Redirect.intended`. */
  | { kind: 'redirect'; to: string; remember: boolean }
  | { kind: 'hx-redirect'; to: string }
  | { kind: 'refuse'; status: 401 | 403 | 423; reason: GuardReason; json: boolean };

/** Every outcome but letting the request through. */
export type GuardRefusal = Exclude<GuardOutcome, { kind: 'pass' }>;

/** Why a guard refused, as a stable code: the HTTP adapter words it (JSON `message`, error page). */
export type GuardReason = 'unauthenticated' | 'forbidden' | 'unverified' | 'confirm-password';

type Refusal = 'login' | 'forbidden' | 'verify' | 'home' | 'confirm';

function refusalOf(kind: GuardKind, facts: GuardFacts, request: GuardRequest): Refusal | null {
  const user = facts.user;
  if (kind === 'guest') return user === null ? null : 'home';
  if (user === null) return 'login';
  switch (kind) {
    case 'auth':
      return null;
    case 'verified':
      if (user.verified) return null;
      // API tokens and JSON clients cannot follow a page that asks them to click a link.
      return request.api || user.viaToken ? 'forbidden' : 'verify';
    case 'gate':
    case 'role':
    case 'permission':
      return facts.allowed === true ? null : 'forbidden';
    case 'ability':
      // Sessions and unrestricted tokens may do anything the user may; a restricted token only
      // what it lists.
      return user.abilities === null || (facts.ability !== undefined && user.abilities.includes(facts.ability)) ? null : 'forbidden';
    case 'password-confirmed':
      // A token has no password to confirm: it was issued knowing what it may do.
      return user.viaToken || user.passwordConfirmedRecently ? null : 'confirm';
  }
}

/** What happens to a request at a guard. Every refusal is total: no guard lets a guest through. */
export function guardOutcome(kind: GuardKind, facts: GuardFacts, request: GuardRequest, pages: GuardPages): GuardOutcome {
  const refusal = refusalOf(kind, facts, request);
  switch (refusal) {
    case null:
      return { kind: 'pass' };
    case 'login':
      return turnAwayGuest(request, pages);
    case 'forbidden':
      return { kind: 'refuse', status: 403, reason: kind === 'verified' ? 'unverified' : 'forbidden', json: request.api };
    case 'verify':
      if (pages.verificationNotice === null) return { kind: 'refuse', status: 403, reason: 'unverified', json: false };
      return sendTo(pages.verificationNotice, request, false);
    case 'home':
      return sendTo(pages.home, request, false);
    case 'confirm':
      if (request.api) return { kind: 'refuse', status: 423, reason: 'confirm-password', json: true };
      return sendTo(pages.passwordConfirm, request, rememberable(request));
  }
}

/**
 * A guest at a guard or at `ctx.requireUser()`: API clients get 401 JSON, a partial update an
 * `HX-Redirect`, others the login page, with a GET's page remembered for after the login (a
 * form's POST is not: going back to it would resubmit nothing and land on a 405).
 */
export function turnAwayGuest(request: GuardRequest, pages: Pick<GuardPages, 'login'>): GuardRefusal {
  if (request.api) return { kind: 'refuse', status: 401, reason: 'unauthenticated', json: true };
  if (pages.login === null) return { kind: 'refuse', status: 401, reason: 'unauthenticated', json: false };
  return sendTo(pages.login, request, rememberable(request));
}

function rememberable(request: GuardRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !request.partial;
}

function sendTo(to: string, request: GuardRequest, remember: boolean): GuardRefusal {
  return request.partial ? { kind: 'hx-redirect', to } : { kind: 'redirect', to, remember };
}
