import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../adapters/cli/command.js';
import { oauthDevProviderCommand } from '../../../adapters/cli/commands/oauth-dev-provider.js';
import type { DevIdentityProviderOptions } from '../../../adapters/oauth/dev-identity-provider.js';

function run(options: Record<string, string | number | undefined>, startError?: Error) {
  const started: DevIdentityProviderOptions[] = [];
  let stopped = 0;
  const lines: string[] = [];
  const command = oauthDevProviderCommand(() => Promise.resolve('http://localhost:3000/'), {
    start: (given) => {
      started.push(given);
      if (startError) return Promise.reject(startError);
      return Promise.resolve({ issuer: `http://127.0.0.1:${given.port ?? 0}`, stop: () => Promise.resolve(void stopped++) });
    },
    untilStopped: () => Promise.resolve(),
  });
  const done = command.run({ args: [], options }, { out: (line) => lines.push(line), err: (line) => lines.push(line) });
  return { done, started, lines, stopped: () => stopped };
}

describe('fwx oauth:dev-provider', () => {
  it('starts one client for the app callback and prints the .env lines, with the secret it was given', async () => {
    const { done, started, lines, stopped } = run({ port: 9400 });
    await done;
    const secret = started[0]?.clients[0]?.clientSecret ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(started[0]).toEqual({ port: 9400, clients: [{ clientId: 'fw-dev', clientSecret: secret, redirectUris: ['http://localhost:3000/auth/provider_a/callback'] }] });
    expect(lines).toEqual(expect.arrayContaining(['PROVIDER_A_ISSUER=http://127.0.0.1:9400', 'PROVIDER_A_CLIENT_ID=fw-dev', `PROVIDER_A_CLIENT_SECRET=${secret}`]));
    expect(stopped()).toBe(1);
  });

  it('makes a new secret at each start unless --secret is given', async () => {
    const first = run({ port: 9400 });
    const second = run({ port: 9400 });
    const kept = run({ port: 9400, secret: 'a-secret-kept-in-env' });
    await Promise.all([first.done, second.done, kept.done]);
    expect(first.started[0]?.clients[0]?.clientSecret).not.toBe(second.started[0]?.clients[0]?.clientSecret);
    expect(kept.started[0]?.clients[0]?.clientSecret).toBe('a-secret-kept-in-env');
  });

  it.each<[string, Record<string, string | number>]>([
    ['a port out of range', { port: 70_000 }],
    ['a short secret', { port: 9400, secret: 'short' }],
  ])('refuses %s as a usage error', async (_what, options) => {
    await expect(run(options).done).rejects.toBeInstanceOf(UsageError);
  });

  it('says which port is taken', async () => {
    const taken = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    await expect(run({ port: 9400 }, taken).done).rejects.toThrow('Port 9400 on 127.0.0.1 is in use');
  });
});
