import { describe, expect, it } from 'vitest';
import { dbShellCommand, shellCommand } from '../../../adapters/cli/commands/db-shell.js';
import type { RunProgram } from '../../../adapters/cli/commands/db-shell.js';

function io(): { lines: string[]; errors: string[]; out: (line: string) => void; err: (line: string) => void } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

describe('db:shell', () => {
  it('opens sqlite3 on the file, and psql with the password in the environment, not on the command line', () => {
    expect(shellCommand({ engine: 'sqlite', path: '/app/storage/db.sqlite' })).toEqual({ program: 'sqlite3', args: ['/app/storage/db.sqlite'], env: {} });
    expect(shellCommand({ engine: 'postgres', url: 'postgres://app:s%3Ecret@127.0.0.1:5432/shop' })).toEqual({ program: 'psql', args: ['postgres://app@127.0.0.1:5432/shop'], env: { PGPASSWORD: 's>cret' } });
  });

  it('passes the shell its exit status, and says how to install a missing binary', async () => {
    const calls: string[] = [];
    const run: RunProgram = (program, args) => {
      calls.push(`${program} ${args.join(' ')}`);
      return Promise.resolve(program === 'psql' ? 'missing' : 3);
    };
    const sqlite = dbShellCommand({ target: () => Promise.resolve({ engine: 'sqlite', path: 'db.sqlite' }), run });
    expect(await sqlite.run({ args: [], options: {} }, io())).toBe(3);
    const out = io();
    const postgres = dbShellCommand({ target: () => Promise.resolve({ engine: 'postgres', url: 'postgres://u@h/d' }), run });
    expect(await postgres.run({ args: [], options: {} }, out)).toBe(1);
    expect(out.errors).toEqual(['psql is not installed or not on PATH: install it (Debian: apt-get install postgresql-client) to use db:shell']);
    expect(calls).toEqual(['sqlite3 db.sqlite', 'psql postgres://u@h/d']);
  });
});
