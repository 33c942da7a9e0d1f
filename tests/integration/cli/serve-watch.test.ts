import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { TEST_APP_KEY, useTempDir } from '../../support/databases.js';
import { openEventStream } from '../http/dev-tools/sse.js';

const tempDir = useTempDir('fw-serve-watch-');

/** A free port of 127.0.0.1: the restarted server must come back where the browser looks. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** An app of its own (its entry point and a module of its code), on the framework's sources. */
function writeApp(root: string): void {
  const framework = pathToFileURL(join(FRAMEWORK_ROOT, 'composition', 'index.ts')).href;
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'watched-app', private: true, type: 'module' }));
  writeFileSync(
    join(root, 'app.ts'),
    [
      `import { createDefaultApp, Routes, text } from '${framework}';`,
      `import { answer } from './answer.ts';`,
      `const app = createDefaultApp({ root: process.cwd() }).module({ name: 'probe', routes: new Routes().get('/answer', () => text(answer())) });`,
      `const io = { out: (line: string) => process.stdout.write(line + '\\n'), err: (line: string) => process.stderr.write(line + '\\n') };`,
      `try { process.exitCode = await app.kernel().run(process.argv.slice(2), io); } finally { await app.close(); }`,
    ].join('\n'),
  );
  writeAnswer(root, 'the first answer');
}

function writeAnswer(root: string, words: string): void {
  writeFileSync(join(root, 'answer.ts'), `export function answer(): string {\n  return '${words}';\n}\n`);
}

describe('fwx serve --watch', () => {
  it('restarts the server when a TypeScript file changes: it answers the new code, and live-reload pages learn of the new boot', { timeout: 90_000 }, async () => {
    const root = tempDir();
    writeApp(root);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(FRAMEWORK_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href, 'app.ts', 'serve', '--watch'], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: String(port), APP_KEY: TEST_APP_KEY, APP_ENV: 'local', APP_DEBUG: 'true', LOG_LEVEL: 'error', DATABASE_URL: `sqlite:${join(root, 'app.sqlite')}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const servedTimes = async (times: number) => {
      const until = Date.now() + 40_000;
      while ((stdout.match(/listening on http:\/\//gu) ?? []).length < times) {
        if (Date.now() > until) throw new Error(`not served ${times} time(s); stdout: ${stdout} stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      await servedTimes(1);
      expect(await (await fetch(`${base}/answer`)).text()).toBe('the first answer');
      const before = await openEventStream(`${base}/_fw/live`);
      const firstBoot = /"boot":"([^"]+)"/u.exec(await before.waitFor(/event: hello\ndata: .+\n\n/u))?.[1];

      writeAnswer(root, 'the second answer');
      await servedTimes(2);
      // The old server ended its stream when it stopped (the browser reconnects to the new one).
      await before.ended;
      expect(await (await fetch(`${base}/answer`)).text()).toBe('the second answer');
      const after = await openEventStream(`${base}/_fw/live`);
      const secondBoot = /"boot":"([^"]+)"/u.exec(await after.waitFor(/event: hello\ndata: .+\n\n/u))?.[1];
      await after.close();
      expect(secondBoot).toBeDefined();
      expect(secondBoot).not.toBe(firstBoot);
      expect(stdout).toContain('Changed: answer.ts. Restarting…');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // No server is left behind on the port.
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    expect(stderr).toBe('');
  });
});
