import type { CliCommand } from '../command.js';

export interface ServeDeps {
  /** Migrates, starts the server, and resolves once it has stopped (a signal, or `stop`). */
  serve(announce: (line: string) => void): Promise<void>;
}

export function serveCommand(deps: ServeDeps): CliCommand {
  return {
    name: 'serve',
    description: 'Run the migrations, then serve the app on HOST:PORT until stopped',
    async run(_input, io) {
      await deps.serve((line) => io.out(line));
    },
  };
}
