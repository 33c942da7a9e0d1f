import { FrameworkError } from '../../domain/shared/errors.js';

/** Where a command writes: standard output and standard error, or buffers in tests. */
export interface CommandIO {
  out(line: string): void;
  err(line: string): void;
  /**
   * Where a command reads what it asks for (a password). Absent when nothing can answer: a
   * command that needs it fails with one line instead of waiting forever.
   */
  input?: PromptInput;
}

export interface PromptOptions {
  /** Typed without echo (a password): never shown, never written anywhere. */
  secret?: boolean;
}

/**
 * The input side of a command: a terminal, a pipe, or lines an in-process caller (a test)
 * hands over. Answers are the line as typed, without its line ending.
 */
export interface PromptInput {
  /**
   * A person at a terminal. Worth asking twice for a new password, since a typo typed without
   * echo goes unseen; a pipe or a script gives its line once.
   */
  readonly interactive: boolean;
  /** Shows `question` (only to a person) and reads one line; null once the input has ended. */
  prompt(question: string, options?: PromptOptions): Promise<string | null>;
}

export interface CommandOption {
  /** cac's notation: `--email <email>`, `--step <n>`, `--verified`. */
  flags: string;
  description: string;
  /** How the value is read; `string` keeps digits as typed (a password `0012` stays `0012`). */
  type: 'string' | 'integer' | 'boolean';
  required?: boolean;
  default?: string | number | boolean;
}

export type OptionValue = string | number | boolean | undefined;

export interface CommandInput {
  args: string[];
  options: Record<string, OptionValue>;
}

/**
 * One command of the `fwx` tool. `run` returns the exit status (0 when omitted). It throws
 * `UsageError` for arguments it refuses (status 2, with the usage) and any other error for a
 * failure (status 1, one line).
 */
export interface CliCommand {
  name: string;
  /** Positional arguments in cac's notation: `<email>`, `[name]`. */
  args?: string;
  description: string;
  options?: CommandOption[];
  run(input: CommandInput, io: CommandIO): Promise<number | void>;
}

/** Wrong arguments: the kernel prints the message and the usage and exits with status 2. */
export class UsageError extends FrameworkError {
  constructor(message: string) {
    super('cli.usage', message);
  }
}
