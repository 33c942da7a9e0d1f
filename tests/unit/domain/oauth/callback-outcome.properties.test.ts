import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideCallback } from '../../../../domain/oauth/callback-outcome.js';
import { SIGN_IN_NOTICES } from '../../../../domain/oauth/errors.js';
import type { CallbackFacts, CallbackOutcome, CallbackOutcomeKind, ProviderReturn, UserFacts } from '../../../../domain/oauth/callback-outcome.js';
import type { ProfileFacts } from '../../../../domain/oauth/profile.js';
import type { SignInPurpose } from '../../../../domain/oauth/sign-in-purpose.js';
import { normalizeEmail } from '../../../../domain/users/email.js';
import { facts as baseFacts, PROVIDER } from './callback-facts.js';

/**
 * The invariants the spec implies, checked over every combination of small domains (three
 * users, a few addresses) exhaustively, then with fast-check over wider ones. Each returns the
 * names of the broken ones, so a failure says which rule broke and for which facts.
 */
const KINDS: readonly CallbackOutcomeKind[] = ['log-in', 'link-and-log-in', 'register', 'link', 'already-linked', 'confirm', 'refused'];
const LOGS_IN: readonly CallbackOutcomeKind[] = ['log-in', 'link-and-log-in', 'register'];
const MAKES_LINK: readonly CallbackOutcomeKind[] = ['link-and-log-in', 'register', 'link'];

function verifiedAddress(f: CallbackFacts): boolean {
  if (f.returned.kind !== 'profile') return false;
  const p = f.returned.profile;
  return p.emailVerified && p.emailAddress !== null && normalizeEmail(p.emailAddress).kind === 'valid';
}

function broken(f: CallbackFacts, o: CallbackOutcome): string[] {
  const out: string[] = [];
  const fail = (rule: string, holds: boolean): void => {
    if (!holds) out.push(rule);
  };
  fail('a known kind', KINDS.includes(o.kind));
  fail('deterministic: one outcome per input', JSON.stringify(decideCallback(f)) === JSON.stringify(o));

  // Who gets logged in.
  if (LOGS_IN.includes(o.kind)) {
    fail('only a guest signing in is logged in', f.visitor === null && f.purpose.intent === 'login');
  }
  if (o.kind === 'log-in') fail('logs in exactly the linked user', f.linkedUserId !== null && o.userId === f.linkedUserId);
  if (f.linkedUserId !== null && (o.kind === 'log-in' || o.kind === 'link-and-log-in')) {
    fail('never logs in another user than the linked one', o.userId === f.linkedUserId);
  }
  if (f.linkedUserId !== null) fail('a linked provider account is never linked again', !MAKES_LINK.includes(o.kind));

  // What gets linked, and to whom.
  if (o.kind === 'link-and-log-in') {
    fail('links by address only to its owner', f.userWithEmail !== null && o.userId === f.userWithEmail.id);
    fail('links by address only when the provider verified it', verifiedAddress(f));
    fail("never links to a user whose own address is unverified (by address)", f.userWithEmail?.emailVerified === true);
    fail('one account per provider per user (by address)', f.userWithEmail?.linkedAtProvider === false);
  }
  if (o.kind === 'register') {
    fail('makes a user only from a verified address', verifiedAddress(f));
    fail('makes a user only when nobody has the address', f.userWithEmail === null);
    fail('makes no user when registration is closed', f.registrationOpen);
    fail("the new user's address is the profile's", o.user.email === o.account.email && o.account.email !== null);
  }
  if (o.kind === 'link' || o.kind === 'already-linked' || o.kind === 'confirm') {
    fail('a guest never gets linked or confirmed', f.visitor !== null);
    fail('only the user who started it', f.visitor?.id === f.purpose.userId && o.userId === f.visitor?.id);
  }
  if (o.kind === 'link') {
    fail('Link only when pressed', f.purpose.intent === 'link');
    fail("never links to a user whose own address is unverified (Link)", f.visitor?.emailVerified === true);
    fail('one account per provider per user (Link)', f.visitor?.linkedAtProvider === false);
  }
  if (o.kind === 'confirm') fail('confirms only with the visitor’s own provider account', f.purpose.intent === 'confirm' && f.linkedUserId === f.visitor?.id);
  if (f.purpose.intent === 'confirm') fail('a confirmation never links nor logs in', o.kind === 'confirm' || o.kind === 'refused');
  if (!verifiedAddress(f)) fail('an unverified address never links to an existing account nor makes one', o.kind !== 'link-and-log-in' && o.kind !== 'register');
  if (f.returned.kind !== 'profile') fail('no profile, nothing happens', o.kind === 'refused');

  // What is told.
  if (o.kind === 'refused') {
    fail('a refusal says why, as an error', o.notice.level === 'error' && o.notice.code === SIGN_IN_NOTICES[o.reason]);
    fail('a refused guest goes back to the login page', f.visitor !== null || o.landing === 'login');
  }
  if (o.kind !== 'refused' && o.kind !== 'confirm' && o.kind !== 'already-linked') {
    fail('the row written is for this provider and account', 'account' in o && o.account.provider === f.provider && f.returned.kind === 'profile' && o.account.providerUserId === f.returned.profile.providerUserId);
  }
  return out;
}

// Small domains: every combination.
const IDS = [1, 2, 3] as const;
const PURPOSES: SignInPurpose[] = [
  { intent: 'login', userId: null, remember: false },
  { intent: 'login', userId: null, remember: true },
  ...IDS.flatMap((id): SignInPurpose[] => [
    { intent: 'link', userId: id, remember: false },
    { intent: 'confirm', userId: id, remember: false },
  ]),
];
const USERS: UserFacts[] = IDS.flatMap((id) => [false, true].flatMap((emailVerified) => [false, true].map((linkedAtProvider) => ({ id, emailVerified, linkedAtProvider }))));
const ADDRESSES = [null, 'ann@example.com', ' ANN@Example.com', 'not an address'];
const RETURNS: ProviderReturn[] = [
  { kind: 'denied' },
  { kind: 'failed' },
  ...ADDRESSES.flatMap((emailAddress) =>
    [false, true].map((emailVerified): ProviderReturn => ({ kind: 'profile', profile: { providerUserId: 'acct-1', emailAddress, emailVerified, displayName: null, pictureUrl: null } })),
  ),
];

function* everyCombination(): Generator<CallbackFacts> {
  for (const purpose of PURPOSES)
    for (const visitor of [null, ...USERS])
      for (const returned of RETURNS)
        for (const linkedUserId of [null, ...IDS])
          for (const userWithEmail of [null, ...USERS])
            for (const registrationOpen of [false, true]) yield { provider: PROVIDER, purpose, visitor, returned, linkedUserId, userWithEmail, registrationOpen };
}

describe('decideCallback over all combinations', () => {
  it('gives exactly one outcome for every combination, and keeps every invariant', () => {
    const seen = new Set<string>();
    let count = 0;
    for (const f of everyCombination()) {
      count += 1;
      const o = decideCallback(f);
      const rules = broken(f, o);
      if (rules.length > 0) expect.fail(`${rules.join('; ')} for ${JSON.stringify(f)} → ${JSON.stringify(o)}`);
      seen.add(o.kind === 'refused' ? `refused:${o.reason}` : o.kind);
    }
    expect(count).toBe(PURPOSES.length * 13 * RETURNS.length * 4 * 13 * 2);
    // The domains are rich enough to reach every outcome and every refusal but the state's.
    expect([...seen].sort()).toEqual(
      [
        'already-linked',
        'confirm',
        'link',
        'link-and-log-in',
        'log-in',
        'refused:already-logged-in',
        'refused:denied',
        'refused:email-owner-unverified',
        'refused:failed',
        'refused:linked-to-another-user',
        'refused:not-linked-to-you',
        'refused:own-email-unverified',
        'refused:provider-already-linked',
        'refused:registration-closed',
        'refused:unverified-email',
        'refused:visitor-changed',
        'register',
      ].sort(),
    );
  });
});

describe('decideCallback with fast-check', () => {
  const id = fc.integer({ min: 1, max: 1_000_000 });
  const users = fc.record({ id, emailVerified: fc.boolean(), linkedAtProvider: fc.boolean() });
  const purposes: fc.Arbitrary<SignInPurpose> = fc.oneof(
    fc.record({ intent: fc.constant('login' as const), userId: fc.constant(null), remember: fc.boolean() }),
    fc.record({ intent: fc.constantFrom('link' as const, 'confirm' as const), userId: id, remember: fc.constant(false) }),
  );
  const profiles: fc.Arbitrary<ProfileFacts> = fc.record({
    providerUserId: fc.string({ minLength: 1, maxLength: 20 }),
    emailAddress: fc.option(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 30 })), { nil: null }),
    emailVerified: fc.boolean(),
    displayName: fc.option(fc.string({ maxLength: 300 }), { nil: null }),
    pictureUrl: fc.option(fc.webUrl(), { nil: null }),
  });
  const returns: fc.Arbitrary<ProviderReturn> = fc.oneof(
    fc.constant({ kind: 'denied' } as const),
    fc.constant({ kind: 'failed' } as const),
    profiles.map((profile) => ({ kind: 'profile', profile }) as const),
  );
  // Visitors and owners are drawn so that ids collide often: the interesting cases are "the same user".
  const facts: fc.Arbitrary<CallbackFacts> = fc
    .record({
      purpose: purposes,
      visitor: fc.option(users, { nil: null }),
      returned: returns,
      linkedUserId: fc.option(id, { nil: null }),
      userWithEmail: fc.option(users, { nil: null }),
      registrationOpen: fc.boolean(),
      sameVisitor: fc.boolean(),
      linkedToVisitor: fc.boolean(),
    })
    .map(({ sameVisitor, linkedToVisitor, ...f }) => {
      const visitor = f.visitor !== null && sameVisitor && f.purpose.userId !== null ? { ...f.visitor, id: f.purpose.userId } : f.visitor;
      const linkedUserId = visitor !== null && linkedToVisitor ? visitor.id : f.linkedUserId;
      return { provider: PROVIDER, ...f, visitor, linkedUserId };
    });

  it('keeps every invariant', () => {
    fc.assert(
      fc.property(facts, (f) => {
        expect(broken(f, decideCallback(f))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('Link: the address does not matter', () => {
    fc.assert(
      fc.property(facts, returns, fc.option(users, { nil: null }), (f, otherReturn, otherOwner) => {
        fc.pre(f.purpose.intent === 'link' && f.returned.kind === 'profile' && otherReturn.kind === 'profile');
        const other = decideCallback({ ...f, returned: otherReturn, userWithEmail: otherOwner });
        const mine = decideCallback(f);
        expect(other.kind).toBe(mine.kind);
        expect('reason' in other ? other.reason : null).toBe('reason' in mine ? mine.reason : null);
      }),
    );
  });

  it('a linked provider account logs its user in, whatever the address, owner or registration setting', () => {
    fc.assert(
      fc.property(facts, id, (f, linked) => {
        const o = decideCallback({ ...f, purpose: { intent: 'login', userId: null, remember: f.purpose.remember }, visitor: null, linkedUserId: linked });
        if (f.returned.kind === 'profile') expect(o).toMatchObject({ kind: 'log-in', userId: linked });
        else expect(o.kind).toBe('refused');
      }),
    );
  });

  it('never throws, even for facts that the database could not produce', () => {
    fc.assert(
      fc.property(facts, (f) => {
        // e.g. the visitor is the linked user but says they have no account at this provider.
        expect(() => decideCallback({ ...baseFacts(), ...f })).not.toThrow();
      }),
    );
  });
});
