/**
 * Hands out rule chains in `rules()` (`v.field`, and over lists `v.each`, `v.nested`,
 * `v.distinct`) and runs them afterwards. A field whose input did not parse already has its
 * message; its chains are skipped, since rules about a number say nothing useful about text
 * that is not one.
 */
import { duplicateIndexes } from '../../domain/validation/rules.js';
import type { RuleScope } from '../../domain/validation/rule.js';
import { isMissing, readPath } from '../../domain/validation/values.js';
import type { Verdict } from '../../domain/validation/verdict.js';
import { fail } from '../../domain/validation/verdict.js';
import type { ErrorCollector } from './errors.js';
import { FieldRules, isDatabaseRule, isLookupValue } from './field-rules.js';
import type { DatabaseRule, Step } from './field-rules.js';
import type { RecordLookupProbe } from '../../ports/record-lookup.js';
import type { FormContext } from './form-context.js';
import { renderFailure } from './messages.js';

/** What the chains need from the form being validated; `validateForm` builds it. */
export interface ValidatorScope {
  readonly values: unknown;
  readonly context: FormContext;
  labelOf(field: string): string;
}

/** Rules of a nested group or of each item of a list: the same API, paths relative to it. */
export type NestedRules = (v: Validator, value: unknown) => void;

/** The lookups of one database rule in one table, asked together. */
interface LookupGroup {
  table: string;
  probes: RecordLookupProbe[];
  /** Probe index by lookup, so a repeated value is asked once. */
  keys: Map<string, number>;
  items: { chain: FieldRules; step: Step; rule: DatabaseRule; probe: number }[];
}

/** A database rule waiting for the others, with the scope its chain had. */
interface Deferred {
  chain: FieldRules;
  step: Step;
  scope: RuleScope;
}

/** What a rule sees of the form while its field is judged (a class: no closure per field). */
class ChainScope implements RuleScope {
  constructor(
    public field: string,
    readonly formats: RuleScope['formats'],
    private readonly values: unknown,
    public numeric: boolean,
  ) {}

  other(path: string): unknown {
    return readPath(this.values, path);
  }
}

const NOTHING_UNPARSED: ReadonlySet<string> = new Set();

export class Validator {
  constructor(
    private readonly scope: ValidatorScope,
    private readonly unparsed: ReadonlySet<string> = NOTHING_UNPARSED,
    private readonly chains: FieldRules[] = [],
    private readonly prefix = '',
  ) {}

  /** The rules of one field, judged on its coerced value or on `value` when given. */
  field(name: string, ...given: [] | [unknown]): FieldRules {
    const path = this.prefix + name;
    const chain = new FieldRules(path, given.length > 0 ? given[0] : readPath(this.scope.values, path));
    this.chains.push(chain);
    return chain;
  }

  /** A field's value (coerced when it parsed), by path relative to this validator. */
  valueOf(name: string): unknown {
    return readPath(this.scope.values, this.prefix + name);
  }

  /** The same rules for every item of a list, with errors on `tags.0`, `tags.1`. */
  each(name: string, rules: (item: FieldRules, index: number, value: unknown) => void): this {
    const list = readPath(this.scope.values, this.prefix + name);
    // The item is the value at `name.index`: handed over, not looked up again by its path.
    if (Array.isArray(list)) list.forEach((item, index) => rules(this.field(`${name}.${index}`, item), index, item));
    return this;
  }

  /**
   * A group's own rules (`address` with `city` and `zip`), or each item's of a list of
   * groups (`lines.0.qty`), written with paths relative to the group.
   */
  nested(name: string, rules: NestedRules): this {
    const path = this.prefix + name;
    const value = readPath(this.scope.values, path);
    if (Array.isArray(value)) {
      value.forEach((item, index) => rules(new Validator(this.scope, this.unparsed, this.chains, `${path}.${index}.`), item));
    } else if (!isMissing(value)) {
      rules(new Validator(this.scope, this.unparsed, this.chains, `${path}.`), value);
    }
    return this;
  }

  /** Each repeated item of a list gets the error (`tags.2` when it repeats `tags.0`). */
  distinct(name: string, options: { ignoreCase?: boolean } = {}): this {
    const list = readPath(this.scope.values, this.prefix + name);
    if (!Array.isArray(list)) return this;
    for (const index of duplicateIndexes(list as unknown[], options.ignoreCase)) {
      this.field(`${name}.${index}`).apply({ name: 'distinct', check: () => fail('validation.distinct') });
    }
    return this;
  }

  /**
   * Runs every chain, then the database rules of the fields that passed everything else, all
   * at once. Synchronous (undefined) while every rule answers at once; from the first rule that
   * answers with a promise (an app's async rule, `currentPassword`) or when database rules wait,
   * the rest runs in the promise returned. A form of sync rules costs no promise per form.
   */
  run(errors: ErrorCollector): Promise<void> | undefined {
    const deferred: Deferred[] = [];
    const { chains } = this;
    const scope = new ChainScope('', this.scope.context.formats, this.scope.values, false);
    for (let index = 0; index < chains.length; index++) {
      const chain = chains[index] as FieldRules;
      const pending = this.runChain(errors, chain, scope, deferred, chain.first);
      if (pending !== undefined) return this.runRest(errors, index + 1, pending, scope, deferred);
    }
    return deferred.length > 0 ? this.runDeferred(errors, deferred) : undefined;
  }

  private async runRest(errors: ErrorCollector, from: number, pending: Promise<void>, scope: ChainScope, deferred: Deferred[]): Promise<void> {
    await pending;
    const { chains } = this;
    for (let index = from; index < chains.length; index++) {
      const chain = chains[index] as FieldRules;
      const more = this.runChain(errors, chain, scope, deferred, chain.first);
      if (more !== undefined) await more;
    }
    if (deferred.length > 0) await this.runDeferred(errors, deferred);
  }

  /**
   * One chain's rules from `from` on, with `scope` pointed at it (one scope per run: the chains
   * run one after the other, a pending async rule's too; a deferred database rule keeps its own).
   * Undefined when done; a promise for the rest of the chain when a rule answered with one.
   */
  private runChain(errors: ErrorCollector, chain: FieldRules, scope: ChainScope, deferred: Deferred[], from: Step | undefined): Promise<void> | undefined {
    if (this.unparsed.has(chain.name)) return undefined;
    const { context } = this.scope;
    scope.field = chain.name;
    scope.numeric = chain.hasNumberRule;
    const missing = isMissing(chain.value);
    for (let step = from; step !== undefined; step = step.next) {
      const { rule } = step;
      if (missing && rule.presence !== true) continue;
      if ('database' in rule && rule.database === true) {
        deferred.push({ chain, step, scope: new ChainScope(chain.name, context.formats, this.scope.values, chain.hasNumberRule) });
        continue;
      }
      const verdict = rule.check(chain.value, scope, context);
      if (verdict instanceof Promise) return this.finishChain(errors, chain, step, verdict, scope, deferred, missing);
      if (verdict === null) continue;
      this.report(errors, chain, step, verdict);
      if (missing) return undefined;
    }
    return undefined;
  }

  private async finishChain(errors: ErrorCollector, chain: FieldRules, step: Step, pending: Promise<Verdict>, scope: ChainScope, deferred: Deferred[], missing: boolean): Promise<void> {
    const verdict = await pending;
    if (verdict !== null) {
      this.report(errors, chain, step, verdict);
      if (missing) return;
    }
    const rest = this.runChain(errors, chain, scope, deferred, step.next);
    if (rest !== undefined) await rest;
  }

  private runDeferred(errors: ErrorCollector, deferred: readonly Deferred[]): Promise<void> {
    return this.runDatabaseRules(errors, deferred.filter(({ chain }) => !errors.has(chain.name)));
  }

  /**
   * The database rules of the fields that passed everything else: one `existsEach` per rule
   * and table, with every lookup of the form (and of a list's items) in it, so three `unique`
   * fields of `users` are one query, and ten `exists` over `tags.*` another, not thirteen.
   * The same lookup twice (`tags.0` and `tags.3` alike) is asked once. An app's own
   * database-flagged rule (without a lookup) runs alone, alongside.
   */
  private async runDatabaseRules(errors: ErrorCollector, pending: readonly Deferred[]): Promise<void> {
    const { context } = this.scope;
    const groups = new Map<string, LookupGroup>();
    const alone: Deferred[] = [];
    for (const item of pending) {
      const { rule } = item.step;
      if (!isDatabaseRule(rule)) {
        alone.push(item);
        continue;
      }
      const { value } = item.chain;
      if (!isLookupValue(value)) {
        this.report(errors, item.chain, item.step, rule.verdict(value, !rule.passesWhenFound) ?? fail(`validation.${rule.name}`));
        continue;
      }
      const { table, ...where } = rule.lookup();
      const groupKey = JSON.stringify([rule.name, table]);
      const group: LookupGroup = groups.get(groupKey) ?? { table, probes: [], keys: new Map(), items: [] };
      groups.set(groupKey, group);
      const probe: RecordLookupProbe = { ...where, value };
      const probeKey = JSON.stringify([probe.column, typeof value, value, probe.ignore ?? null]);
      let index = group.keys.get(probeKey);
      if (index === undefined) {
        index = group.probes.push(probe) - 1;
        group.keys.set(probeKey, index);
      }
      group.items.push({ chain: item.chain, step: item.step, rule, probe: index });
    }
    const verdicts: { chain: FieldRules; step: Step; verdict: Verdict }[] = [];
    await Promise.all([
      ...[...groups.values()].map(async ({ table, probes, items }) => {
        const found = await context.records.existsEach({ table, probes });
        for (const { chain, step, rule, probe } of items) verdicts.push({ chain, step, verdict: rule.verdict(chain.value, found[probe] === true) });
      }),
      ...alone.map(async ({ chain, step, scope }) => {
        verdicts.push({ chain, step, verdict: await step.rule.check(chain.value, scope, context) });
      }),
    ]);
    // Messages in the order the fields were written, whatever query answered first.
    const order = new Map(pending.map(({ step }, index) => [step, index]));
    verdicts.sort((a, b) => (order.get(a.step) ?? 0) - (order.get(b.step) ?? 0));
    for (const { chain, step, verdict } of verdicts) if (verdict !== null) this.report(errors, chain, step, verdict);
  }

  private report(errors: ErrorCollector, chain: FieldRules, step: Step, verdict: NonNullable<Verdict>): void {
    const message = renderFailure({
      lang: this.scope.context.lang,
      field: chain.name,
      rule: step.rule.name,
      failure: verdict,
      label: chain.customLabel ?? this.scope.labelOf(chain.name),
      labelOf: (field) => this.scope.labelOf(field),
      custom: step.custom,
    });
    errors.add(chain.name, message);
  }
}
