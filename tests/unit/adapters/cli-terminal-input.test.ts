import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { scriptedInput } from '../../../adapters/cli/scripted-input.js';
import { MAX_LINE_LENGTH, terminalInput } from '../../../adapters/cli/terminal-input.js';

/** What was written to the terminal: the questions, and anything echoed. */
function screen() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** A stream the test writes into, standing for standard input. */
type FakeStdin = PassThrough & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };

/** A stream that says it is a terminal and records its raw-mode switches. */
function fakeTerminal() {
  const modes: boolean[] = [];
  const stream = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(raw: boolean) {
      modes.push(raw);
      return stream;
    },
  }) as FakeStdin;
  return { stream, modes };
}

/** Sends keys once the prompt is listening, as a person types after seeing the question. */
function typeLater(stream: FakeStdin, ...chunks: string[]): void {
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
  });
}

describe('terminalInput at a terminal', () => {
  it('reads a secret in raw mode without echoing a single character, and leaves raw mode', async () => {
    const { stream, modes } = fakeTerminal();
    const out = screen();
    const input = terminalInput(stream, out.stream);
    expect(input.interactive).toBe(true);
    typeLater(stream, 'hunter2 ', 'x\u007f', 'ok\r');
    expect(await input.prompt('Password: ', { secret: true })).toBe('hunter2 ok');
    expect(out.text()).toBe('Password: \n');
    expect(modes).toEqual([true, false]);
  });

  it('echoes an ordinary answer, with Backspace rubbing out', async () => {
    const { stream } = fakeTerminal();
    const out = screen();
    typeLater(stream, 'adx\u007fa\r');
    expect(await terminalInput(stream, out.stream).prompt('Name? ')).toBe('ada');
    expect(out.text()).toBe('Name? adx\b \ba\n');
  });

  it('drops arrow keys and Ctrl+U clears; multi-byte characters count as one', async () => {
    const { stream } = fakeTerminal();
    typeLater(stream, 'wrong\u0015pässwörd\u001b[D\u001bOC🔑\u007f\n');
    expect(await terminalInput(stream, screen().stream).prompt('? ', { secret: true })).toBe('pässwörd');
  });

  it('cancels on Ctrl+C, and gives the end of input for Ctrl+D on an empty line', async () => {
    const cancelled = fakeTerminal();
    typeLater(cancelled.stream, 'abc\u0003');
    await expect(terminalInput(cancelled.stream, screen().stream).prompt('? ', { secret: true })).rejects.toThrow('Cancelled at the prompt');
    expect(cancelled.modes).toEqual([true, false]);

    const ended = fakeTerminal();
    typeLater(ended.stream, '\u0004');
    expect(await terminalInput(ended.stream, screen().stream).prompt('? ', { secret: true })).toBeNull();
  });
});

describe('terminalInput from a pipe', () => {
  it('asks no questions and gives one line per prompt, then null', async () => {
    const stream = new PassThrough();
    const out = screen();
    const input = terminalInput(stream, out.stream);
    expect(input.interactive).toBe(false);
    stream.end('first line\r\nsecond  \nlast without newline');
    expect(await input.prompt('? ', { secret: true })).toBe('first line');
    expect(await input.prompt('? ')).toBe('second  ');
    expect(await input.prompt('? ')).toBe('last without newline');
    expect(await input.prompt('? ')).toBeNull();
    expect(out.text()).toBe('');
  });

  it('waits for a line that arrives in pieces', async () => {
    const stream = new PassThrough();
    const input = terminalInput(stream, screen().stream);
    setImmediate(() => {
      stream.write('par');
      setImmediate(() => stream.write('ts\n'));
    });
    expect(await input.prompt('? ')).toBe('parts');
  });

  it('refuses a line too long to be an answer rather than holding it all', async () => {
    const stream = new PassThrough();
    stream.write('x'.repeat(MAX_LINE_LENGTH + 1));
    await expect(terminalInput(stream, screen().stream).prompt('? ')).rejects.toThrow(/longer than/u);
  });
});

describe('scriptedInput', () => {
  it('answers prompts in order, then says the input ended', async () => {
    const input = scriptedInput(['one', 'two'], { interactive: true });
    expect(input.interactive).toBe(true);
    expect([await input.prompt('?'), await input.prompt('?'), await input.prompt('?')]).toEqual(['one', 'two', null]);
  });
});
