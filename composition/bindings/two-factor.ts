import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { OtpauthTotp } from '../../adapters/otp/otpauth-totp.js';
import { SqlTwoFactorStore } from '../../adapters/persistence/mikro-orm/sql-two-factor-store.js';
import { QrcodeSvg } from '../../adapters/qr/qrcode-svg.js';
import { BeginSecondStep } from '../../application/auth/begin-second-step.js';
import { ChallengeTwoFactor } from '../../application/auth/challenge-two-factor.js';
import { CompleteLogin } from '../../application/auth/complete-login.js';
import { ConfirmTwoFactor } from '../../application/auth/confirm-two-factor.js';
import { DisableTwoFactor } from '../../application/auth/disable-two-factor.js';
import { EnableTwoFactor } from '../../application/auth/enable-two-factor.js';
import { RegenerateRecoveryCodes } from '../../application/auth/regenerate-recovery-codes.js';
import { ShowTwoFactorSettings } from '../../application/auth/show-two-factor-settings.js';
import { TotpSecondStep } from '../../application/auth/totp-second-step.js';
import { TwoFactorSetups } from '../../application/auth/two-factor-setups.js';
import type { SecondStep } from '../../ports/second-step.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { Totp } from '../../ports/totp.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';
import { CACHE_TOKENS } from './cache.js';
import { CORE_TOKENS as C } from './core.js';
import { EVENT_TOKENS } from './events.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';
import { USER_TOKENS } from './users.js';

/** Completing a login (the second step every login asks after its first) and two-factor settings. */
export const TWO_FACTOR_TOKENS = {
  secretBox: token<SecretBox>('SecretBox'),
  twoFactorStore: token<TwoFactorStore>('TwoFactorStore'),
  totp: token<Totp>('Totp'),
  twoFactorSetups: token<TwoFactorSetups>('TwoFactorSetups'),
  secondStep: token<SecondStep>('SecondStep'),
  beginSecondStep: token<BeginSecondStep>('BeginSecondStep'),
  completeLogin: token<CompleteLogin>('CompleteLogin'),
  challengeTwoFactor: token<ChallengeTwoFactor>('ChallengeTwoFactor'),
  enableTwoFactor: token<EnableTwoFactor>('EnableTwoFactor'),
  confirmTwoFactor: token<ConfirmTwoFactor>('ConfirmTwoFactor'),
  disableTwoFactor: token<DisableTwoFactor>('DisableTwoFactor'),
  regenerateRecoveryCodes: token<RegenerateRecoveryCodes>('RegenerateRecoveryCodes'),
  showTwoFactorSettings: token<ShowTwoFactorSettings>('ShowTwoFactorSettings'),
} as const;

const T = TWO_FACTOR_TOKENS;
const { eventBus } = EVENT_TOKENS;
const { userRepository } = USER_TOKENS;

/**
 * Two-factor sign-in: TOTP secrets sealed with a key derived from APP_KEY, stored in the users
 * table's two-factor columns; `SecondStep` is what every login asks after its first step.
 */
export function bindTwoFactor({ container }: Binding): void {
  provide(container, T.secretBox, [C.appKeys, C.random], (keys, random) => new AesGcmSecretBox(keys.twoFactorEncryption, random));
  provide(container, T.twoFactorStore, [C.database], (db) => new SqlTwoFactorStore(db.raw));
  provide(container, T.totp, [], () => new OtpauthTotp());
  provide(container, T.twoFactorSetups, [T.totp, C.config], (totp, config) => new TwoFactorSetups(totp, new QrcodeSvg(), config.app.name));
  provide(
    container,
    T.secondStep,
    [T.twoFactorStore, T.secretBox, T.totp, eventBus, C.logger, C.clock],
    (store, box, totp, events, logger, clock) => new TotpSecondStep(store, box, totp, events, logger, clock),
  );
  provide(container, T.beginSecondStep, [T.secondStep, C.clock], (step, clock) => new BeginSecondStep(step, clock));
  provide(
    container,
    T.completeLogin,
    [T.beginSecondStep, eventBus, C.clock, C.random, C.config],
    (begin, events, clock, random, config) => new CompleteLogin(begin, events, { clock, random, rememberLifetimeMinutes: config.session.rememberLifetimeMinutes }),
  );
  provide(
    container,
    T.challengeTwoFactor,
    [userRepository, T.secondStep, CACHE_TOKENS.cacheStore, C.clock],
    (users, step, counters, clock) => new ChallengeTwoFactor(users, step, counters, clock),
  );
  provide(
    container,
    T.enableTwoFactor,
    [userRepository, T.twoFactorStore, T.secretBox, C.random, T.twoFactorSetups],
    (users, store, box, random, setups) => new EnableTwoFactor(users, store, box, random, setups),
  );
  provide(container, T.confirmTwoFactor, [T.twoFactorStore, T.secretBox, T.totp, eventBus, C.clock], (store, box, totp, events, clock) => new ConfirmTwoFactor(store, box, totp, events, clock));
  provide(container, T.disableTwoFactor, [T.twoFactorStore, eventBus], (store, events) => new DisableTwoFactor(store, events));
  provide(container, T.regenerateRecoveryCodes, [T.twoFactorStore, C.random, eventBus], (store, random, events) => new RegenerateRecoveryCodes(store, random, events));
  provide(
    container,
    T.showTwoFactorSettings,
    [userRepository, T.twoFactorStore, T.secretBox, T.twoFactorSetups],
    (users, store, box, setups) => new ShowTwoFactorSettings(users, store, box, setups),
  );
}
