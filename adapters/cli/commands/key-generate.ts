import type { CliCommand } from '../command.js';

export interface KeyGenerateDeps {
  generateKey(): string;
  /** Writes APP_KEY into `.env` (made from `.env.example` when missing); returns the file's path. */
  writeKey(key: string): Promise<string>;
}

export function keyGenerateCommand(deps: KeyGenerateDeps): CliCommand {
  return {
    name: 'key:generate',
    description: 'Write a new APP_KEY into .env (made from .env.example if missing)',
    options: [{ flags: '--show', description: 'Only print a new key; change no file', type: 'boolean' }],
    async run({ options }, io) {
      const key = deps.generateKey();
      if (options['show'] === true) {
        io.out(key);
        return;
      }
      const path = await deps.writeKey(key);
      io.out(`APP_KEY written to ${path}. Sessions, encrypted cookies and signed links made with the old key no longer work.`);
    },
  };
}
