import { cac } from 'cac';
import type { CAC, Command } from 'cac';
import { UsageError } from './command.js';
import type { CliCommand, CommandInput, CommandIO, OptionValue } from './command.js';
import { MisuseError } from '../../domain/shared/errors.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * cac (through mri) turns every numeric-looking token into a number, so `--password 0012`
 * would arrive as 12. Each non-flag token is tagged with this character before parsing, which
 * keeps it a string, and untagged afterwards.
 */
const KEEP_AS_TYPED = '\u001f';

/**
 * The `fwx` command line: parses with cac, runs one command, and answers with an exit status.
 * It never exits the process itself, so tests call commands in-process and read their output.
 */
export class CliKernel {
  constructor(
    private readonly bin: string,
    private readonly commands: readonly CliCommand[],
  ) {
    const names = new Set<string>();
    for (const command of commands) {
      if (names.has(command.name)) throw new MisuseError('cli.command-twice', `Two commands are named "${command.name}"`);
      names.add(command.name);
    }
  }

  /** Runs `fwx <argv...>` (argv without the node and script paths). */
  async run(argv: readonly string[], io: CommandIO): Promise<number> {
    const cli = this.build();
    let parsed: { args: readonly string[]; options: Record<string, unknown> };
    try {
      // The first token names the command and stays as it is; everything after it keeps its spelling.
      parsed = cli.parse(['node', this.bin, ...argv.slice(0, 1), ...argv.slice(1).map(tag)], { run: false });
    } catch (error) {
      return this.usageFailure(io, cli, cli.matchedCommand, error);
    }
    const matched = cli.matchedCommand;
    const definition = this.commands.find((command) => command.name === matched?.name);
    if (parsed.options['help'] === true || argv.length === 0) {
      io.out(definition === undefined || matched === undefined ? this.overview(cli) : this.usage(matched));
      return EXIT_OK;
    }
    if (definition === undefined || matched === undefined) {
      const name = untag(String(parsed.args[0] ?? ''));
      return this.usageFailure(io, cli, undefined, new UsageError(`Unknown command "${name}"`));
    }
    let input: CommandInput;
    try {
      matched.checkUnknownOptions();
      matched.checkRequiredArgs();
      matched.checkUnusedArgs();
      input = this.readInput(definition, parsed);
    } catch (error) {
      return this.usageFailure(io, cli, matched, error);
    }
    try {
      return (await definition.run(input, io)) ?? EXIT_OK;
    } catch (error) {
      if (error instanceof UsageError) return this.usageFailure(io, cli, matched, error);
      io.err(`Error: ${oneLine(error)}`);
      return EXIT_FAILURE;
    }
  }

  /** The spec's `kernel().call(command, args)`: runs one command by name. */
  call(name: string, args: readonly string[], io: CommandIO): Promise<number> {
    return this.run([name, ...args], io);
  }

  private build(): CAC {
    const cli = cac(this.bin);
    cli.option('-h, --help', 'Show the commands, or the options of one command');
    for (const definition of this.commands) {
      const command = cli.command(`${definition.name}${definition.args === undefined ? '' : ` ${definition.args}`}`, definition.description);
      for (const option of definition.options ?? []) {
        // Defaults are applied after parsing (see readInput): cac would hand them over untyped.
        const fallback = option.default === undefined ? '' : ` (default: ${String(option.default)})`;
        command.option(option.flags, `${option.description}${fallback}`);
      }
    }
    return cli;
  }

  private readInput(definition: CliCommand, parsed: { args: readonly string[]; options: Record<string, unknown> }): CommandInput {
    const options: Record<string, OptionValue> = {};
    for (const option of definition.options ?? []) {
      const name = optionName(option.flags);
      const raw = parsed.options[name];
      const value = Array.isArray(raw) ? (raw.at(-1) as unknown) : raw;
      if (value === undefined) {
        if (option.required === true) throw new UsageError(`Missing required option --${kebab(name)}`);
        options[name] = option.default;
        continue;
      }
      options[name] = readOption(option.type, kebab(name), value);
    }
    return { args: parsed.args.map((arg) => untag(String(arg))), options };
  }

  private usageFailure(io: CommandIO, cli: CAC, command: Command | undefined, error: unknown): number {
    io.err(`Error: ${untag(oneLine(error))}`);
    io.err('');
    io.err(command === undefined ? this.overview(cli) : this.usage(command));
    return EXIT_USAGE;
  }

  private overview(cli: CAC): string {
    const width = Math.max(...cli.commands.map((command) => command.rawName.length));
    return [
      `Usage: ${this.bin} <command> [options]`,
      '',
      'Commands:',
      ...cli.commands.map((command) => `  ${command.rawName.padEnd(width)}  ${command.description}`),
      '',
      `Run "${this.bin} <command> --help" for the options of one command.`,
    ].join('\n');
  }

  private usage(command: Command): string {
    const options = command.options.map((option) => [option.rawName, option.description] as const);
    options.push(['-h, --help', 'Show this help']);
    const width = Math.max(...options.map(([flags]) => flags.length));
    return [
      `Usage: ${this.bin} ${command.rawName}${command.options.length > 0 ? ' [options]' : ''}`,
      '',
      command.description,
      '',
      'Options:',
      ...options.map(([flags, text]) => `  ${flags.padEnd(width)}  ${text}`),
    ].join('\n');
  }
}

function readOption(type: 'string' | 'integer' | 'boolean', flag: string, value: unknown): OptionValue {
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    throw new UsageError(`--${flag} takes no value`);
  }
  if (typeof value !== 'string') throw new UsageError(`--${flag} needs a value`);
  const text = untag(value);
  if (type === 'string') return text;
  if (!/^\d+$/u.test(text)) throw new UsageError(`--${flag} must be a whole number, got "${text}"`);
  return Number(text);
}

function tag(token: string): string {
  if (!token.startsWith('-')) return `${KEEP_AS_TYPED}${token}`;
  const equals = token.indexOf('=');
  return token.startsWith('--') && equals > 0 ? `${token.slice(0, equals + 1)}${KEEP_AS_TYPED}${token.slice(equals + 1)}` : token;
}

function untag(text: string): string {
  return text.replaceAll(KEEP_AS_TYPED, '');
}

/** `--email <email>` → `email`; `--dry-run` → `dryRun` (cac camel-cases option names). */
function optionName(flags: string): string {
  const long = flags.split(/[\s,]+/u).find((part) => part.startsWith('--')) ?? flags;
  return long.replace(/^--/u, '').replace(/-([a-z])/gu, (_, letter: string) => letter.toUpperCase());
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/gu, (letter) => `-${letter.toLowerCase()}`);
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
