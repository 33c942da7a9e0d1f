/**
 * The `fwx` command line of the default app. An app of your own has the same entry point
 * with its own `App`: `await app.kernel().run(process.argv.slice(2), io)`.
 */
import { terminalInput } from '../adapters/cli/terminal-input.js';
import { createDefaultApp } from '../composition/default-app.js';

const app = createDefaultApp();
const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  // Read only when a command asks (user:password): the terminal without echo, or a pipe.
  input: terminalInput(),
};
try {
  process.exitCode = await app.kernel().run(process.argv.slice(2), io);
} finally {
  await app.close();
}
