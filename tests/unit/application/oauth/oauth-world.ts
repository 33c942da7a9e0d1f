import { MemoryCacheStore } from '../../../../adapters/cache/memory-cache-store.js';
import { createHash } from 'node:crypto';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { InMemoryLinkedAccounts } from '../../../../adapters/persistence/memory/in-memory-linked-accounts.js';
import { InMemoryUserRepository } from '../../../../adapters/persistence/memory/in-memory-user-repository.js';
import { CompleteSignIn } from '../../../../application/oauth/complete-sign-in.js';
import type { CompleteSignInResult, SocialRegistration } from '../../../../application/oauth/complete-sign-in.js';
import { OAuthProviders } from '../../../../application/oauth/oauth-providers.js';
import { ShowLinkedAccounts } from '../../../../application/oauth/show-linked-accounts.js';
import { StartSignIn } from '../../../../application/oauth/start-sign-in.js';
import type { StartSignInResult } from '../../../../application/oauth/start-sign-in.js';
import { UnlinkProvider } from '../../../../application/oauth/unlink-provider.js';
import { Credentials } from '../../../../domain/oauth/credentials.js';
import type { ProviderSettings } from '../../../../domain/oauth/credentials.js';
import { Profile } from '../../../../domain/oauth/profile.js';
import { newUser } from '../../../../domain/users/user.js';
import type { User } from '../../../../domain/users/user.js';
import type { EventBus } from '../../../../ports/event-bus.js';
import type { HttpClient } from '../../../../ports/http-client.js';
import type { IdentityProvider, OAuth2Provider, OpenIdProvider, ProviderToken } from '../../../../ports/identity-provider.js';
import type { LinkedAccounts } from '../../../../ports/linked-accounts.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import type { AuthorizationRequest, CodeRedemption, SignInProtocol } from '../../../../ports/sign-in-protocol.js';
import { SignInFailed } from '../../../../ports/sign-in-protocol.js';

/**
 * A small world for the social-login use cases: the in-memory stores, a fixed clock, a
 * deterministic random source, a recording event bus, and a fake provider and protocol that
 * stand in for the provider's pages and endpoints. `session` plays the visitor's session key.
 */

export const APP_URL = 'https://app.example';
export const T0 = '2026-03-01T12:00:00Z';

/** What the person's account at the provider says, as the profile endpoint would answer. */
export interface PersonAtProvider {
  readonly id: string;
  readonly email?: string | null;
  readonly verified?: boolean;
  readonly name?: string | null;
}

/** Keeps what was published, and hands it on to `next` (the app's bus with its listeners) when given. */
export class RecordingEventBus implements EventBus {
  readonly published: object[] = [];

  constructor(private readonly next: EventBus | null = null) {}

  async publish(event: object): Promise<void> {
    this.published.push(event);
    await this.next?.publish(event);
  }

  names(): string[] {
    return this.published.map((event) => event.constructor.name);
  }
}

/** Each call gives fresh bytes from a counter, so runs repeat; lengths asked for are recorded. */
export class CountingRandom implements RandomSource {
  readonly lengths: number[] = [];
  private counter = 0;

  bytes(length: number): Uint8Array {
    this.lengths.push(length);
    const seed = createHash('sha512').update(`random:${this.counter++}`).digest();
    return new Uint8Array(seed.subarray(0, length));
  }
}

/** Never called: the fake providers read profiles from the protocol's table. Its presence is what is checked. */
export const NO_HTTP: HttpClient = {
  fetch: () => Promise.reject(new Error('no outgoing HTTP in unit tests')),
};

/**
 * The provider's side: codes it issued, each redeemable once for an access token, and the
 * profile each token reads. `redeem` checks what the real protocol checks that matters here
 * (the verifier's challenge was sent at the start, the state matches).
 */
export class FakeProtocol implements SignInProtocol {
  readonly authorizations: AuthorizationRequest[] = [];
  readonly redemptions: CodeRedemption[] = [];
  /** Thrown by the next `authorizationUrl` or `redeem` (discovery down, token endpoint failing). */
  failAuthorization: Error | null = null;
  failRedeem: Error | null = null;
  private readonly codes = new Map<string, string>();
  readonly profiles = new Map<string, PersonAtProvider>();
  private issued = 0;

  authorizationUrl(request: AuthorizationRequest): Promise<URL> {
    this.authorizations.push(request);
    if (this.failAuthorization !== null) return Promise.reject(this.failAuthorization);
    const url = new URL(`https://${request.provider.name().replace(/_/gu, '-')}.example/authorize`);
    url.searchParams.set('client_id', request.credentials.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('state', request.state);
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    if (request.nonce !== null) url.searchParams.set('nonce', request.nonce);
    return Promise.resolve(url);
  }

  redeem(request: CodeRedemption): Promise<ProviderToken> {
    this.redemptions.push(request);
    if (this.failRedeem !== null) return Promise.reject(this.failRedeem);
    const code = request.callbackUrl.searchParams.get('code') ?? '';
    const accessToken = this.codes.get(code);
    if (accessToken === undefined) return Promise.reject(new SignInFailed('invalid_grant: unknown or used code'));
    this.codes.delete(code);
    return Promise.resolve({ accessToken, tokenType: 'Bearer', idTokenClaims: null });
  }

  /** The person approves: a one-time code whose token reads `person`. */
  approve(person: PersonAtProvider): { code: string; accessToken: string } {
    this.issued += 1;
    const code = `code-${this.issued}`;
    const accessToken = `at-SECRET-${this.issued}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}`;
    this.codes.set(code, accessToken);
    this.profiles.set(accessToken, person);
    return { code, accessToken };
  }
}

/** A provider whose `profile()` reads the protocol's table; it records the calls and the tokens it saw. */
export function fakeProvider(
  protocol: FakeProtocol,
  name: string,
  options: { openId?: boolean; credentials?: Credentials; profileError?: () => Error } = {},
): IdentityProvider & { profileCalls: { http: HttpClient; token: ProviderToken }[] } {
  const profileCalls: { http: HttpClient; token: ProviderToken }[] = [];
  const base = {
    profileCalls,
    name: () => name,
    label: () => `Label of ${name}`,
    credentials: () => options.credentials ?? Credentials.create(`${name}-id`, `${name}-secret`),
    scopes: () => ['openid', 'email'],
    profile(http: HttpClient, token: ProviderToken): Promise<Profile> {
      profileCalls.push({ http, token });
      if (options.profileError !== undefined) return Promise.reject(options.profileError());
      const person = protocol.profiles.get(token.accessToken);
      if (person === undefined) return Promise.reject(new Error('the profile endpoint answered 401'));
      return Promise.resolve(
        Profile.create(person.id)
          .email(person.email ?? null, person.verified ?? false)
          .name(person.name ?? null),
      );
    },
  };
  if (options.openId === true) return { ...base, issuer: () => `https://${name}.example` } satisfies OpenIdProvider & typeof base;
  return { ...base, authorizeEndpoint: () => `https://${name}.example/authorize`, tokenEndpoint: () => `https://${name}.example/token` } satisfies OAuth2Provider & typeof base;
}

export type FakeProvider = ReturnType<typeof fakeProvider>;

export class MapSettings implements ProviderSettings {
  constructor(readonly values = new Map<string, string>()) {}
  get(name: string): string | undefined {
    return this.values.get(name);
  }
}

export interface WorldOptions {
  /** Registered providers; default: `provider_a` (OpenID) and `provider_b` (OAuth 2.0), both with credentials. */
  providers?: (protocol: FakeProtocol) => FakeProvider[];
  /** Wraps the linked-accounts store (to stage a racing request). */
  wrapLinks?: (links: LinkedAccounts, users: InMemoryUserRepository) => LinkedAccounts;
  settings?: MapSettings;
  /** Where published events go on to (an `InProcessEventBus` with the Audit listener). */
  bus?: EventBus;
}

export function makeWorld(options: WorldOptions = {}) {
  const clock = new FixedClock(T0);
  const users = new InMemoryUserRepository();
  const memoryLinks = new InMemoryLinkedAccounts(users);
  const links = options.wrapLinks?.(memoryLinks, users) ?? memoryLinks;
  const events = new RecordingEventBus(options.bus ?? null);
  const random = new CountingRandom();
  const protocol = new FakeProtocol();
  const settings = options.settings ?? new MapSettings();
  const registered = options.providers?.(protocol) ?? [fakeProvider(protocol, 'provider_a', { openId: true }), fakeProvider(protocol, 'provider_b')];
  const providers = new OAuthProviders(registered, settings);
  const world = {
    clock,
    users,
    links: memoryLinks,
    events,
    random,
    protocol,
    settings,
    registered,
    providers,
    /** The visitor's session: what it holds under PENDING_SIGN_INS_KEY. */
    session: undefined as unknown,
    registrations: [] as SocialRegistration[],
    start: new StartSignIn(providers, protocol, random, clock),
    complete: new CompleteSignIn(providers, protocol, NO_HTTP, links, users, events, clock, new MemoryCacheStore(clock)),
    unlink: new UnlinkProvider(providers, links, events),
    show: new ShowLinkedAccounts(providers, links),

    async addUser(input: { email: string; name?: string; verified?: boolean; password?: boolean }): Promise<User> {
      const checked = newUser({
        name: input.name ?? input.email.split('@')[0] ?? 'user',
        email: input.email,
        passwordHash: input.password === false ? null : 'hashed:secret',
        verified: input.verified ?? true,
        now: clock.now(),
      });
      if (checked.kind !== 'valid') throw new Error('bad test user');
      const added = await users.add(checked.user);
      if (added.kind !== 'added') throw new Error('duplicate test user');
      return added.user;
    },

    /** `oauth.redirect`, keeping what the session must store. */
    async redirect(input: { provider?: string; visitor?: User | null; intent?: string; remember?: string } = {}): Promise<StartSignInResult> {
      const provider = input.provider ?? 'provider_a';
      const result = await world.start.execute({
        provider,
        query: { intent: input.intent, remember: input.remember },
        visitorUserId: input.visitor?.id ?? null,
        storedPending: world.session,
        redirectUri: `${APP_URL}/auth/${provider}/callback`,
      });
      if (result.kind === 'redirect') world.session = result.pending;
      return result;
    },

    /** `oauth.callback` with the given query, keeping what the session must store. */
    async callback(input: { provider?: string; query: Record<string, string>; visitor?: User | null; registrationOpen?: boolean }): Promise<CompleteSignInResult> {
      const provider = input.provider ?? 'provider_a';
      const callbackUrl = new URL(`${APP_URL}/auth/${provider}/callback`);
      for (const [key, value] of Object.entries(input.query)) callbackUrl.searchParams.set(key, value);
      const result = await world.complete.execute({
        provider,
        query: input.query,
        callbackUrl,
        storedPending: world.session,
        visitor: input.visitor ?? null,
        registrationOpen: input.registrationOpen ?? true,
        redirectUri: `${APP_URL}/auth/${provider}/callback`,
        onRegistered: (registration) => {
          world.registrations.push(registration);
        },
      });
      if (result.kind === 'done') world.session = result.remainingPending;
      return result;
    },

    /** The whole round trip: redirect, the person approves as `person`, callback with code and state. */
    async signIn(
      person: PersonAtProvider,
      input: { provider?: string; visitor?: User | null; intent?: string; remember?: string; registrationOpen?: boolean } = {},
    ): Promise<Done> {
      const started = await world.redirect(input);
      if (started.kind !== 'redirect') throw new Error(`the sign-in did not start: ${started.kind}`);
      const { code } = protocol.approve(person);
      const state = started.url.searchParams.get('state') ?? '';
      const result = await world.callback({ ...input, query: { code, state } });
      if (result.kind !== 'done') throw new Error(`the callback was ${result.kind}`);
      return result;
    },

    /** Everything a failed or refused sign-in must not have touched. */
    async snapshot(): Promise<{ users: number; links: unknown[]; events: number }> {
      return { users: await users.count(), links: await memoryLinks.list({ limit: 100, offset: 0 }), events: events.published.length };
    },
  };
  return world;
}

export type World = ReturnType<typeof makeWorld>;
export type Done = Extract<CompleteSignInResult, { kind: 'done' }>;
