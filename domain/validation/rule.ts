import type { FormatChecks } from './format-checks.js';
import type { Verdict } from './verdict.js';

/** What a rule may look at besides its own value. */
export interface RuleScope {
  /** The field being judged, by dotted path (`tags.0`). */
  readonly field: string;
  /** Another field's value by dotted path; undefined when it was not sent. */
  other(path: string): unknown;
  readonly formats: FormatChecks;
  /**
   * The field also has a number rule (`numeric`, `integer`, `decimal`): size rules then read
   * number text (`'12'` from a form or a CSV cell) as the number, as Laravel does.
   */
  readonly numeric?: boolean;
}

/**
 * One rule of the table: a total function from a value to a verdict. A reusable app rule
 * (`v.field('slug').apply(slugRule)`) is one of these too.
 */
export interface Rule {
  /** The rule's name, also the last part of its message key and of per-field overrides. */
  readonly name: string;
  /**
   * Presence rules judge a missing value; every other rule lets it pass, so an optional field
   * left empty is fine. A presence rule failing on a missing value ends the field's chain.
   */
  readonly presence?: boolean;
  check(value: unknown, scope: RuleScope): Verdict;
}
