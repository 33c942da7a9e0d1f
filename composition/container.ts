import { Container } from 'inversify';
import type { ServiceIdentifier } from 'inversify';
import { CreateUser } from '../application/users/create-user.js';
import { DeleteUser } from '../application/users/delete-user.js';
import { EndOtherSessions } from '../application/users/end-other-sessions.js';
import { AttemptLogin } from '../application/auth/attempt-login.js';
import { CheckPassword } from '../application/auth/check-password.js';
import { ChangePassword } from '../application/auth/change-password.js';
import { ConfirmIdentity } from '../application/auth/confirm-identity.js';
import { DeleteAccount } from '../application/auth/delete-account.js';
import { UpdateProfile } from '../application/auth/update-profile.js';
import { RegisterUser } from '../application/auth/register-user.js';
import { RequestPasswordReset } from '../application/auth/request-password-reset.js';
import { ResetPassword } from '../application/auth/reset-password.js';
import { VerifyEmail } from '../application/auth/verify-email.js';
import { InProcessEventBus } from '../adapters/events/in-process-event-bus.js';
import { BeginSecondStep } from '../application/auth/begin-second-step.js';
import { CompleteLogin } from '../application/auth/complete-login.js';
import { ChallengeTwoFactor } from '../application/auth/challenge-two-factor.js';
import { ConfirmTwoFactor } from '../application/auth/confirm-two-factor.js';
import { DisableTwoFactor } from '../application/auth/disable-two-factor.js';
import { EnableTwoFactor } from '../application/auth/enable-two-factor.js';
import { RegenerateRecoveryCodes } from '../application/auth/regenerate-recovery-codes.js';
import { ShowTwoFactorSettings } from '../application/auth/show-two-factor-settings.js';
import { TotpSecondStep } from '../application/auth/totp-second-step.js';
import { TwoFactorSetups } from '../application/auth/two-factor-setups.js';
import { AesGcmSecretBox } from '../adapters/crypto/aes-gcm-secret-box.js';
import { OtpauthTotp } from '../adapters/otp/otpauth-totp.js';
import { QrcodeSvg } from '../adapters/qr/qrcode-svg.js';
import { SqlTwoFactorStore } from '../adapters/persistence/mikro-orm/sql-two-factor-store.js';
import type { AppKeys } from '../domain/security/app-keys.js';
import { join } from 'node:path';
import type { ChosenAdapters, Closer } from './chosen-adapters.js';
import { SqlPasswordResetTokens } from '../adapters/persistence/mikro-orm/sql-password-reset-tokens.js';
import { RegisteredAccessPolicy } from '../adapters/access/registered-access-policy.js';
import { SqlSessionStore } from '../adapters/persistence/mikro-orm/sql-session-store.js';
import { SqlTokenVerifier } from '../adapters/persistence/mikro-orm/sql-token-verifier.js';
import { FindUserByEmail } from '../application/users/find-user-by-email.js';
import { ListUsers } from '../application/users/list-users.js';
import { MarkEmailVerified } from '../application/users/mark-email-verified.js';
import { EndAllSessions } from '../application/users/end-all-sessions.js';
import { ListUserSessions } from '../application/users/list-user-sessions.js';
import { SetPassword } from '../application/users/set-password.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { Argon2PasswordHasher } from '../adapters/password/argon2-password-hasher.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { Db } from '../adapters/persistence/mikro-orm/models/db.js';
import { ModelRecordFinder } from '../adapters/persistence/mikro-orm/models/model-record-finder.js';
import { MikroOrmUserRepository } from '../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { SqlFileMigrator } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { SqlRecordLookup } from '../adapters/persistence/mikro-orm/sql-record-lookup.js';
import { SqlRecordFinder } from '../adapters/persistence/mikro-orm/sql-record-finder.js';
import type { MigrationSource } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { MarkerFileSwitch } from '../adapters/maintenance/marker-file-switch.js';
import { CryptoRandomSource } from '../adapters/random/crypto-random-source.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { AsyncRequestOrigin } from '../adapters/http/kernel/async-request-origin.js';
import { FetchHttpClient } from '../adapters/outbound-http/fetch-http-client.js';
import { SqlLinkedAccounts } from '../adapters/persistence/mikro-orm/sql-linked-accounts.js';
import { SqlActivityLog } from '../adapters/persistence/mikro-orm/sql-activity-log.js';
import { SqlScheduleRuns } from '../adapters/persistence/mikro-orm/sql-schedule-runs.js';
import { SqlWebhookDeliveries } from '../adapters/persistence/mikro-orm/sql-webhook-deliveries.js';
import { SqlNotificationStore } from '../adapters/persistence/mikro-orm/sql-notification-store.js';
import { createTranslator } from './views.js';
import { FormValidation } from '../application/validation/form-validation.js';
import { validatorFormatChecks } from '../adapters/validation/validator-format-checks.js';
import type { Config } from './config.js';
import { TOKENS, id } from './tokens.js';
import type { Token } from './tokens.js';
import { MisuseError } from '../domain/shared/errors.js';

type Tokens<A extends unknown[]> = { [K in keyof A]: Token<A[K]> };

/**
 * Services an app brings in place of the container's defaults (a test's clock, the outgoing
 * HTTP client, `app.accessPolicy(…)`): bound first, before the defaults, so nothing is built and
 * then replaced.
 */
export class Overrides {
  private readonly values = new Map<ServiceIdentifier, unknown>();

  set<T>(t: Token<T>, value: T): this {
    this.values.set(id(t), value);
    return this;
  }

  has(t: Token<unknown>): boolean {
    return this.values.has(id(t));
  }

  /** Binds every override as a constant. */
  bindInto(container: Container): void {
    for (const [key, value] of this.values) container.bind(key).toConstantValue(value);
  }
}

/**
 * Binds `token` to what `factory` builds from the services named by `deps`, once per
 * container. The tuple of tokens is checked against the factory's parameters. A token bound
 * twice is a mistake (two modules claiming one service): it stops start-up naming the token,
 * rather than the later binding silently replacing the earlier one.
 */
export function provide<T, A extends unknown[]>(container: Container, t: Token<T>, deps: Tokens<A>, factory: (...args: A) => T): void {
  if (container.isBound(id(t))) throw new MisuseError('app.bound-twice', `The service ${String(id(t))} is bound twice`);
  container
    .bind<T>(id(t))
    .toResolvedValue(factory, deps as never)
    .inSingletonScope();
}

/** `provide`, unless the app brought its own (`overrides`): the framework's default for a port. */
function provideDefault<T, A extends unknown[]>(container: Container, overrides: Overrides, t: Token<T>, deps: Tokens<A>, factory: (...args: A) => T): void {
  if (!overrides.has(t)) provide(container, t, deps, factory);
}

export function resolve<T>(container: Container, t: Token<T>): T {
  return container.get<T>(id(t));
}

/**
 * Two-factor sign-in: TOTP secrets sealed with a key derived from APP_KEY, stored in the users
 * table's two-factor columns; `SecondStep` is what every login asks after its first step.
 */
function bindTwoFactor(container: Container): void {
  provide(container, TOKENS.secretBox, [TOKENS.appKeys, TOKENS.random], (keys, random) => new AesGcmSecretBox(keys.twoFactorEncryption, random));
  provide(container, TOKENS.twoFactorStore, [TOKENS.database], (db) => new SqlTwoFactorStore(db.raw));
  provide(container, TOKENS.totp, [], () => new OtpauthTotp());
  provide(container, TOKENS.twoFactorSetups, [TOKENS.totp, TOKENS.config], (totp, config) => new TwoFactorSetups(totp, new QrcodeSvg(), config.app.name));
  provide(
    container,
    TOKENS.secondStep,
    [TOKENS.twoFactorStore, TOKENS.secretBox, TOKENS.totp, TOKENS.eventBus, TOKENS.logger, TOKENS.clock],
    (store, box, totp, events, logger, clock) => new TotpSecondStep(store, box, totp, events, logger, clock),
  );
  provide(container, TOKENS.beginSecondStep, [TOKENS.secondStep, TOKENS.clock], (step, clock) => new BeginSecondStep(step, clock));
  provide(
    container,
    TOKENS.completeLogin,
    [TOKENS.beginSecondStep, TOKENS.eventBus, TOKENS.clock, TOKENS.random, TOKENS.config],
    (begin, events, clock, random, config) => new CompleteLogin(begin, events, { clock, random, rememberLifetimeMinutes: config.session.rememberLifetimeMinutes }),
  );
  provide(
    container,
    TOKENS.challengeTwoFactor,
    [TOKENS.userRepository, TOKENS.secondStep, TOKENS.cacheStore, TOKENS.clock],
    (users, step, counters, clock) => new ChallengeTwoFactor(users, step, counters, clock),
  );
  provide(
    container,
    TOKENS.enableTwoFactor,
    [TOKENS.userRepository, TOKENS.twoFactorStore, TOKENS.secretBox, TOKENS.random, TOKENS.twoFactorSetups],
    (users, store, box, random, setups) => new EnableTwoFactor(users, store, box, random, setups),
  );
  provide(
    container,
    TOKENS.confirmTwoFactor,
    [TOKENS.twoFactorStore, TOKENS.secretBox, TOKENS.totp, TOKENS.eventBus, TOKENS.clock],
    (store, box, totp, events, clock) => new ConfirmTwoFactor(store, box, totp, events, clock),
  );
  provide(container, TOKENS.disableTwoFactor, [TOKENS.twoFactorStore, TOKENS.eventBus], (store, events) => new DisableTwoFactor(store, events));
  provide(
    container,
    TOKENS.regenerateRecoveryCodes,
    [TOKENS.twoFactorStore, TOKENS.random, TOKENS.eventBus],
    (store, random, events) => new RegenerateRecoveryCodes(store, random, events),
  );
  provide(
    container,
    TOKENS.showTwoFactorSettings,
    [TOKENS.userRepository, TOKENS.twoFactorStore, TOKENS.secretBox, TOKENS.twoFactorSetups],
    (users, store, box, setups) => new ShowTwoFactorSettings(users, store, box, setups),
  );
}

export interface ContainerParts {
  config: Config;
  /** APP_KEY's derived keys, computed once at boot. */
  keys: AppKeys;
  /** How the ports a setting chooses are made (only the chosen adapters are loaded). */
  adapters: ChosenAdapters;
  /** Where a built service registers what releases it when the app closes. */
  onClose: (close: Closer) => void;
  /** Services the app brings instead of the defaults. */
  overrides: Overrides;
  logger: Logger;
  database: Database;
  migrationSources: readonly MigrationSource[];
}

/**
 * The composition root: binds every port to the adapter the configuration chooses, and every
 * use case to its ports. The database is opened before (it is asynchronous) and handed in.
 */
export function buildContainer(parts: ContainerParts): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(id(TOKENS.config)).toConstantValue(parts.config);
  container.bind(id(TOKENS.appKeys)).toConstantValue(parts.keys);
  container.bind(id(TOKENS.logger)).toConstantValue(parts.logger);
  container.bind(id(TOKENS.database)).toConstantValue(parts.database);
  container.bind(id(TOKENS.migrationSources)).toConstantValue(parts.migrationSources);
  const { overrides } = parts;
  overrides.bindInto(container);

  provideDefault(container, overrides, TOKENS.clock, [], () => new SystemClock());
  provide(container, TOKENS.random, [], () => new CryptoRandomSource());
  provide(container, TOKENS.passwordHasher, [], () => new Argon2PasswordHasher());
  provide(container, TOKENS.userRepository, [TOKENS.database], (db) => new MikroOrmUserRepository(db.orm, db.raw));
  provide(container, TOKENS.recordLookup, [TOKENS.database], (db) => new SqlRecordLookup(db.raw));
  provide(container, TOKENS.recordFinder, [TOKENS.database, TOKENS.db], (database, db) => new ModelRecordFinder(new SqlRecordFinder(database.raw), db));
  provide(container, TOKENS.db, [TOKENS.database, TOKENS.appKeys, TOKENS.clock, TOKENS.random], (database, keys, clock, random) =>
    Db.connect(database, { box: new AesGcmSecretBox(keys.modelEncryption, random), clock }),
  );
  // The adapters the settings chose (chosen-adapters.ts); each registers what closes it.
  const deps = (config: Config, clock: Clock, database: Database, logger: Logger) => ({ config, clock, database, logger });
  const { adapters, onClose } = parts;
  provide(container, TOKENS.cacheStore, [TOKENS.config, TOKENS.clock, TOKENS.database, TOKENS.logger], (config, clock, db, logger) => adapters.cacheStore(deps(config, clock, db, logger), onClose));
  provide(container, TOKENS.storage, [TOKENS.config, TOKENS.clock, TOKENS.database, TOKENS.logger], (config, clock, db, logger) => adapters.storage(deps(config, clock, db, logger), parts.keys.signedUrls));
  provide(container, TOKENS.mailer, [TOKENS.config, TOKENS.clock, TOKENS.database, TOKENS.logger], (config, clock, db, logger) => adapters.mailer(deps(config, clock, db, logger), onClose));
  provide(container, TOKENS.sessionStore, [TOKENS.database], (db) => new SqlSessionStore(db.raw));
  provideDefault(container, overrides, TOKENS.httpClient, [], () => new FetchHttpClient());
  provideDefault(container, overrides, TOKENS.requestOrigin, [], () => new AsyncRequestOrigin());
  provide(container, TOKENS.linkedAccounts, [TOKENS.database], (db) => new SqlLinkedAccounts(db.raw));
  provide(container, TOKENS.activityLog, [TOKENS.database], (db) => new SqlActivityLog(db.raw));
  provide(container, TOKENS.scheduleRuns, [TOKENS.database], (db) => new SqlScheduleRuns(db.raw));
  provide(container, TOKENS.webhookDeliveries, [TOKENS.database], (db) => new SqlWebhookDeliveries(db.raw));
  provide(container, TOKENS.notificationStore, [TOKENS.database], (db) => new SqlNotificationStore(db.raw));
  // Tokens issued into the api_tokens table; an app with its own token format provides another.
  provideDefault(container, overrides, TOKENS.tokenVerifier, [TOKENS.database, TOKENS.clock, TOKENS.random], (db, clock, random) => new SqlTokenVerifier(db.raw, clock, random));
  // Refuses everything until the app registers gates, roles or permissions (App.gate, …).
  provideDefault(container, overrides, TOKENS.accessPolicy, [], () => new RegisteredAccessPolicy());
  // Listeners join in App.boot (app.listen); the bus itself is plain.
  provide(container, TOKENS.eventBus, [TOKENS.logger], (logger) => new InProcessEventBus(logger));
  provide(container, TOKENS.passwordResetTokens, [TOKENS.database], (db) => new SqlPasswordResetTokens(db.raw));
  provide(
    container,
    TOKENS.attemptLogin,
    [TOKENS.userRepository, TOKENS.passwordHasher, TOKENS.cacheStore, TOKENS.clock],
    (users, hasher, counters, clock) => new AttemptLogin(users, hasher, counters, clock),
  );
  provide(container, TOKENS.registerUser, [TOKENS.createUser, TOKENS.authMail, TOKENS.eventBus], (create, mail, events) => new RegisterUser(create, mail, events));
  provide(
    container,
    TOKENS.requestPasswordReset,
    [TOKENS.userRepository, TOKENS.passwordResetTokens, TOKENS.authMail, TOKENS.random, TOKENS.clock],
    (users, tokens, mail, random, clock) => new RequestPasswordReset(users, tokens, mail, random, clock),
  );
  provide(
    container,
    TOKENS.resetPassword,
    [TOKENS.userRepository, TOKENS.passwordResetTokens, TOKENS.passwordHasher, TOKENS.eventBus, TOKENS.clock],
    (users, tokens, hasher, events, clock) => new ResetPassword(users, tokens, hasher, events, clock),
  );
  provide(container, TOKENS.verifyEmail, [TOKENS.userRepository, TOKENS.eventBus, TOKENS.clock], (users, events, clock) => new VerifyEmail(users, events, clock));
  provide(container, TOKENS.checkPassword, [TOKENS.passwordHasher], (hasher) => new CheckPassword(hasher));
  // The account page (Auth.create().account()).
  provide(container, TOKENS.updateProfile, [TOKENS.userRepository, TOKENS.authMail, TOKENS.clock], (users, mail, clock) => new UpdateProfile(users, mail, clock));
  provide(
    container,
    TOKENS.changePassword,
    [TOKENS.userRepository, TOKENS.passwordHasher, TOKENS.checkPassword, TOKENS.clock, TOKENS.eventBus],
    (users, hasher, check, clock, events) => new ChangePassword(users, hasher, check, clock, events),
  );
  provide(container, TOKENS.confirmIdentity, [TOKENS.checkPassword], (check) => new ConfirmIdentity(check));
  provide(container, TOKENS.deleteAccount, [TOKENS.userRepository, TOKENS.confirmIdentity], (users, confirm) => new DeleteAccount(users, confirm));
  bindTwoFactor(container);
  provide(container, TOKENS.endOtherSessions, [TOKENS.userRepository, TOKENS.clock], (users, clock) => new EndOtherSessions(users, clock));
  // The spec's marker file: every process of the app on this machine sees the same one.
  provide(container, TOKENS.translator, [TOKENS.config], (config) => createTranslator(config, config.root));
  provide(
    container,
    TOKENS.formValidation,
    [TOKENS.recordLookup, TOKENS.passwordHasher, TOKENS.translator],
    (records, passwords, translator) => new FormValidation({ records, passwords, formats: validatorFormatChecks, translator }),
  );
  provide(container, TOKENS.maintenance, [TOKENS.config], (config) => new MarkerFileSwitch(join(config.root, 'storage', 'framework', 'down')));
  provide(
    container,
    TOKENS.migrator,
    [TOKENS.database, TOKENS.migrationSources, TOKENS.clock],
    (db, sources, clock) => new SqlFileMigrator(db.raw, sources, clock),
  );

  provide(
    container,
    TOKENS.createUser,
    [TOKENS.userRepository, TOKENS.passwordHasher, TOKENS.clock],
    (users, hasher, clock) => new CreateUser(users, hasher, clock),
  );
  provide(container, TOKENS.listUsers, [TOKENS.userRepository], (users) => new ListUsers(users));
  provide(container, TOKENS.findUserByEmail, [TOKENS.userRepository], (users) => new FindUserByEmail(users));
  provide(
    container,
    TOKENS.markEmailVerified,
    [TOKENS.userRepository, TOKENS.findUserByEmail, TOKENS.clock],
    (users, find, clock) => new MarkEmailVerified(users, find, clock),
  );
  provide(container, TOKENS.deleteUser, [TOKENS.userRepository, TOKENS.findUserByEmail], (users, find) => new DeleteUser(users, find));
  provide(
    container,
    TOKENS.endAllSessions,
    [TOKENS.userRepository, TOKENS.sessionStore, TOKENS.clock],
    (users, sessions, clock) => new EndAllSessions(users, sessions, clock),
  );
  provide(
    container,
    TOKENS.setPassword,
    [TOKENS.userRepository, TOKENS.passwordHasher, TOKENS.endAllSessions, TOKENS.clock],
    (users, hasher, endAll, clock) => new SetPassword(users, hasher, endAll, clock),
  );
  provide(container, TOKENS.listUserSessions, [TOKENS.sessionStore, TOKENS.clock], (sessions, clock) => new ListUserSessions(sessions, clock));
  return container;
}
