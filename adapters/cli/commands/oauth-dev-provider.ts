import { randomBytes } from 'node:crypto';
import type { DevIdentityProvider, DevIdentityProviderOptions } from '../../oauth/dev-identity-provider.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface OAuthDevProviderDeps {
  /** `startDevIdentityProvider` from adapters/oauth, handed over by composition/. */
  start(options: DevIdentityProviderOptions): Promise<DevIdentityProvider>;
  /** Resolves when the command should stop; default: SIGINT or SIGTERM. */
  untilStopped?(): Promise<void>;
}

export const DEV_PROVIDER_PORT = 9400;
export const DEV_CLIENT_ID = 'fw-dev';

/**
 * `fwx oauth:dev-provider`: a local OpenID provider to sign in with as `provider_a` without a
 * Google account. Any login name is let in; one starting with 'unverified' has an address the
 * provider did not verify, to try that refusal. Prints the `.env` lines that point the app at it.
 */
export function oauthDevProviderCommand(appUrl: () => Promise<string>, deps: OAuthDevProviderDeps): CliCommand {
  return {
    name: 'oauth:dev-provider',
    description: 'Run a local OpenID provider for provider_a (any login name signs in) until stopped',
    options: [
      { flags: '--port <n>', description: 'Port on 127.0.0.1', type: 'integer', default: DEV_PROVIDER_PORT },
      { flags: '--secret <secret>', description: 'Client secret to use (default: a new random one each start)', type: 'string' },
    ],
    async run({ options }, io) {
      const port = options['port'] ?? DEV_PROVIDER_PORT;
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError('--port must be a whole number from 0 to 65535');
      const given = options['secret'];
      if (given !== undefined && (typeof given !== 'string' || !/^[\u0021-\u007e]{16,}$/u.test(given))) {
        throw new UsageError('--secret must be at least 16 printable characters without spaces');
      }
      const secret = given ?? randomBytes(32).toString('base64url');
      const redirectUri = `${(await appUrl()).replace(/\/+$/u, '')}/auth/provider_a/callback`;
      let provider: DevIdentityProvider;
      try {
        provider = await deps.start({ port, clients: [{ clientId: DEV_CLIENT_ID, clientSecret: secret, redirectUris: [redirectUri] }] });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'EADDRINUSE') throw new FrameworkError('cli.port-in-use', `Port ${port} on 127.0.0.1 is in use: pick another with --port`, { cause: error });
        throw error;
      }
      io.out(`OpenID provider running at ${provider.issuer} (callback allowed: ${redirectUri}).`);
      io.out('Put these lines in .env, then restart the app:');
      io.out('');
      io.out(`PROVIDER_A_ISSUER=${provider.issuer}`);
      io.out(`PROVIDER_A_CLIENT_ID=${DEV_CLIENT_ID}`);
      io.out(`PROVIDER_A_CLIENT_SECRET=${secret}`);
      io.out('');
      io.out("Any login name signs in (alice → alice@example.test); names starting with 'unverified' get an unverified address.");
      if (given === undefined) io.out('The secret is new at each start; pass --secret to keep the one in .env.');
      io.out('Press Ctrl+C to stop.');
      try {
        await (deps.untilStopped ?? untilSignal)();
      } finally {
        await provider.stop();
      }
      io.out('Stopped.');
    },
  };
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
