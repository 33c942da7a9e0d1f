/**
 * The chained rule API of a form's `rules()`: `v.field('email').required().email().unique('users', 'email')`.
 *
 * Each rule method adds one step (a check and the message it gives); nothing runs until
 * `validate` has the whole list, so `.label()` also names the field in the messages of rules
 * written before it, and async rules (database, password) run one after another in the
 * order written. A new rule from the spec's table is one more method of `FieldRules` in the
 * same shape: `return this.add({ check, message })`, plus its sentence in `messages.ts`.
 *
 * Implemented: required, accepted, min, max, between, same, different, confirmed, oneOf,
 * email, matches, unique (with ignore), exists, currentPassword, rule, message, label.
 *
 * Not implemented yet (spec's "Validation" table): required_if, required_unless,
 * required_with, required_with_all, required_without, prohibited, prohibited_if, prohibits,
 * declined; size, gt, gte, lt, lte, none_of, distinct; url, not_matches, alpha, alpha_num,
 * alpha_dash, lowercase, uppercase, starts_with, ends_with, ascii, uuid, ulid, ip,
 * mac_address, json, timezone, hex_color; numeric, integer, decimal, digits, digits_between,
 * min_digits, multiple_of (as rules: the `integer()` and `number()` fields cover parsing);
 * date, before, after, after_or_equal; the file rules image, mimes, dimensions and max for
 * uploads; apply (a reusable `Rule` object); v.each, v.nested, v.distinct over lists; and the
 * attribute form (`#[validate(...)]`), `rename` and `hooks`.
 */
import { isDeepStrictEqual } from 'node:util';
import { normalizeEmail } from '../../../domain/users/email.js';
import type { ErrorCollector } from './errors.js';
import type { FormContext } from './form-context.js';
import type { Messages, SizeUnit } from './messages.js';
import { isMissing, readPath, sizeOf } from './values.js';
import type { FormValues } from './values.js';

/** One rule of a chain. */
interface Step {
  /** Whether the value passes; `value` is the field's value after coercion. */
  check(value: unknown): boolean | Promise<boolean>;
  /** The sentence when it does not, naming the field by `label`. */
  message(label: string): string;
  /**
   * Presence rules (required, accepted, currentPassword, rule) judge a missing value; every
   * other rule lets it pass, so an optional field left empty is fine. A presence rule that
   * fails on a missing value ends the chain: one "is required", not a pile of messages.
   */
  judgesMissing?: boolean;
  /** Set by `.message(text)`. */
  custom?: string;
  /** Set by `.ignore(id)` after `unique`. */
  ignore?: { column: string; value: string | number };
  kind?: 'unique';
}

/** What a chain needs from the validator that made it; `validate` builds it. */
export interface ValidatorScope {
  readonly values: FormValues;
  readonly context: FormContext;
  readonly messages: Messages;
  labelOf(field: string): string;
}

type LookupValue = string | number;

function isLookupValue(value: unknown): value is LookupValue {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export class FieldRules {
  private readonly steps: Step[] = [];
  private customLabel: string | undefined;

  constructor(
    readonly name: string,
    private readonly value: unknown,
    private readonly scope: ValidatorScope,
  ) {}

  // ---- presence ----

  /** Present: not undefined, null, blank text or an empty list (`false` and `0` are present). */
  required(): this {
    return this.add({ check: (value) => !isMissing(value), message: (label) => this.messages.required(label), judgesMissing: true });
  }

  /** "Yes": a ticked checkbox (`true`, `1`, `on`, `yes`, `true` as text), e.g. accepting the terms. */
  accepted(): this {
    const yes = new Set<unknown>([true, 1, 'on', '1', 'yes', 'true']);
    return this.add({ check: (value) => yes.has(value), message: (label) => this.messages.accepted(label), judgesMissing: true });
  }

  // ---- size and compare ----

  /** At least `limit` characters of text, `limit` as a number, `limit` items of a list. */
  min(limit: number): this {
    return this.sized((size) => size >= limit, (label, unit) => this.messages.min(label, limit, unit));
  }

  /** At most `limit` characters of text, `limit` as a number, `limit` items of a list. */
  max(limit: number): this {
    return this.sized((size) => size <= limit, (label, unit) => this.messages.max(label, limit, unit));
  }

  /** Both bounds included. */
  between(low: number, high: number): this {
    return this.sized((size) => size >= low && size <= high, (label, unit) => this.messages.between(label, low, high, unit));
  }

  /** Equal to another field's value (`same('email')`). */
  same(otherField: string): this {
    return this.add({
      check: (value) => isDeepStrictEqual(value, readPath(this.scope.values, otherField)),
      message: (label) => this.messages.same(label, this.scope.labelOf(otherField)),
    });
  }

  /** Not equal to another field's value (`different('current_password')`). */
  different(otherField: string): this {
    return this.add({
      check: (value) => !isDeepStrictEqual(value, readPath(this.scope.values, otherField)),
      message: (label) => this.messages.different(label, this.scope.labelOf(otherField)),
    });
  }

  /** Equal to the `<field>_confirmation` input, or to the value given. */
  confirmed(): this;
  confirmed(otherValue: unknown): this;
  confirmed(...given: unknown[]): this {
    const other = given.length > 0 ? given[0] : readPath(this.scope.values, `${this.name}_confirmation`);
    return this.add({ check: (value) => isDeepStrictEqual(value, other), message: (label) => this.messages.confirmed(label) });
  }

  /** Among `values` (compared exactly: coerce first, e.g. with the `integer()` field). */
  oneOf(values: readonly unknown[]): this {
    return this.add({ check: (value) => values.includes(value), message: (label) => this.messages.oneOf(label) });
  }

  // ---- text ----

  /** An address the domain accepts (`normalizeEmail`): one `@`, a dot in the domain, no spaces. */
  email(): this {
    return this.add({
      check: (value) => typeof value === 'string' && normalizeEmail(value).kind === 'valid',
      message: (label) => this.messages.email(label),
    });
  }

  /** Text the pattern finds a match in; anchor it (`^…$`) to match the whole value. */
  matches(pattern: RegExp): this {
    // Without g/y a RegExp keeps no lastIndex, so the same pattern gives the same answer twice.
    const stateless = new RegExp(pattern.source, pattern.flags.replace(/[gy]/gu, ''));
    return this.add({ check: (value) => typeof value === 'string' && stateless.test(value), message: (label) => this.messages.matches(label) });
  }

  // ---- database ----

  /**
   * No row of `table` has this value in `column`. Follow with `.ignore(id)` on a form that
   * also edits: the row being edited does not count. Matching is exact; lower-case emails
   * (in `prepare`) since the domain stores them so.
   */
  unique(table: string, column: string): this {
    const step: Step = {
      kind: 'unique',
      check: async (value) =>
        isLookupValue(value) &&
        !(await this.scope.context.records.exists({ table, column, value, ...(step.ignore === undefined ? {} : { ignore: step.ignore }) })),
      message: (label) => this.messages.unique(label),
    };
    return this.add(step);
  }

  /**
   * Leaves the row whose `idColumn` is `id` out of the `unique` rule just before. A missing id
   * (`null`, `undefined`: the create form) leaves nothing out.
   */
  ignore(id: string | number | null | undefined, idColumn = 'id'): this {
    const step = this.steps.at(-1);
    if (step?.kind !== 'unique') throw new Error(`ignore() follows unique() (field ${this.name})`);
    if (id !== null && id !== undefined) step.ignore = { column: idColumn, value: id };
    return this;
  }

  /** Some row of `table` has this value in `column` (a chosen category, a referenced user). */
  exists(table: string, column: string): this {
    return this.add({
      check: async (value) => isLookupValue(value) && (await this.scope.context.records.exists({ table, column, value })),
      message: (label) => this.messages.exists(label),
    });
  }

  // ---- custom ----

  /**
   * The logged-in user's password. It judges a missing value too (as wrong), so a form that
   * forgets `required()` still cannot skip the check; a guest and an account without a
   * password (social login) never pass.
   */
  currentPassword(): this {
    return this.add({
      judgesMissing: true,
      check: async (value) => {
        const hash = this.scope.context.user?.passwordHash ?? null;
        return hash !== null && typeof value === 'string' && value !== '' && (await this.scope.context.passwords.verify(hash, value));
      },
      message: (label) => this.messages.currentPassword(label),
    });
  }

  /** A check written in place: fails with `message` when `condition` is false. */
  rule(condition: boolean, message: string): this {
    return this.add({ check: () => condition, message: () => message, judgesMissing: true });
  }

  /** Replaces the message of the rule just before. */
  message(text: string): this {
    const step = this.steps.at(-1);
    if (step === undefined) throw new Error(`message() follows a rule (field ${this.name})`);
    step.custom = text;
    return this;
  }

  /** Names the field in every message of this chain, also those of rules written before. */
  label(text: string): this {
    this.customLabel = text;
    return this;
  }

  /** Runs the steps in order, adding failures to `errors`. Called by `Validator.run`. */
  async run(errors: ErrorCollector): Promise<void> {
    const label = this.customLabel ?? this.scope.labelOf(this.name);
    const missing = isMissing(this.value);
    for (const step of this.steps) {
      if (missing && step.judgesMissing !== true) continue;
      if (await step.check(this.value)) continue;
      errors.add(this.name, step.custom ?? step.message(label));
      if (missing) return;
    }
  }

  private get messages(): Messages {
    return this.scope.messages;
  }

  private add(step: Step): this {
    this.steps.push(step);
    return this;
  }

  /** A size rule: refuses values without a size (a checkbox, a group) with its own message. */
  private sized(fits: (size: number) => boolean, message: (label: string, unit: SizeUnit) => string): this {
    return this.add({
      check: (value) => {
        const measured = sizeOf(value);
        return measured !== null && fits(measured.size);
      },
      message: (label) => message(label, sizeOf(this.value)?.unit ?? 'characters'),
    });
  }
}

/**
 * Hands out rule chains in `rules()` and runs them afterwards. A field whose input did not
 * parse already has its message; its chains are skipped, since rules about a number say
 * nothing useful about text that is not one.
 */
export class Validator {
  private readonly chains: FieldRules[] = [];

  constructor(
    private readonly scope: ValidatorScope,
    private readonly unparsed: ReadonlySet<string>,
  ) {}

  /** The rules of one field, judged on its coerced value or on `value` when given. */
  field(name: string): FieldRules;
  field(name: string, value: unknown): FieldRules;
  field(name: string, ...given: unknown[]): FieldRules {
    const value = given.length > 0 ? given[0] : readPath(this.scope.values, name);
    const chain = new FieldRules(name, value, this.scope);
    this.chains.push(chain);
    return chain;
  }

  async run(errors: ErrorCollector): Promise<void> {
    for (const chain of this.chains) {
      if (!this.unparsed.has(chain.name)) await chain.run(errors);
    }
  }
}
