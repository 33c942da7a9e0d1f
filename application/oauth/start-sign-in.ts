import { refusalLanding, signInRefused } from '../../domain/oauth/errors.js';
import type { Landing, Notice } from '../../domain/oauth/errors.js';
import { RANDOM_BYTES } from '../../domain/oauth/limits.js';
import { authorizationParameters, newPendingSignIn } from '../../domain/oauth/pending-sign-in.js';
import type { PendingSignInJson } from '../../domain/oauth/pending-sign-in.js';
import { addPendingSignIn } from '../../domain/oauth/pending-sign-ins.js';
import { signInPurpose } from '../../domain/oauth/sign-in-purpose.js';
import type { SignInQuery } from '../../domain/oauth/sign-in-purpose.js';
import { isOpenIdProvider } from '../../ports/identity-provider.js';
import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { SignInProtocol } from '../../ports/sign-in-protocol.js';
import { failureReason } from './failure-reason.js';
import type { OAuthProviders } from './oauth-providers.js';

export interface StartSignInInput {
  /** The `{provider}` segment of `oauth.redirect`. */
  readonly provider: string;
  /** `?intent=confirm`, `?remember=1`, as the HTTP layer parsed them. */
  readonly query: SignInQuery;
  /** Who is logged in; null for a guest. */
  readonly visitorUserId: number | null;
  /** What the session holds under `PENDING_SIGN_INS_KEY` (anything: it came from outside). */
  readonly storedPending: unknown;
  /** `{APP_URL}/auth/<provider>/callback`. */
  readonly redirectUri: string;
}

export type StartSignInResult =
  /** Not registered, or no credentials now: the route answers 404. */
  | { readonly kind: 'not-found' }
  /** Store `pending` under `PENDING_SIGN_INS_KEY`, then redirect to `url`. */
  | { readonly kind: 'redirect'; readonly url: URL; readonly pending: PendingSignInJson[] }
  /**
   * The provider could not be reached (discovery down, a bad answer): the visitor reads 'try
   * again' at `landing`, the caller logs `reason` at warn. The session is left as it was.
   */
  | { readonly kind: 'failed'; readonly reason: string; readonly landing: Landing; readonly notice: Notice };

/**
 * `oauth.redirect`: a fresh `state`, PKCE verifier and (OpenID only) nonce, kept in the session
 * beside other tabs' sign-ins, and the provider's authorization URL carrying them. Logging is
 * left to the caller, which has the request's logger.
 */
export class StartSignIn {
  constructor(
    private readonly providers: OAuthProviders,
    private readonly protocol: SignInProtocol,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  async execute(input: StartSignInInput): Promise<StartSignInResult> {
    const active = this.providers.enabledOne(input.provider);
    if (active === null) return { kind: 'not-found' };
    const { provider, credentials } = active;

    const purpose = signInPurpose(input.query, input.visitorUserId);
    const now = this.clock.now();
    const pending = newPendingSignIn({
      provider: input.provider,
      purpose,
      random: {
        state: this.random.bytes(RANDOM_BYTES),
        verifier: this.random.bytes(RANDOM_BYTES),
        // Only an ID token carries a nonce back; a plain OAuth 2.0 provider would ignore it.
        nonce: isOpenIdProvider(provider) ? this.random.bytes(RANDOM_BYTES) : null,
      },
      now,
    });
    const parameters = authorizationParameters(pending);

    let url: URL;
    try {
      url = await this.protocol.authorizationUrl({
        provider,
        credentials,
        redirectUri: input.redirectUri,
        state: parameters.state,
        codeChallenge: parameters.code_challenge,
        nonce: pending.nonce,
      });
    } catch (error) {
      const refused = signInRefused('failed', refusalLanding(purpose.intent, input.visitorUserId !== null));
      return { kind: 'failed', reason: failureReason(error, []), landing: refused.landing, notice: refused.notice };
    }
    // Stored only once the URL exists: a failed start leaves no entry to crowd out other tabs.
    return { kind: 'redirect', url, pending: addPendingSignIn(input.storedPending, pending, now) };
  }
}
