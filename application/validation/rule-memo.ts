import type { Rule } from '../../domain/validation/rule.js';

/**
 * Rules kept by their parameters. A form's `rules()` runs on every validation, so `max(254)`
 * made a new rule (its check closure, its params) thousands of times a second, the same one
 * each time. A rule is immutable and a function of its parameters only, so one made for equal
 * parameters is the same rule: kept here, in a tree of `Map`s keyed by the parameters one
 * after the other (a lookup allocates nothing). Only parameters a `Map` compares the way the
 * rules do are keys: text, booleans, numbers other than -0 (a `Map` takes -0 for 0), undefined;
 * a rule with any other parameter (a `Date`, a group, a list of groups) is made fresh. At most
 * `LIMIT` rules per kind, so limits computed from data cannot grow it without bound; and only
 * short text and short lists are kept: an app may pass a visitor's text into a rule
 * (`rule(ok, `${values.name} is taken`)`, `after(values.start)`), which must not stay in memory
 * for the life of the process, nor fill the room the app's own constant rules need.
 */
const LIMIT = 256;
/** Longer text is a visitor's, not a constant of the app's rules: never kept. */
const MAX_KEY_LENGTH = 128;
/** Lists of more parameters (`oneOf(...)` of a table's rows) are made fresh. */
const MAX_KEYS = 8;

interface Node {
  rule: Rule | undefined;
  children: Map<unknown, Node> | undefined;
}

type Key = string | number | boolean | undefined;

function isKey(value: unknown): value is Key {
  const type = typeof value;
  return (type === 'string' && (value as string).length <= MAX_KEY_LENGTH) || type === 'boolean' || value === undefined || (type === 'number' && !Object.is(value, -0));
}

export class RuleMemo {
  private readonly root: Node = { rule: undefined, children: undefined };
  private kept = 0;

  /** The rule kept for the parameter `a`, else undefined. */
  find(a: unknown): Rule | undefined {
    return Object.is(a, -0) ? undefined : this.root.children?.get(a)?.rule;
  }

  /** The rule kept for the parameters `a`, `b`, else undefined. */
  find2(a: unknown, b: unknown): Rule | undefined {
    return Object.is(a, -0) || Object.is(b, -0) ? undefined : this.root.children?.get(a)?.children?.get(b)?.rule;
  }

  /** The rule kept for the items of `list`, in order, else undefined. */
  findList(list: readonly unknown[]): Rule | undefined {
    let node: Node | undefined = this.root;
    for (let index = 0; index < list.length && node !== undefined; index++) {
      const key = list[index];
      node = Object.is(key, -0) ? undefined : node.children?.get(key);
    }
    return node?.rule;
  }

  /** Keeps `rule` for the parameters `keys` when they can be keys and there is room; returns it. */
  keep(keys: readonly unknown[], rule: Rule): Rule {
    if (this.kept >= LIMIT || keys.length > MAX_KEYS || !keys.every(isKey)) return rule;
    let node = this.root;
    for (const key of keys) {
      node.children ??= new Map();
      let child = node.children.get(key);
      if (child === undefined) {
        child = { rule: undefined, children: undefined };
        node.children.set(key, child);
      }
      node = child;
    }
    if (node.rule === undefined) this.kept++;
    node.rule = rule;
    return rule;
  }
}
