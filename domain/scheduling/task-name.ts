/**
 * A scheduled task's name: what `schedule:run <NAME>` takes and what the runs table keys on.
 * Letters, digits and `.:_-`, starting with a letter or digit, at most 100 characters, so it
 * survives a shell and a column without quoting.
 */
export function taskNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > 100) return `must be at most 100 characters, got ${name.length}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9.:_-]*$/u.test(name)) return `must be letters, digits and . : _ - (starting with a letter or digit), got ${JSON.stringify(name)}`;
  return null;
}
