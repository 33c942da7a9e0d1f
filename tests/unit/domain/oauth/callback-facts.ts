import type { CallbackFacts, UserFacts } from '../../../../domain/oauth/callback-outcome.js';
import type { ProfileFacts } from '../../../../domain/oauth/profile.js';
import type { SignInPurpose } from '../../../../domain/oauth/sign-in-purpose.js';

/** Shared fixtures for the callback outcome tests: a guest signing in with a verified address nobody uses. */
export const PROVIDER = 'provider_a';

export function profile(over: Partial<ProfileFacts> = {}): ProfileFacts {
  return { providerUserId: 'acct-1', emailAddress: 'ann@example.com', emailVerified: true, displayName: 'Ann Lee', pictureUrl: null, ...over };
}

export function user(id: number, over: Partial<Omit<UserFacts, 'id'>> = {}): UserFacts {
  return { id, emailVerified: true, linkedAtProvider: false, ...over };
}

export const guestLogin: SignInPurpose = { intent: 'login', userId: null, remember: false };
export const linkBy = (userId: number): SignInPurpose => ({ intent: 'link', userId, remember: false });
export const confirmBy = (userId: number): SignInPurpose => ({ intent: 'confirm', userId, remember: false });

export function facts(over: Partial<CallbackFacts> = {}): CallbackFacts {
  return {
    provider: PROVIDER,
    purpose: guestLogin,
    visitor: null,
    returned: { kind: 'profile', profile: profile() },
    linkedUserId: null,
    userWithEmail: null,
    registrationOpen: true,
    ...over,
  };
}

export const withProfile = (over: Partial<ProfileFacts>): Pick<CallbackFacts, 'returned'> => ({ returned: { kind: 'profile', profile: profile(over) } });
