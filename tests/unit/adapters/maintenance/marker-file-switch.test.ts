import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MARKER_RECHECK_MS, MarkerFileSwitch } from '../../../../adapters/maintenance/marker-file-switch.js';
import { useTempDir } from '../../../support/databases.js';

const dir = useTempDir('fw-marker-');

describe('MarkerFileSwitch: one look at the marker per MARKER_RECHECK_MS', () => {
  const setup = () => {
    const root = dir();
    const path = join(root, 'framework', 'down');
    let now = 1_000;
    const clock = { advance: (ms: number) => (now += ms) };
    return { root, path, clock, server: new MarkerFileSwitch(path, () => now), shell: new MarkerFileSwitch(path, () => now) };
  };

  it('sees a marker another process writes or removes within the recheck interval, not on every request', () => {
    const { root, path, clock, server } = setup();
    expect(server.read()).toBeNull();
    mkdirSync(join(root, 'framework'), { recursive: true });
    writeFileSync(path, '{"retry":60}');
    // Behind its back (another process): the last look still answers…
    clock.advance(MARKER_RECHECK_MS - 1);
    expect(server.read()).toBeNull();
    // …until it is old.
    clock.advance(1);
    expect(server.read()).toBe('{"retry":60}');
    writeFileSync(path, '{"retry":120, "secret":"x"}');
    clock.advance(MARKER_RECHECK_MS);
    expect(server.read()).toBe('{"retry":120, "secret":"x"}');
    rmSync(path);
    expect(server.read()).toBe('{"retry":120, "secret":"x"}');
    clock.advance(MARKER_RECHECK_MS);
    expect(server.read()).toBeNull();
  });

  it('sees down and up made by any switch of this process at once', async () => {
    const { server, shell } = setup();
    expect(server.read()).toBeNull();
    await shell.down('{"retry":30}');
    expect(server.read()).toBe('{"retry":30}');
    expect(await shell.up()).toBe(true);
    expect(server.read()).toBeNull();
    expect(await shell.up()).toBe(false);
  });

  it('looks again when the clock goes backwards', () => {
    const { root, path, server } = setup();
    let now = 5_000;
    const backwards = new MarkerFileSwitch(path, () => now);
    expect(backwards.read()).toBeNull();
    mkdirSync(join(root, 'framework'), { recursive: true });
    writeFileSync(path, 'down');
    now = 4_000;
    expect(backwards.read()).toBe('down');
    expect(server.read()).toBe('down');
  });
});
