/**
 * A value that must never reach a log line, an error message or a template by accident.
 * `String(secret)`, `JSON.stringify(secret)` and `console.log(secret)` all print `[secret]`;
 * the holder calls `reveal()` at the one place that needs the real value.
 */
export class Secret<T = string> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  reveal(): T {
    return this.#value;
  }

  toString(): string {
    return '[secret]';
  }

  toJSON(): string {
    return '[secret]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[secret]';
  }
}
