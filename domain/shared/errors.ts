/**
 * Errors that cross layers carry a stable string `code` (for tests, logs and mapping to
 * responses) and the `cause` that led to them. Expected refusals are not errors: they are
 * returned as values (see each use case's result union).
 */
export class FrameworkError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
