import type { PromptInput } from './command.js';

/**
 * Answers given in advance, one line per prompt and then the end of input: how an in-process
 * caller (`app.kernel().call(name, args, { input })`, a test) types at a command. `interactive`
 * plays a person at a terminal, for the paths that ask twice.
 */
export function scriptedInput(lines: readonly string[], options: { interactive?: boolean } = {}): PromptInput {
  const answers = [...lines];
  return {
    interactive: options.interactive ?? false,
    prompt: () => Promise.resolve(answers.shift() ?? null),
  };
}
