import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { PromptInput, PromptOptions } from './command.js';
import { FrameworkError } from '../../domain/shared/errors.js';

/** `process.stdin` as far as prompting needs it; a test hands in a stream of its own. */
export type InputStream = Readable & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };

/**
 * A line longer than this is refused rather than buffered: no answer a command asks for comes
 * near it (a password stops at 4096 characters), and a mistakenly piped file should not be
 * held in memory whole.
 */
export const MAX_LINE_LENGTH = 65_536;

/**
 * The input side of `fwx`: at a terminal, the question goes to standard error (standard output
 * stays the command's result) and a secret is read in raw mode, so no character is echoed;
 * from a pipe, lines are read as they come, without questions, so scripts can feed answers.
 */
export function terminalInput(stdin?: InputStream, questions?: Writable): PromptInput {
  // `process.stdin` is only touched once a command asks: a server started with standard input
  // closed or detached never opens it. Whether it is a terminal is known without opening it.
  const interactive = stdin === undefined ? isatty(0) : stdin.isTTY === true && typeof stdin.setRawMode === 'function';
  let lines: PipedLines | null = null;
  return {
    interactive,
    prompt(question: string, options: PromptOptions = {}) {
      const input: InputStream = stdin ?? process.stdin;
      if (!interactive) return (lines ??= new PipedLines(input)).next();
      const setRawMode = (raw: boolean) => input.setRawMode?.(raw);
      return readKeys(input, setRawMode, questions ?? process.stderr, question, options.secret === true);
    },
  };
}

/** Lines of a pipe or file, read only while a prompt waits, so an unused stdin never holds the process open. */
class PipedLines {
  private buffer = '';
  private ended = false;
  private failure: Error | null = null;
  private listening = false;
  private wake: (() => void) | null = null;

  constructor(private readonly stream: Readable) {}

  async next(): Promise<string | null> {
    this.listen();
    for (;;) {
      if (this.failure !== null) throw this.failure;
      const newline = this.buffer.indexOf('\n');
      if (newline >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        this.stream.pause();
        return line.endsWith('\r') ? line.slice(0, -1) : line;
      }
      if (this.buffer.length > MAX_LINE_LENGTH) {
        this.stream.pause();
        throw new FrameworkError('cli.line-too-long', `A line of input is longer than ${MAX_LINE_LENGTH} characters`);
      }
      if (this.ended) {
        // A last line without its newline (`printf secret | fwx …`) still counts.
        const rest = this.buffer;
        this.buffer = '';
        return rest === '' ? null : rest;
      }
      this.stream.resume();
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.stream.setEncoding('utf8');
    const wake = () => {
      const resolve = this.wake;
      this.wake = null;
      resolve?.();
    };
    this.stream.on('data', (chunk: string) => {
      this.buffer += chunk;
      wake();
    });
    this.stream.once('end', () => {
      this.ended = true;
      wake();
    });
    this.stream.once('error', (error: Error) => {
      this.failure = error;
      wake();
    });
  }
}

/**
 * One line typed at a terminal in raw mode: Enter ends it, Backspace and Ctrl+U edit it,
 * Ctrl+D on an empty line is the end of input, Ctrl+C cancels (raw mode turns it into a key, so
 * it is handled here). Escape sequences (arrow keys) are dropped. A secret is not echoed at all,
 * not even as asterisks: its length is a clue too.
 */
function readKeys(stream: InputStream, setRawMode: (raw: boolean) => unknown, out: Writable, question: string, secret: boolean): Promise<string | null> {
  // Raw mode before the question: an answer typed the moment the question shows must not be
  // echoed by the terminal, which still would in its ordinary mode.
  setRawMode(true);
  out.write(question);
  stream.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = (settle: () => void) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      setRawMode(false);
      stream.pause();
      out.write('\n');
      settle();
    };
    const onEnd = () => finish(() => resolve(typed.length === 0 ? null : typed.join('')));
    const onData = (chunk: string) => {
      const keys = [...chunk];
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] ?? '';
        if (key === '\r' || key === '\n') return finish(() => resolve(typed.join('')));
        if (key === '\u0003') return finish(() => reject(new FrameworkError('cli.cancelled', 'Cancelled at the prompt')));
        if (key === '\u0004') {
          if (typed.length === 0) return finish(() => resolve(null));
          continue;
        }
        if (key === '\u007f' || key === '\b') {
          if (typed.length > 0 && !secret) out.write('\b \b');
          typed = typed.slice(0, -1);
        } else if (key === '\u0015') {
          if (!secret) out.write('\b \b'.repeat(typed.length));
          typed = [];
        } else if (key === '\u001b') {
          i = skipEscape(keys, i);
        } else if (key >= ' ') {
          typed.push(key);
          if (!secret) out.write(key);
        }
      }
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.resume();
  });
}

/** The index of the last key of the escape sequence starting at `start` (CSI and SS3 forms). */
function skipEscape(keys: readonly string[], start: number): number {
  const introducer = keys[start + 1];
  if (introducer !== '[' && introducer !== 'O') return start;
  let i = start + 2;
  // Parameters and intermediates (0x20–0x3F) until the final byte (0x40–0x7E).
  while (i < keys.length && (keys[i] ?? '') < '@') i++;
  return Math.min(i, keys.length - 1);
}
