import { spawn } from 'node:child_process';
import type { CliCommand } from '../command.js';

/** The database a shell opens: a SQLite file, or a PostgreSQL URL (its password kept out of argv). */
export type ShellTarget = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string };

/** A program to run with the terminal attached: its exit status, or `missing` when it is not installed. */
export type RunProgram = (program: string, args: readonly string[], env: Record<string, string>) => Promise<number | 'missing'>;

export interface DbShellDeps {
  target(): Promise<ShellTarget>;
  run?: RunProgram;
}

/** The program, arguments and extra environment of the shell for a target. */
export function shellCommand(target: ShellTarget): { program: string; args: string[]; env: Record<string, string> } {
  if (target.engine === 'sqlite') return { program: 'sqlite3', args: [target.path], env: {} };
  const url = new URL(target.url);
  const password = decodeURIComponent(url.password);
  url.password = '';
  // The password travels in the environment, not on the command line, where `ps` shows it.
  return { program: 'psql', args: [url.toString()], env: password === '' ? {} : { PGPASSWORD: password } };
}

const runWithTerminal: RunProgram = (program, args, env) =>
  new Promise((resolve, reject) => {
    const child = spawn(program, [...args], { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve('missing') : reject(error)));
    child.once('exit', (code) => resolve(code ?? 1));
  });

/** `db:shell`: the database's own shell (`sqlite3` or `psql`) with the app's connection settings. */
export function dbShellCommand(deps: DbShellDeps): CliCommand {
  return {
    name: 'db:shell',
    description: "Open the database's own shell (sqlite3 or psql) with the app's connection",
    async run(_input, io) {
      const { program, args, env } = shellCommand(await deps.target());
      const status = await (deps.run ?? runWithTerminal)(program, args, env);
      if (status === 'missing') {
        io.err(`${program} is not installed or not on PATH: install it (Debian: apt-get install ${program === 'psql' ? 'postgresql-client' : 'sqlite3'}) to use db:shell`);
        return 1;
      }
      return status;
    },
  };
}
