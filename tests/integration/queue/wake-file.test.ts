import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileJobNotifications } from '../../../adapters/queue/file-job-notifications.js';

/** The SQLite queue's wake file (review: it followed links and was rewritten on every dispatch). */
describe('the wake file beside a SQLite database', () => {
  const dirs: string[] = [];
  const dir = (): string => {
    const made = mkdtempSync(join(tmpdir(), 'fw-wake-file-'));
    dirs.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it('is created owner-only and empty, and a dispatch changes its time, never its content', async () => {
    const path = join(dir(), 'app.sqlite-jobs-wake');
    const notifications = new FileJobNotifications(path);
    const heard = vi.fn();
    const watch = await notifications.listen(heard);
    try {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      notifications.announce();
      await vi.waitFor(() => expect(heard).toHaveBeenCalled(), { timeout: 20_000 });
      expect(readFileSync(path, 'utf8')).toBe('');
    } finally {
      await watch.close();
    }
  });

  it('never writes through a symbolic link planted at its path', async () => {
    const folder = dir();
    const victim = join(folder, 'precious.txt');
    writeFileSync(victim, 'keep me');
    const before = statSync(victim).mtimeMs;
    const path = join(folder, 'app.sqlite-jobs-wake');
    symlinkSync(victim, path);
    const errors: Error[] = [];
    new FileJobNotifications(path, (error) => errors.push(error)).announce();
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 20_000 });
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(statSync(victim).mtimeMs).toBe(before);
    await expect(new FileJobNotifications(path).listen(() => undefined)).rejects.toThrow(/ELOOP|symbolic/u);
  });
});
