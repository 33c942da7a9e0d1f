/** Where a command writes: standard output and standard error, or buffers in tests. */
export interface CommandIO {
  out(line: string): void;
  err(line: string): void;
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
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
