/**
 * Error messages by field path (`email`, `address.city`, `tags.0`), in the order they were
 * found. `after` hooks receive one to add their own: `errors.add('starts_at', '…')`.
 */
export type FieldErrors = Record<string, string[]>;

/** Where errors about the input as a whole go, e.g. a JSON body that is a list, not an object. */
export const WHOLE_FORM = '_form';

export class ErrorCollector {
  private readonly byField = new Map<string, string[]>();

  add(field: string, message: string): void {
    const messages = this.byField.get(field);
    if (messages === undefined) this.byField.set(field, [message]);
    else if (!messages.includes(message)) messages.push(message); // two rules may say the same thing
  }

  has(field: string): boolean {
    return this.byField.has(field);
  }

  isEmpty(): boolean {
    return this.byField.size === 0;
  }

  /** A copy: later additions do not change a result already handed out. */
  toRecord(): FieldErrors {
    return Object.fromEntries([...this.byField].map(([field, messages]) => [field, [...messages]]));
  }
}
