import type { CliCommand } from '../command.js';

export interface ServeDeps {
  /** Migrates, starts the server, and resolves once it has stopped (a signal, or `stop`). */
  serve(announce: (line: string) => void): Promise<void>;
  /** `--watch`: serves from a child process, started anew when the app's TypeScript changes; resolves once stopped. */
  watch(announce: (line: string) => void): Promise<void>;
}

export function serveCommand(deps: ServeDeps): CliCommand {
  return {
    name: 'serve',
    description: 'Run the migrations, then serve the app on HOST:PORT until stopped',
    options: [{ flags: '--watch', description: 'Restart the server when the app\'s TypeScript changes (development)', type: 'boolean' }],
    async run(input, io) {
      if (input.options['watch'] === true) await deps.watch((line) => io.out(line));
      else await deps.serve((line) => io.out(line));
    },
  };
}
