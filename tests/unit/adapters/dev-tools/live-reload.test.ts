import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveReload } from '../../../../adapters/http/dev-tools/live-reload.js';
import { MemoryLogger } from '../../../../adapters/log/memory-logger.js';
import { useTempDir } from '../../../support/databases.js';

const dir = useTempDir('fw-live-unit-');

/** Everything written to a stream so far. */
function collect(stream: NodeJS.ReadableStream): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the live-reload hub', () => {
  let live: LiveReload | null = null;
  afterEach(async () => live?.close());

  it('sends heartbeats to idle streams, one reload for a burst of changes, and ends every stream on close', async () => {
    const folder = join(dir(), 'views');
    mkdirSync(folder, { recursive: true });
    live = new LiveReload({ folders: [folder], logger: new MemoryLogger([]), heartbeatMs: 50, settleMs: 150 });
    await live.start();
    const stream = live.connect();
    const text = collect(stream);
    const ended = new Promise<void>((resolve) => stream.on('end', () => resolve()));
    await until(() => text().includes(': heartbeat\n\n'));
    expect(text().startsWith(`retry: 500\nevent: hello\ndata: {"boot":"${live.boot}"}\n\n`)).toBe(true);

    writeFileSync(join(folder, 'a.html'), 'a');
    writeFileSync(join(folder, 'b.html'), 'b');
    await until(() => text().includes('event: reload'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reloads = text().match(/event: reload\ndata: (.*)\n\n/gu) ?? [];
    expect(reloads).toHaveLength(1);
    expect(reloads[0]).toContain('a.html');
    expect(reloads[0]).toContain('b.html');

    expect(live.listeners).toBe(1);
    await live.close();
    await ended;
    expect(live.listeners).toBe(0);
  });

  it('forgets a stream its page closed', () => {
    live = new LiveReload({ folders: [], logger: new MemoryLogger([]) });
    const stream = live.connect();
    expect(live.listeners).toBe(1);
    stream.destroy();
    return until(() => live?.listeners === 0);
  });
});
