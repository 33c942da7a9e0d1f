import type { ServiceIdentifier } from 'inversify';
import type { ServiceKey } from '../adapters/http/kernel/request-context.js';
import type { CreateUser } from '../application/users/create-user.js';
import type { DeleteUser } from '../application/users/delete-user.js';
import type { FindUserByEmail } from '../application/users/find-user-by-email.js';
import type { ListUsers } from '../application/users/list-users.js';
import type { MarkEmailVerified } from '../application/users/mark-email-verified.js';
import type { EndAllSessions } from '../application/users/end-all-sessions.js';
import type { ListUserSessions } from '../application/users/list-user-sessions.js';
import type { SetPassword } from '../application/users/set-password.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import type { Db } from '../adapters/persistence/mikro-orm/models/db.js';
import type { MigrationSource } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import type { EndOtherSessions } from '../application/users/end-other-sessions.js';
import type { AccessPolicy } from '../ports/access-policy.js';
import type { AttemptLogin } from '../application/auth/attempt-login.js';
import type { CheckPassword } from '../application/auth/check-password.js';
import type { ChangePassword } from '../application/auth/change-password.js';
import type { ConfirmIdentity } from '../application/auth/confirm-identity.js';
import type { DeleteAccount } from '../application/auth/delete-account.js';
import type { UpdateProfile } from '../application/auth/update-profile.js';
import type { BeginSecondStep } from '../application/auth/begin-second-step.js';
import type { CompleteLogin } from '../application/auth/complete-login.js';
import type { ChallengeTwoFactor } from '../application/auth/challenge-two-factor.js';
import type { ConfirmTwoFactor } from '../application/auth/confirm-two-factor.js';
import type { DisableTwoFactor } from '../application/auth/disable-two-factor.js';
import type { EnableTwoFactor } from '../application/auth/enable-two-factor.js';
import type { RegenerateRecoveryCodes } from '../application/auth/regenerate-recovery-codes.js';
import type { ShowTwoFactorSettings } from '../application/auth/show-two-factor-settings.js';
import type { SecondStep } from '../ports/second-step.js';
import type { SecretBox } from '../ports/secret-box.js';
import type { Totp } from '../ports/totp.js';
import type { TwoFactorStore } from '../ports/two-factor-store.js';
import type { TwoFactorSetups } from '../application/auth/two-factor-setups.js';
import type { RegisterUser } from '../application/auth/register-user.js';
import type { RequestPasswordReset } from '../application/auth/request-password-reset.js';
import type { ResetPassword } from '../application/auth/reset-password.js';
import type { VerifyEmail } from '../application/auth/verify-email.js';
import type { AuthMail } from '../ports/auth-mail.js';
import type { EventBus } from '../ports/event-bus.js';
import type { ViewRenderer } from '../ports/view-renderer.js';
import type { PasswordResetTokens } from '../ports/password-reset-tokens.js';
import type { CacheStore } from '../ports/cache-store.js';
import type { SessionStore } from '../ports/session-store.js';
import type { TokenVerifier } from '../ports/token-verifier.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { Mailer } from '../ports/mailer.js';
import type { MaintenanceSwitch } from '../ports/maintenance-switch.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { RecordLookup } from '../ports/record-lookup.js';
import type { RecordFinder } from '../ports/record-finder.js';
import type { RandomSource } from '../ports/random-source.js';
import type { SchemaMigrator } from '../ports/schema-migrator.js';
import type { UserRepository } from '../ports/user-repository.js';
import type { Config } from './config.js';
import type { AppKeys } from '../domain/security/app-keys.js';
import type { HttpClient } from '../ports/http-client.js';
import type { SignInProtocol } from '../ports/sign-in-protocol.js';
import type { LinkedAccounts } from '../ports/linked-accounts.js';
import type { ActivityLog } from '../ports/activity-log.js';
import type { Translator } from '../ports/translator.js';
import type { FormValidation } from '../application/validation/form-validation.js';
import type { AsyncRequestOrigin } from '../adapters/http/kernel/async-request-origin.js';
import type { OAuthProviders } from '../application/oauth/oauth-providers.js';
import type { StartSignIn } from '../application/oauth/start-sign-in.js';
import type { CompleteSignIn } from '../application/oauth/complete-sign-in.js';
import type { UnlinkProvider } from '../application/oauth/unlink-provider.js';
import type { ShowLinkedAccounts } from '../application/oauth/show-linked-accounts.js';
import type { RecordActivity } from '../application/audit/record-activity.js';
import type { ScheduleRuns } from '../ports/schedule-runs.js';
import type { WebhookDeliveries } from '../ports/webhook-deliveries.js';
import type { OutgoingWebhooks } from '../application/webhooks/webhooks.js';
import type { NotificationStore } from '../ports/notification-store.js';
import type { DeliverNotification } from '../application/notifications/deliver-notification.js';
import type { Notifier } from '../application/notifications/notifier.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Transactions } from '../ports/transactions.js';
import type { JobBatches } from '../ports/job-batches.js';
import type { JobDispatcher } from '../application/queue/job-dispatcher.js';
import type { Storage } from '../ports/storage.js';

/** A service identifier that remembers the type it resolves to (handlers use it with `ctx.service`). */
export type Token<T> = ServiceKey<T>;

function token<T>(name: string): Token<T> {
  return Symbol(name);
}

/** Every service of the container, in one place. */
export const TOKENS = {
  config: token<Config>('Config'),
  /** APP_KEY's derived keys (sessions, signed URLs, encrypted columns…), derived once at boot. */
  appKeys: token<AppKeys>('AppKeys'),
  logger: token<Logger>('Logger'),
  clock: token<Clock>('Clock'),
  random: token<RandomSource>('RandomSource'),
  passwordHasher: token<PasswordHasher>('PasswordHasher'),
  database: token<Database>('Database'),
  /** The data layer: `ctx.service(TOKENS.db).query(Product)…`. */
  db: token<Db>('Db'),
  migrationSources: token<readonly MigrationSource[]>('MigrationSources'),
  migrator: token<SchemaMigrator>('SchemaMigrator'),
  userRepository: token<UserRepository>('UserRepository'),
  recordLookup: token<RecordLookup>('RecordLookup'),
  recordFinder: token<RecordFinder>('RecordFinder'),
  maintenance: token<MaintenanceSwitch>('MaintenanceSwitch'),
  cacheStore: token<CacheStore>('CacheStore'),
  sessionStore: token<SessionStore>('SessionStore'),
  tokenVerifier: token<TokenVerifier>('TokenVerifier'),
  mailer: token<Mailer>('Mailer'),
  accessPolicy: token<AccessPolicy>('AccessPolicy'),
  endOtherSessions: token<EndOtherSessions>('EndOtherSessions'),
  eventBus: token<EventBus>('EventBus'),
  viewRenderer: token<ViewRenderer>('ViewRenderer'),
  authMail: token<AuthMail>('AuthMail'),
  /** The Auth module's mails sent at once (what the queued `fw.auth-mail` job runs). */
  authMailNow: token<AuthMail>('AuthMailNow'),
  passwordResetTokens: token<PasswordResetTokens>('PasswordResetTokens'),
  attemptLogin: token<AttemptLogin>('AttemptLogin'),
  registerUser: token<RegisterUser>('RegisterUser'),
  requestPasswordReset: token<RequestPasswordReset>('RequestPasswordReset'),
  resetPassword: token<ResetPassword>('ResetPassword'),
  verifyEmail: token<VerifyEmail>('VerifyEmail'),
  checkPassword: token<CheckPassword>('CheckPassword'),
  updateProfile: token<UpdateProfile>('UpdateProfile'),
  changePassword: token<ChangePassword>('ChangePassword'),
  confirmIdentity: token<ConfirmIdentity>('ConfirmIdentity'),
  deleteAccount: token<DeleteAccount>('DeleteAccount'),
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
  createUser: token<CreateUser>('CreateUser'),
  listUsers: token<ListUsers>('ListUsers'),
  findUserByEmail: token<FindUserByEmail>('FindUserByEmail'),
  markEmailVerified: token<MarkEmailVerified>('MarkEmailVerified'),
  deleteUser: token<DeleteUser>('DeleteUser'),
  setPassword: token<SetPassword>('SetPassword'),
  endAllSessions: token<EndAllSessions>('EndAllSessions'),
  listUserSessions: token<ListUserSessions>('ListUserSessions'),
  /** The app's languages: `resources/lang/<locale>.json` over the framework's `templates/lang/`. */
  translator: token<Translator>('Translator'),
  /** Validation outside HTTP (CSV rows, commands, jobs): the same rules and messages as `ctx.valid()`. */
  formValidation: token<FormValidation>('FormValidation'),
  /** Every outgoing HTTP call (providers); TestApp.fakeHttp swaps it. */
  httpClient: token<HttpClient>('HttpClient'),
  /** The request being answered, for listeners of the events its handler published. */
  requestOrigin: token<AsyncRequestOrigin>('RequestOrigin'),
  linkedAccounts: token<LinkedAccounts>('LinkedAccounts'),
  activityLog: token<ActivityLog>('ActivityLog'),
  oauthProviders: token<OAuthProviders>('OAuthProviders'),
  signInProtocol: token<SignInProtocol>('SignInProtocol'),
  startSignIn: token<StartSignIn>('StartSignIn'),
  completeSignIn: token<CompleteSignIn>('CompleteSignIn'),
  unlinkProvider: token<UnlinkProvider>('UnlinkProvider'),
  showLinkedAccounts: token<ShowLinkedAccounts>('ShowLinkedAccounts'),
  recordActivity: token<RecordActivity>('RecordActivity'),
  /** One row per scheduled task and slot, shared by every scheduler of the app. */
  scheduleRuns: token<ScheduleRuns>('ScheduleRuns'),
  webhookDeliveries: token<WebhookDeliveries>('WebhookDeliveries'),
  /** `webhooks.send(url, event, payload)`; working once the app called `outgoingWebhooks()`. */
  webhooks: token<OutgoingWebhooks>('Webhooks'),
  notificationStore: token<NotificationStore>('NotificationStore'),
  deliverNotification: token<DeliverNotification>('DeliverNotification'),
  /** `notifier.send(userId, Notification.with(data))`; bound by the Notifications module. */
  notifier: token<Notifier>('Notifier'),
  /** Where jobs wait (QUEUE_CONNECTION). */
  jobQueue: token<JobQueue>('JobQueue'),
  /** `dispatch(job)`, `dispatch(job).delay(…)`, `transaction(…)`. */
  jobs: token<JobDispatcher>('JobDispatcher'),
  transactions: token<Transactions>('Transactions'),
  jobBatches: token<JobBatches>('JobBatches'),
  /** The app's storage disks (FILESYSTEM_DISK, S3_*): `ctx.service(TOKENS.storage).disk('public')`. */
  storage: token<Storage>('Storage'),
} as const;

export type TokenType<K> = K extends Token<infer T> ? T : never;

/** Lets inversify accept our typed tokens. */
export function id<T>(t: Token<T>): ServiceIdentifier<T> {
  return t;
}
