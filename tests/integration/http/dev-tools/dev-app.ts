import { createDefaultApp, json, Routes, text, TOKENS } from '../../../../composition/index.js';
import type { App, AppOptions } from '../../../../composition/index.js';

/** An event the probe route publishes: the inspector lists it, without its secret field. */
export class ProbeFired {
  constructor(
    readonly reason: string,
    readonly password: string,
  ) {}
}

/** A value only ever bound to SQL: the inspector must not show it. */
export const BOUND_EMAIL = 'bound-value-never-shown@example.com';
export const SECRET_PASSWORD = 'hunter2-never-shown';
export const SECRET_API_TOKEN = 'api-token-never-shown';
/** Values the session and the path carry that are secrets though their names are not 'password'. */
export const SECRET_RESET_TOKEN = 'reset-token-never-shown';
export const SECRET_RECOVERY_CODE = 'AAAA-BBBB-never-shown';
export const SECRET_VERIFIER = 'pkce-verifier-never-shown';

/** The default app with routes that do what the inspector records: log, SQL, mail, events, session. */
export function devToolsApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/probe', async (ctx) => {
      ctx.log.info('probe ran', { note: 'visible note', password: SECRET_PASSWORD, token: ctx.session.token() });
      await ctx.service(TOKENS.userRepository).findByEmail(BOUND_EMAIL);
      await ctx.service(TOKENS.mailer).send({ to: { address: 'ada@example.com' }, subject: 'Probe mail', html: '<p>Hello</p>', text: 'Hello' });
      await ctx.service(TOKENS.eventBus).publish(new ProbeFired('probe reason', SECRET_PASSWORD));
      ctx.session.put('cart_items', 3);
      ctx.session.put('api_token', SECRET_API_TOKEN);
      return text('probed');
    })
    .name('probe')
    .post('/sign-up', (ctx) => {
      ctx.log.info('signing up', { input: ctx.body() });
      ctx.session.flashInput(ctx.body() as Record<string, unknown>);
      return json({ ok: true });
    })
    .get('/ping', () => text('pong'))
    .get('/reset/{token}', (ctx) => {
      ctx.session.flash('two_factor_recovery_codes', [SECRET_RECOVERY_CODE]);
      ctx.session.put('_oauth_pending', { state: 'state-never-shown', verifier: SECRET_VERIFIER, nonce: 'nonce-never-shown' });
      return text(`reset ${ctx.params.string('token').length}`);
    });
  return createDefaultApp(options).module({ name: 'dev-probe', routes });
}
