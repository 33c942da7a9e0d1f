/**
 * fw mounted in a plain `node:http` server. The host keeps the server and a route of its own
 * (`/host/status`); every other request goes to fw's kernel through its fetch handler
 * (`app.fetch`), which brings the sessions, the login, CSRF, rate limits and the social-login
 * routes: nothing of that is written here. Only fw's public API is used (`composition/index.ts`,
 * what `import … from 'fw'` gives); see docs/embedding.md.
 *
 * Run: `PROVIDER_B_CLIENT_ID=… PROVIDER_B_CLIENT_SECRET=… npx tsx examples/node-http-host/server.ts`.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { App, Auth, OAuth, ProviderB, Routes, json, nodeListener } from '../../composition/index.js';
import type { AppOptions, ProviderDefinition } from '../../composition/index.js';

export interface HostOptions {
  /** The social-login providers (`ProviderB.create(id, secret)`, an `OAuth2Provider` of your own…). */
  providers: ProviderDefinition[];
  /**
   * fw's settings (APP_URL, APP_KEY, DATABASE_URL, PROVIDER_*…), as `.env` would hold them;
   * `logger` and `httpClient` (every call to a provider; a `FakeHttpClient` in tests) as in `App.create`.
   */
  app: AppOptions;
}

export interface Host {
  server: Server;
  /** The fw app the server mounts: `app.listen(LoggedIn, …)`, `app.close()`. */
  app: App;
}

/**
 * The host: its own `/host/status`, and fw for everything else. fw's part is an ordinary app
 * (password accounts, social login, and a JSON `/me` of the host's choosing), run by the same
 * kernel as `fwx serve`, only behind `app.fetch` instead of hapi.
 */
export function createHost(options: HostOptions): Host {
  const oauth = options.providers.reduce((module, provider) => module.provider(provider), OAuth.create());
  const me = new Routes()
    .get('/me', (ctx) => {
      const user = ctx.requireUser();
      return json({ id: user.id, email: user.email, csrfToken: ctx.session.token() });
    })
    .name('me');
  const app = App.create(options.app)
    .module(Auth.create().account().redirectTo('/me'))
    .module(oauth)
    .module({ name: 'host', routes: me });

  const fw = nodeListener(app.fetch);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/host/status') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('the host answers this itself\n');
      return;
    }
    fw(request, response);
  });
  return { server, app };
}

// `npx tsx examples/node-http-host/server.ts`: SQLite in memory, provider_b from the environment.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const appUrl = process.env['APP_URL'] ?? 'http://localhost:3000';
  // provider_b ('GitHub') is on once PROVIDER_B_CLIENT_ID and PROVIDER_B_CLIENT_SECRET are set.
  const { server } = createHost({
    providers: [(settings) => ProviderB.fromConfig(settings)],
    app: {
      environment: { DATABASE_URL: 'sqlite::memory:', APP_KEY: `base64:${randomBytes(32).toString('base64')}`, ...process.env, APP_URL: appUrl },
      envFile: false,
    },
  });
  const { hostname, port } = new URL(appUrl);
  server.listen(Number(port || 3000), hostname, () => process.stdout.write(`Listening on ${appUrl}\n`));
}
