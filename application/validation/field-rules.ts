/**
 * The chained rule API of a form's `rules()`: `v.field('email').required().email().unique('users', 'email')`.
 *
 * Each method adds one rule of the spec's table (semantics in `domain/validation/rules.ts`);
 * nothing runs until the validator has the whole list, so `.label()` also names the field in
 * the messages of rules written before it. The database rules (`unique`, `exists`) run after
 * all the others, together; other async rules (`currentPassword`, an app's async rule) in
 * the order written.
 */
import * as rules from '../../domain/validation/rules.js';
import type { Condition } from '../../domain/validation/rules.js';
import type { Rule, RuleScope } from '../../domain/validation/rule.js';
import type { DimensionConstraints, Dimensions } from '../../domain/validation/uploaded-file.js';
import type { Verdict } from '../../domain/validation/verdict.js';
import { fail } from '../../domain/validation/verdict.js';
import type { FormContext } from './form-context.js';
import { FrameworkError } from '../../domain/shared/errors.js';
import { RuleMemo } from './rule-memo.js';

/** A rule that may need the outside world: an app's async rule, the database, the password hasher. */
export interface AsyncRule {
  readonly name: string;
  readonly presence?: boolean;
  /** Database rules run after every other rule, all at once. */
  readonly database?: boolean;
  check(value: unknown, scope: RuleScope, context: FormContext): Verdict | Promise<Verdict>;
}

/** Where a database rule looks: read when the rules run, so `.ignore()` written after `unique` counts. */
export interface DatabaseLookup {
  table: string;
  column: string;
  ignore?: { column: string; value: string | number };
}

/**
 * `unique` and `exists`: the validator gathers those of one table, column and ignored row
 * across the form (and a list's items) and asks `RecordLookup.existsEach` once for all their
 * values; `check` answers for one value when a rule runs alone.
 */
export interface DatabaseRule extends AsyncRule {
  readonly database: true;
  lookup(): DatabaseLookup;
  /** True for `exists` (a found row passes), false for `unique`. */
  readonly passesWhenFound: boolean;
  /** The verdict for a value the database was asked about. */
  verdict(value: unknown, found: boolean): Verdict;
}

export function isDatabaseRule(rule: Rule | AsyncRule): rule is DatabaseRule {
  return 'database' in rule && rule.database === true && 'lookup' in rule;
}

function databaseRule(name: 'unique' | 'exists', lookup: () => DatabaseLookup, passesWhenFound: boolean): DatabaseRule {
  const failure = name === 'unique' ? 'validation.unique' : 'validation.exists';
  const verdict = (value: unknown, found: boolean): Verdict => (isLookupValue(value) && found === passesWhenFound ? null : fail(failure));
  return {
    name,
    database: true,
    lookup,
    passesWhenFound,
    verdict,
    check: async (value, _scope, context) => (isLookupValue(value) ? verdict(value, await context.records.exists({ ...lookup(), value })) : verdict(value, !passesWhenFound)),
  };
}

// Rules with parameters, kept by them (`rule-memo.ts`): `rules()` runs on every validation.
// Only rest-parameter lists are kept by their items: the chain owns those arrays, nobody can
// change them after the call (a list the app passes, as to `oneOf`, is the app's: made fresh).
const MIN = new RuleMemo();
const MAX = new RuleMemo();
const SIZE = new RuleMemo();
const BETWEEN = new RuleMemo();
const GT = new RuleMemo();
const GTE = new RuleMemo();
const LT = new RuleMemo();
const LTE = new RuleMemo();
const SAME = new RuleMemo();
const DIFFERENT = new RuleMemo();
const MATCHES = new RuleMemo();
const NOT_MATCHES = new RuleMemo();
const STARTS_WITH = new RuleMemo();
const ENDS_WITH = new RuleMemo();
const DECIMAL = new RuleMemo();
const DIGITS = new RuleMemo();
const DIGITS_BETWEEN = new RuleMemo();
const MIN_DIGITS = new RuleMemo();
const MULTIPLE_OF = new RuleMemo();
const BEFORE = new RuleMemo();
const AFTER = new RuleMemo();
const AFTER_OR_EQUAL = new RuleMemo();
const MIMES = new RuleMemo();
const REQUIRED_WITH = new RuleMemo();
const REQUIRED_WITHOUT = new RuleMemo();
const PROHIBITS = new RuleMemo();
const CONDITION = new RuleMemo();
const CONFIRMED = rules.confirmed();
const CURRENT_PASSWORD: AsyncRule = {
  name: 'currentPassword',
  presence: true,
  check: async (value, _scope, context) => {
    const hash = context.user?.passwordHash ?? null;
    const ok = hash !== null && typeof value === 'string' && value !== '' && (await context.passwords.verify(hash, value));
    return ok ? null : fail('validation.currentPassword');
  },
};
const DISTINCT = rules.distinct();

/**
 * One rule of a chain. A chain is a short linked list of these (`first`, `next`) rather than an
 * array: a form's thirty-odd chains are made on every validation, and an array per chain was
 * a backing store of sixteen slots for one to four rules.
 */
export class Step {
  /** Set by `.message(text)`: a translation key or the sentence itself. */
  custom: string | undefined = undefined;
  /** Set by `.ignore(id)` after `unique`. */
  ignore: { column: string; value: string | number } | undefined = undefined;
  next: Step | undefined = undefined;

  constructor(readonly rule: Rule | AsyncRule) {}
}

type LookupValue = string | number;

export function isLookupValue(value: unknown): value is LookupValue {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export class FieldRules {
  /** The chain's rules in the order written. */
  first: Step | undefined = undefined;
  private last: Step | undefined = undefined;
  /**
   * The chain has a number rule (`numeric`, `integer`, `decimal`): its size rules read number
   * text as the number (`RuleScope.numeric`).
   */
  hasNumberRule = false;
  customLabel: string | undefined;

  constructor(
    readonly name: string,
    readonly value: unknown,
  ) {}

  // ---- presence ----
  /** Present: not undefined, null, blank text or an empty list (`false` and `0` are present). */
  required(): this { return this.add(rules.required()); }
  /** Required when `condition` holds: a boolean, or `{ field: 'kind', is: ['company'] }`. */
  requiredIf(condition: Condition): this { return this.add(rules.requiredIf(condition)); }
  requiredUnless(condition: Condition): this { return this.add(rules.requiredUnless(condition)); }
  /** Required when any of the other fields is present. */
  requiredWith(...fields: string[]): this { return this.add(REQUIRED_WITH.findList(fields) ?? REQUIRED_WITH.keep(fields, rules.requiredWith(fields))); }
  requiredWithAll(fields: readonly string[]): this { return this.add(rules.requiredWithAll(fields)); }
  /** Required when any of the other fields is missing. */
  requiredWithout(...fields: string[]): this { return this.add(REQUIRED_WITHOUT.findList(fields) ?? REQUIRED_WITHOUT.keep(fields, rules.requiredWithout(fields))); }
  prohibited(): this { return this.add(rules.prohibited()); }
  prohibitedIf(condition: Condition): this { return this.add(rules.prohibitedIf(condition)); }
  /** When this field is present, the others must not be. */
  prohibits(...fields: string[]): this { return this.add(PROHIBITS.findList(fields) ?? PROHIBITS.keep(fields, rules.prohibits(fields))); }
  /** "Yes": `true`, `1`, `on`, `yes`, `true` as text, e.g. accepting the terms. */
  accepted(): this { return this.add(rules.accepted()); }
  /** "No": `false`, `0`, `off`, `no`. */
  declined(): this { return this.add(rules.declined()); }

  // ---- size and compare ----
  /** At least `limit` characters of text, `limit` as a number, items of a list, kilobytes of an upload. */
  min(limit: number): this { return this.add(MIN.find(limit) ?? MIN.keep([limit], rules.min(limit))); }
  max(limit: number): this { return this.add(MAX.find(limit) ?? MAX.keep([limit], rules.max(limit))); }
  size(exactly: number): this { return this.add(SIZE.find(exactly) ?? SIZE.keep([exactly], rules.size(exactly))); }
  /** Both bounds included. */
  between(low: number, high: number): this { return this.add(BETWEEN.find2(low, high) ?? BETWEEN.keep([low, high], rules.between(low, high))); }
  /** Greater than a number or than another field's value (sizes of the same kind). */
  gt(other: string | number): this { return this.add(GT.find(other) ?? GT.keep([other], rules.gt(other))); }
  gte(other: string | number): this { return this.add(GTE.find(other) ?? GTE.keep([other], rules.gte(other))); }
  lt(other: string | number): this { return this.add(LT.find(other) ?? LT.keep([other], rules.lt(other))); }
  lte(other: string | number): this { return this.add(LTE.find(other) ?? LTE.keep([other], rules.lte(other))); }
  same(otherField: string): this { return this.add(SAME.find(otherField) ?? SAME.keep([otherField], rules.same(otherField))); }
  different(otherField: string): this { return this.add(DIFFERENT.find(otherField) ?? DIFFERENT.keep([otherField], rules.different(otherField))); }
  /** Equal to the `<field>_confirmation` input, or to the value given. */
  confirmed(...given: [] | [unknown]): this { return this.add(given.length === 0 ? CONFIRMED : rules.confirmed(...given)); }
  /** Among `values` (compared exactly: coerce first, e.g. with the `integer()` field). */
  oneOf(values: readonly unknown[]): this { return this.add(rules.oneOf(values)); }
  noneOf(values: readonly unknown[]): this { return this.add(rules.noneOf(values)); }
  /** A list without repeats (one error on the list; `v.distinct(name)` marks each repeat). */
  distinct(options?: { ignoreCase?: boolean }): this { return this.add(options === undefined ? DISTINCT : rules.distinct(options)); }

  // ---- text ----
  email(): this { return this.add(rules.email()); }
  url(): this { return this.add(rules.url()); }
  /** Text the pattern finds a match in; anchor it (`^…$`) to match the whole value. */
  matches(pattern: RegExp): this { return this.add(MATCHES.find2(pattern.source, pattern.flags) ?? MATCHES.keep([pattern.source, pattern.flags], rules.matches(pattern))); }
  notMatches(pattern: RegExp): this { return this.add(NOT_MATCHES.find2(pattern.source, pattern.flags) ?? NOT_MATCHES.keep([pattern.source, pattern.flags], rules.notMatches(pattern))); }
  alpha(): this { return this.add(rules.alpha()); }
  alphaNum(): this { return this.add(rules.alphaNum()); }
  alphaDash(): this { return this.add(rules.alphaDash()); }
  lowercase(): this { return this.add(rules.lowercase()); }
  uppercase(): this { return this.add(rules.uppercase()); }
  startsWith(...prefixes: string[]): this { return this.add(STARTS_WITH.findList(prefixes) ?? STARTS_WITH.keep(prefixes, rules.startsWith(prefixes))); }
  endsWith(...suffixes: string[]): this { return this.add(ENDS_WITH.findList(suffixes) ?? ENDS_WITH.keep(suffixes, rules.endsWith(suffixes))); }
  ascii(): this { return this.add(rules.ascii()); }
  uuid(): this { return this.add(rules.uuid()); }
  ulid(): this { return this.add(rules.ulid()); }
  ip(): this { return this.add(rules.ip()); }
  macAddress(): this { return this.add(rules.macAddress()); }
  json(): this { return this.add(rules.json()); }
  timezone(): this { return this.add(rules.timezone()); }
  hexColor(): this { return this.add(rules.hexColor()); }

  // ---- numbers ----
  numeric(): this { return this.add(rules.numeric()); }
  integer(): this { return this.add(rules.integer()); }
  /** Between `low` and `high` decimal places. */
  decimal(low: number, high?: number): this { return this.add(DECIMAL.find2(low, high) ?? DECIMAL.keep([low, high], rules.decimal(low, high))); }
  digits(n: number): this { return this.add(DIGITS.find(n) ?? DIGITS.keep([n], rules.digits(n))); }
  digitsBetween(low: number, high: number): this { return this.add(DIGITS_BETWEEN.find2(low, high) ?? DIGITS_BETWEEN.keep([low, high], rules.digitsBetween(low, high))); }
  minDigits(n: number): this { return this.add(MIN_DIGITS.find(n) ?? MIN_DIGITS.keep([n], rules.minDigits(n))); }
  multipleOf(n: number): this { return this.add(MULTIPLE_OF.find(n) ?? MULTIPLE_OF.keep([n], rules.multipleOf(n))); }

  // ---- dates ----
  date(): this { return this.add(rules.date()); }
  /** Before a `Date`, ISO date text, or another field's date (`before('ends_at')`). */
  before(when: Date | string): this { return this.add(BEFORE.find(when) ?? BEFORE.keep([when], rules.before(when))); }
  after(when: Date | string): this { return this.add(AFTER.find(when) ?? AFTER.keep([when], rules.after(when))); }
  afterOrEqual(when: Date | string): this { return this.add(AFTER_OR_EQUAL.find(when) ?? AFTER_OR_EQUAL.keep([when], rules.afterOrEqual(when))); }

  // ---- files (an `UploadedFile`; `max(kb)` and `min(kb)` measure it in kilobytes) ----
  file(): this { return this.add(rules.file()); }
  image(): this { return this.add(rules.image()); }
  mimes(...kinds: string[]): this { return this.add(MIMES.findList(kinds) ?? MIMES.keep(kinds, rules.mimes(kinds))); }
  dimensions(bounds: Dimensions | DimensionConstraints): this { return this.add(rules.dimensions(bounds)); }

  // ---- database ----
  /**
   * No row of `table` has this value in `column`. Follow with `.ignore(id)` on a form that
   * also edits: the row being edited does not count. Matching is exact; lower-case emails
   * (in `prepare`) since the domain stores them so.
   */
  unique(table: string, column: string): this {
    // The lookup reads the step when the rules run, so an `.ignore()` written after counts.
    const step: Step = this.append(databaseRule('unique', () => ({ table, column, ...(step.ignore === undefined ? {} : { ignore: step.ignore }) }), false));
    return this;
  }

  /** Leaves the row whose `idColumn` is `id` out of the `unique` rule just before; a missing id ignores nothing. */
  ignore(id: string | number | null | undefined, idColumn = 'id'): this {
    const step = this.last;
    if (step?.rule.name !== 'unique') throw new FrameworkError('validation.ignore-without-unique', `ignore() follows unique() (field ${this.name})`);
    if (id !== null && id !== undefined) step.ignore = { column: idColumn, value: id };
    return this;
  }

  /** Some row of `table` has this value in `column` (a chosen category, a referenced user). */
  exists(table: string, column: string): this {
    return this.add(databaseRule('exists', () => ({ table, column }), true));
  }

  // ---- custom ----
  /**
   * The signed-in user's password. It judges a missing value too (as wrong), so a form that
   * forgets `required()` still cannot skip the check; a guest and an account without a
   * password (social login) never pass.
   */
  currentPassword(): this {
    return this.add(CURRENT_PASSWORD);
  }

  /** A reusable rule (`defineRule(...)` or any `Rule`/`AsyncRule` object). */
  apply(rule: Rule | AsyncRule): this { return this.add(rule); }

  /** A check written in place: fails with `message` (a key or a sentence) when `condition` is false. */
  rule(condition: boolean, message: string): this { return this.add(CONDITION.find2(condition, message) ?? CONDITION.keep([condition, message], rules.condition(condition, message))); }

  /** Replaces the message of the rule just before (a translation key or the sentence). */
  message(text: string): this {
    const step = this.last;
    if (step === undefined) throw new FrameworkError('validation.message-without-rule', `message() follows a rule (field ${this.name})`);
    step.custom = text;
    return this;
  }

  /** Names the field in every message of this chain, also those of rules written before. */
  label(text: string): this {
    this.customLabel = text;
    return this;
  }

  private add(rule: Rule | AsyncRule): this {
    this.append(rule);
    return this;
  }

  private append(rule: Rule | AsyncRule): Step {
    const step = new Step(rule);
    if (this.last === undefined) this.first = step;
    else this.last.next = step;
    this.last = step;
    const { name } = rule;
    if (name === 'numeric' || name === 'integer' || name === 'decimal') this.hasNumberRule = true;
    return step;
  }
}
