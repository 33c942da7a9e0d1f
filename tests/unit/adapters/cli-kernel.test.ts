import { describe, expect, it } from 'vitest';
import type { CliCommand, CommandInput } from '../../../adapters/cli/command.js';
import { UsageError } from '../../../adapters/cli/command.js';
import { CliKernel } from '../../../adapters/cli/kernel.js';

function harness() {
  const received: CommandInput[] = [];
  const commands: CliCommand[] = [
    {
      name: 'greet',
      args: '<name>',
      description: 'Say hello',
      options: [
        { flags: '--times <n>', description: 'How often', type: 'integer', default: 1 },
        { flags: '--secret <text>', description: 'Kept as typed', type: 'string' },
        { flags: '--loud', description: 'Shout', type: 'boolean' },
      ],
      run(input, io) {
        received.push(input);
        io.out(`hello ${input.args[0] ?? ''}`);
        return Promise.resolve();
      },
    },
    { name: 'fail', description: 'Always fails', run: () => Promise.reject(new Error('disk full\n    at stack frame')) },
    { name: 'refuse', description: 'Refuses its input', run: () => Promise.reject(new UsageError('--x is wrong')) },
  ];
  const kernel = new CliKernel('fwx', commands);
  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await kernel.run(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }
  return { run, received };
}

describe('the fwx kernel', () => {
  it('passes arguments and typed options, applying defaults', async () => {
    const { run, received } = harness();
    expect(await run('greet', 'Ada', '--loud')).toEqual({ code: 0, stdout: 'hello Ada', stderr: '' });
    expect(received[0]).toEqual({ args: ['Ada'], options: { times: 1, secret: undefined, loud: true } });
  });

  it.each([
    ['--secret', '0012'],
    ['--secret=0012', undefined],
    ['--secret', '1e3'],
    ['--secret', '0x10'],
    ['--secret', '  spaced  '],
  ])('keeps string values exactly as typed: %s %s', async (flag, value) => {
    const { run, received } = harness();
    const argv = value === undefined ? ['greet', '007', flag] : ['greet', '007', flag, value];
    expect((await run(...argv)).code).toBe(0);
    const expected = value ?? flag.slice('--secret='.length);
    expect(received[0]?.options['secret']).toBe(expected);
    expect(received[0]?.args).toEqual(['007']);
  });

  it.each([
    [['greet'], 'missing required args for command `greet <name>`'],
    [['greet', 'Ada', '--nope'], 'Unknown option `--nope`'],
    [['greet', 'Ada', 'Bob'], 'Unused args: `Bob`'],
    [['greet', 'Ada', '--times', 'many'], '--times must be a whole number, got "many"'],
    [['greet', 'Ada', '--secret'], '--secret needs a value'],
    [['refuse'], '--x is wrong'],
  ])('refuses %j with status 2, the problem and the usage', async (argv, problem) => {
    const { run } = harness();
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [first, blank, usage] = result.stderr.split('\n');
    expect(first).toBe(`Error: ${problem}`);
    expect(blank).toBe('');
    expect(usage).toMatch(/^Usage: fwx (greet <name> \[options\]|refuse)$/u);
  });

  it('refuses an unknown command with status 2 and the list of commands', async () => {
    const result = await harness().run('gret', 'Ada');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: Unknown command "gret"\n\nUsage: fwx <command> \[options\]\n\nCommands:\n {2}greet <name> +Say hello/u);
  });

  it('prints one line and status 1 when a command fails, without a stack trace', async () => {
    expect(await harness().run('fail')).toEqual({ code: 1, stdout: '', stderr: 'Error: disk full' });
  });

  it('lists the commands with --help or no arguments, and one command\'s options with <command> --help', async () => {
    const { run } = harness();
    for (const argv of [['--help'], []]) {
      const overview = await run(...argv);
      expect(overview.code).toBe(0);
      expect(overview.stdout).toContain('Commands:');
      expect(overview.stdout).toMatch(/fail +Always fails/u);
    }
    const help = await run('greet', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: fwx greet <name> [options]');
    expect(help.stdout).toMatch(/--times <n> +How often \(default: 1\)/u);
    expect(help.stdout).toMatch(/-h, --help +Show this help/u);
  });

  it('refuses two commands with one name when it is built', () => {
    const command: CliCommand = { name: 'twice', description: '', run: () => Promise.resolve() };
    expect(() => new CliKernel('fwx', [command, command])).toThrow(TypeError);
  });
});
