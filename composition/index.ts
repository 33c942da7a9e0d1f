/**
 * The framework's public API: what an app imports to build itself.
 *
 *     import { App, Routes, View, Redirect } from 'fw';
 *     const app = App.create().module({ name: 'shop', routes: new Routes().get('/', () => View.make('home.html')) });
 */
export { App, AppKernel } from './app.js';
export type { AppOptions, RunningApp, CommandOutcome, CallOptions } from './app.js';
export { terminalInput } from '../adapters/cli/terminal-input.js';
export type { Module, Seeder } from './module.js';
export { TestApp } from './testing.js';
export { createDefaultApp } from './default-app.js';
export { ConfigError } from './config.js';
export type { Config } from './config.js';
export { TOKENS } from './tokens.js';
export { AppRoutes as Routes } from './routes.js';
export { View, Redirect, Download, Toast, HxHeader, Header, combine, json, text, html, status } from '../adapters/http/replies.js';
export type { Reply } from '../adapters/http/replies.js';
export { SetCookie } from '../adapters/http/cookies.js';
export { abort, abortIf, abortUnless, HttpAbort } from '../adapters/http/http-error.js';
export { contextKey } from '../adapters/http/request-context.js';
export type { RequestContext, Handler, Middleware, ContextKey } from '../adapters/http/request-context.js';
export { formSchema } from '../adapters/http/validation/form-schema.js';
export type { FormSchema } from '../adapters/http/validation/form-schema.js';
export { checkbox, integer, number, text as textField, optionalText, list, oneOf } from '../adapters/http/validation/fields.js';
export { object } from 'superstruct';
export { Limit } from '../domain/security/rate-limit.js';
export type { LimiterRule, LimiterRequest } from '../adapters/http/hapi/stages/throttle.js';
export { AuthUser } from '../adapters/http/auth-user.js';
export type { SessionAuth } from '../adapters/http/request-context.js';
export type { TokenVerifier, VerifiedToken } from '../ports/token-verifier.js';
export type { AccessPolicy } from '../ports/access-policy.js';
export { InMemoryTokenVerifier } from '../adapters/persistence/memory/in-memory-token-verifier.js';
export { SqlTokenVerifier } from '../adapters/persistence/mikro-orm/sql-token-verifier.js';
export type { Gate } from '../adapters/access/registered-access-policy.js';
export { model } from '../adapters/http/model.js';
export type { Model, ModelOptions } from '../adapters/http/model.js';
export { hmacSha256Webhook } from '../adapters/http/webhooks.js';
export type { HmacWebhookOptions, WebhookRequest, WebhookVerifier } from '../adapters/http/webhooks.js';
export { Auth } from './auth.js';
export type { Registration } from './auth.js';
export type { AccountSection } from '../adapters/http/auth/account-sections.js';
export { Registered, LoggedIn, LoggedOut, PasswordReset, Verified } from '../domain/auth/events.js';
