import type { ErrorCode } from './error-codes.js';

export type { ErrorCode } from './error-codes.js';

/**
 * Every error fw throws carries a stable string `code` (`area.what-went-wrong`, listed in
 * `error-codes.ts` and docs/errors.md) so tests, logs and error pages tell cases apart without
 * reading messages, which may be reworded. Expected refusals are not errors: they are returned
 * as values (see each use case's result union).
 *
 * Three classes, by kind, as JavaScript's own errors are:
 * - `FrameworkError` (an `Error`): something failed or is in a state it must not be in;
 * - `MisuseError` (a `TypeError`): the framework was called wrongly, a programmer's mistake (a
 *   wrong argument, a name registered twice, a call before what it needs) found at once;
 * - `OutOfRangeError` (a `RangeError`): a number outside the values an argument takes.
 * Areas with many cases subclass `FrameworkError` with their own code union (`RoutingError`,
 * `ViewError`). An app may extend `FrameworkError<'app.something'>` for its own errors.
 */
export class FrameworkError<Code extends string = ErrorCode> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A programmer's mistake in calling fw: a wrong argument, a name taken twice, a call out of order. */
export class MisuseError extends TypeError {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A number outside the values an argument takes (a count, a limit). */
export class OutOfRangeError extends RangeError {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
