import { Registered } from '../../domain/auth/events.js';
import { accountData, decideCallback } from '../../domain/oauth/callback-outcome.js';
import type { CallbackOutcome, LinkedAccountData, ProviderReturn, UserFacts } from '../../domain/oauth/callback-outcome.js';
import { readCallbackQuery } from '../../domain/oauth/callback-query.js';
import type { CallbackAnswer, CallbackQuery } from '../../domain/oauth/callback-query.js';
import { refusalLanding, signInRefused } from '../../domain/oauth/errors.js';
import type { SignInRefusalReason } from '../../domain/oauth/errors.js';
import { AccountLinked } from '../../domain/oauth/events.js';
import type { PendingSignIn, PendingSignInJson } from '../../domain/oauth/pending-sign-in.js';
import { takePendingSignIn } from '../../domain/oauth/pending-sign-ins.js';
import { isProviderUserId } from '../../domain/oauth/profile.js';
import { newUser } from '../../domain/users/user.js';
import type { User } from '../../domain/users/user.js';
import { spentStateExpiry, spentStateKey } from '../../domain/oauth/spent-state.js';
import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { HttpClient } from '../../ports/http-client.js';
import type { LinkedAccount, LinkedAccounts } from '../../ports/linked-accounts.js';
import type { SignInProtocol } from '../../ports/sign-in-protocol.js';
import type { UserRepository } from '../../ports/user-repository.js';
import { failureReason } from './failure-reason.js';
import type { ActiveProvider, OAuthProviders } from './oauth-providers.js';
import { MisuseError } from '../../domain/shared/errors.js';

/** What `Auth.onRegistered` hooks read when a social login made the account. */
export interface SocialRegistration {
  readonly name: string;
  readonly email: string;
  readonly provider: string;
}

export interface CompleteSignInInput {
  /** The `{provider}` segment of `oauth.callback`. */
  readonly provider: string;
  /** `code`, `state`, `error`, `iss` as the HTTP layer parsed them (absent, a string, or a list). */
  readonly query: CallbackQuery;
  /** The callback's full URL as requested: the protocol checks `iss` and the code against it. */
  readonly callbackUrl: URL;
  /** What the session holds under `PENDING_SIGN_INS_KEY`. */
  readonly storedPending: unknown;
  /** Who is logged in in this session now; null for a guest. */
  readonly visitor: User | null;
  /** False under `Auth.withoutRegistration()`. */
  readonly registrationOpen: boolean;
  /** `{APP_URL}/auth/<provider>/callback`, as sent at the start. */
  readonly redirectUri: string;
  /** `Auth.onRegistered`: runs after the account and its link are written, before `Registered`. */
  readonly onRegistered?: ((registration: SocialRegistration) => void | Promise<void>) | null;
}

export type CompleteSignInResult =
  /** Not registered, or no credentials now: the route answers 404 and the session is untouched. */
  | { readonly kind: 'not-found' }
  | {
      readonly kind: 'done';
      /** What happened; a refusal's `log` says at which level to log it. */
      readonly outcome: CallbackOutcome;
      /** Store under `PENDING_SIGN_INS_KEY` (empty: remove the key): the callback's entry is gone whatever the outcome. */
      readonly remainingPending: PendingSignInJson[];
      /**
       * The user to log in for 'log-in', 'link-and-log-in' and 'register' (the caller runs the
       * two-factor decision and publishes `LoggedInWith`/`LoggedIn`); the visitor for 'link',
       * 'already-linked' and 'confirm'; null for a refusal.
       */
      readonly user: User | null;
      /** For the log line, beside `outcome.reason`: why the state was refused or what broke. Never a code or a token. */
      readonly logReason: string | null;
    };

type Done = Extract<CompleteSignInResult, { kind: 'done' }>;

type LinkWrite = { readonly kind: 'linked' } | { readonly kind: 'refused'; readonly reason: SignInRefusalReason };

/**
 * `oauth.callback`: checks `state`, redeems the code, reads the profile once, gathers what the
 * database knows, asks `decideCallback` and carries out its answer. The unique keys of
 * `oauth_accounts` have the last word: a link a racing request took first becomes the matching
 * refusal, never an exception. `LoggedInWith` and `LoggedIn` are left to the caller, which
 * knows whether the login waits at a second step.
 */
export class CompleteSignIn {
  constructor(
    private readonly providers: OAuthProviders,
    private readonly protocol: SignInProtocol,
    /** The app's HTTP client, handed to the provider's `profile()`. */
    private readonly http: HttpClient,
    private readonly linkedAccounts: LinkedAccounts,
    private readonly users: UserRepository,
    private readonly events: EventBus,
    private readonly clock: Clock,
    /** The shared counters (CACHE_STORE): where an accepted state is spent, for every server and every copy of the session. */
    private readonly counters: CacheStore,
  ) {}

  async execute(input: CompleteSignInInput): Promise<CompleteSignInResult> {
    const active = this.providers.enabledOne(input.provider);
    if (active === null) return { kind: 'not-found' };
    const now = this.clock.now();
    const callback = readCallbackQuery(input.query);
    // First, whatever comes next: the entry this state names leaves the session now.
    const taken = takePendingSignIn(input.storedPending, { provider: input.provider, state: callback.state }, now);
    const done = (outcome: CallbackOutcome, user: User | null, logReason: string | null): Done => ({
      kind: 'done',
      outcome,
      remainingPending: taken.remaining,
      user,
      logReason,
    });
    if (taken.check.kind === 'refused') {
      // The sign-in's purpose is unknown, so a signed-in visitor lands where a login would.
      return done(signInRefused('state-refused', refusalLanding(null, input.visitor !== null)), null, taken.check.reason);
    }
    const pending = taken.check.pending;
    const refuse = (reason: SignInRefusalReason, logReason: string | null): Done =>
      done(signInRefused(reason, refusalLanding(pending.intent, input.visitor !== null)), null, logReason);
    // Before any call to the provider: a copy of the session, or a callback racing this one on
    // the same session, finds the state spent and is refused without a code exchange.
    if ((await this.counters.increment(spentStateKey(pending.state), spentStateExpiry(pending))) > 1) {
      return done(signInRefused('state-refused', refusalLanding(null, input.visitor !== null)), null, 'already-used');
    }

    const { returned, logReason } = await this.providerReturn(active, pending, callback.answer, input);
    const gathered = await this.gatherFacts(input, returned, pending.intent === 'login');
    const outcome = decideCallback({
      provider: input.provider,
      purpose: pending,
      visitor: gathered.visitor,
      returned,
      linkedUserId: gathered.linkedUserId,
      userWithEmail: gathered.owner.facts,
      registrationOpen: input.registrationOpen,
    });

    switch (outcome.kind) {
      case 'refused':
        return done(outcome, null, logReason);
      case 'confirm':
      case 'already-linked':
        return done(outcome, input.visitor, null);
      case 'log-in': {
        const user = await this.users.findById(outcome.userId);
        // The row goes with its user (cascade), so only a delete racing this request lands here.
        if (user === null) return refuse('failed', 'the linked user was deleted meanwhile');
        // What the provider says now is kept, but an unchanged profile costs no write (on
        // PostgreSQL a durable commit is most of a returning user's sign-in).
        const stored = gathered.linked;
        if (stored === null || stored.email !== outcome.account.email || stored.name !== outcome.account.name || stored.pictureUrl !== outcome.account.pictureUrl) {
          await this.linkedAccounts.refresh(outcome.account, now);
        }
        return done(outcome, user, null);
      }
      case 'link-and-log-in':
      case 'link': {
        const user = outcome.kind === 'link' ? input.visitor : gathered.owner.user;
        if (user?.id !== outcome.userId) throw new MisuseError('oauth.wrong-user-linked', 'decideCallback linked a user the facts did not name');
        const written = await this.writeLink(outcome.userId, outcome.account, now);
        if (written.kind === 'refused') return refuse(written.reason, 'a unique key of oauth_accounts refused the link (a racing request)');
        return done(outcome, user, null);
      }
      case 'register': {
        const checked = newUser({ ...outcome.user, passwordHash: null, verified: true, now });
        if (checked.kind === 'invalid') return refuse('failed', `the profile makes no valid user: ${checked.field} ${checked.reason}`);
        const made = await this.linkedAccounts.registerAndLink(checked.user, outcome.account, now);
        // Someone registered the address, or linked the provider account, since the facts were
        // read. Nothing was written; a second try reads the new facts and gets the right answer,
        // which is simpler to trust than deciding again here.
        if (made.kind !== 'registered') return refuse('failed', `registration raced another request (${made.kind})`);
        const user = made.user;
        if (input.onRegistered) await input.onRegistered({ name: user.name, email: user.email, provider: input.provider });
        await this.events.publish(new Registered(user.id, user.name, user.email, input.provider));
        await this.events.publish(new AccountLinked(user.id, input.provider));
        return done(outcome, user, null);
      }
    }
  }

  /**
   * The code exchange and the one profile read. The token lives in this function only: it is
   * handed to `profile()` and dropped, never stored, returned or logged.
   */
  private async providerReturn(
    active: ActiveProvider,
    pending: PendingSignIn,
    answer: CallbackAnswer,
    input: CompleteSignInInput,
  ): Promise<{ returned: ProviderReturn; logReason: string | null }> {
    if (answer.kind === 'denied') return { returned: { kind: 'denied' }, logReason: null };
    if (answer.kind === 'failed') return { returned: { kind: 'failed' }, logReason: answer.detail };
    let accessToken = '';
    try {
      const token = await this.protocol.redeem({
        provider: active.provider,
        credentials: active.credentials,
        redirectUri: input.redirectUri,
        callbackUrl: input.callbackUrl,
        state: pending.state,
        codeVerifier: pending.verifier,
        nonce: pending.nonce,
      });
      accessToken = token.accessToken;
      const profile = await active.provider.profile(this.http, token);
      // A custom provider is app code: a profile without a usable id is a bad answer, not a user.
      if (!isProviderUserId(profile.providerUserId)) return { returned: { kind: 'failed' }, logReason: 'the profile has no usable provider user id' };
      return { returned: { kind: 'profile', profile }, logReason: null };
    } catch (error) {
      return { returned: { kind: 'failed' }, logReason: failureReason(error, [answer.code, accessToken]) };
    }
  }

  /** What the database holds about the people this profile could be. */
  private async gatherFacts(
    input: CompleteSignInInput,
    returned: ProviderReturn,
    guestLogin: boolean,
  ): Promise<{ linkedUserId: number | null; linked: LinkedAccount | null; visitor: UserFacts | null; owner: { user: User | null; facts: UserFacts | null } }> {
    const visitor = input.visitor === null ? null : await this.userFacts(input.visitor, input.provider);
    const none = { user: null, facts: null };
    if (returned.kind !== 'profile') return { linkedUserId: null, linked: null, visitor, owner: none };
    const account = accountData(input.provider, returned.profile);
    const linked = await this.linkedAccounts.findByProviderAccount(input.provider, account.providerUserId);
    // Who owns the address matters only to a guest whose provider account is not linked yet
    // (a link or a confirmation goes by the visitor, a linked account by its row): the common
    // sign-in of a returning user skips two reads.
    if (!guestLogin || linked !== null) return { linkedUserId: linked?.userId ?? null, linked, visitor, owner: none };
    // `account.email` is the normalised address (null for none or junk), as the rules compare it.
    const owner = account.email === null ? null : await this.users.findByEmail(account.email);
    return {
      linkedUserId: null,
      linked,
      visitor,
      owner: { user: owner, facts: owner === null ? null : await this.userFacts(owner, input.provider) },
    };
  }

  private async userFacts(user: User, provider: string): Promise<UserFacts> {
    const links = await this.linkedAccounts.listOfUser(user.id);
    return { id: user.id, emailVerified: user.isVerified(), linkedAtProvider: links.some((link) => link.provider === provider) };
  }

  /**
   * Writes a link and tells `AccountLinked`. When a unique key refuses it, the row is read again
   * to say which: the provider account went to someone else, or the user got another account
   * at this provider. A racing callback that made this very link counts as done (its request
   * told the event).
   */
  private async writeLink(userId: number, account: LinkedAccountData, now: Date): Promise<LinkWrite> {
    const result = await this.linkedAccounts.link(userId, account, now);
    if (result.kind === 'linked') {
      await this.events.publish(new AccountLinked(userId, account.provider));
      return { kind: 'linked' };
    }
    const row = await this.linkedAccounts.findByProviderAccount(account.provider, account.providerUserId);
    if (row?.userId === userId) return { kind: 'linked' };
    return { kind: 'refused', reason: row === null ? 'provider-already-linked' : 'linked-to-another-user' };
  }
}
