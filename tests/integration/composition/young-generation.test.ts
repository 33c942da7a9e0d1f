import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { useTempDir } from '../../support/databases.js';
import { productionLikeEnvironment } from '../../support/server-process.js';

/**
 * Idle memory: loading and booting fw grows V8's young generation to its maximum (2 × 16 MB on
 * Node 20 and 22, 2 × 64 MB on 24), a third of an idle app's RSS. fw gives it back at the first
 * quiet moment (once) and lets it grow to 2 × 4 MB at most, unless YOUNG_GENERATION=grow or a node flag says
 * otherwise (composition/young-generation.ts).
 */

const FIXTURE = join(FRAMEWORK_ROOT, 'tests', 'support', 'fixtures', 'young-generation.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MB = 1024 * 1024;
const dir = useTempDir('fw-young-');

interface Sizes {
  booted: number;
  quiet: number;
  loaded: number;
  /** After a pause that followed the load. */
  paused: number;
  /** The largest it was in a second burst after that pause. */
  again: number;
}

/** The young generation's size after booting the default app, and after `seconds` without a request. */
function youngGeneration(name: string, settings: Record<string, string>, nodeFlags: string[] = []): Promise<Sizes> {
  const root = join(dir(), name);
  mkdirSync(root, { recursive: true });
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeFlags, '--import', TSX, FIXTURE, root, '12'],
      {
        env: productionLikeEnvironment(join(dir(), `${name}.sqlite`), settings),
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`the fixture failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Sizes);
      },
    );
  });
}

describe("V8's young generation", () => {
  it('grown by the start, is given back once the app is quiet, and grows to 2 × 4 MB at most under load', async () => {
    const sizes = await youngGeneration('small', {});
    // The start grows it (else this test proves nothing), and a quiet moment gives it back.
    expect(sizes.booted).toBeGreaterThan(8 * MB);
    expect(sizes.quiet).toBeLessThanOrEqual(4 * MB);
    expect(sizes.loaded).toBeLessThanOrEqual(8 * MB);
    // Given back once: a pause after the load keeps it for the next burst (giving it back at
    // every quiet moment made each burst start on 1 MB semi-spaces).
    expect(sizes.paused).toBeGreaterThan(4 * MB);
    // V8 shrinks it by itself at the next burst; the burst grows it back to the cap, never past
    // it (a factor left at 1 once kept it at 1 MB semi-spaces for good).
    expect(sizes.again).toBeGreaterThan(4 * MB);
    expect(sizes.again).toBeLessThanOrEqual(8 * MB);
  }, 150_000);

  it('YOUNG_GENERATION=grow, or a semi-space flag given to node, keeps V8 its own growth', async () => {
    const [grow, flagged] = await Promise.all([youngGeneration('grow', { YOUNG_GENERATION: 'grow' }), youngGeneration('flagged', {}, ['--semi-space-growth-factor=2'])]);
    expect(grow.quiet).toBeGreaterThan(8 * MB);
    expect(flagged.quiet).toBeGreaterThan(8 * MB);
  }, 150_000);
});
