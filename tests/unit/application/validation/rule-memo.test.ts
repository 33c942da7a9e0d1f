import { describe, expect, it } from 'vitest';
import { RuleMemo } from '../../../../application/validation/rule-memo.js';
import { FieldRules } from '../../../../application/validation/field-rules.js';
import { before, max } from '../../../../domain/validation/rules.js';
import type { FormatChecks } from '../../../../domain/validation/format-checks.js';
import { validatorFormatChecks } from '../../../../adapters/validation/validator-format-checks.js';

const ruleOf = (chain: FieldRules) => chain.first?.rule;

describe('rules kept by their parameters (a form’s rules() runs on every validation)', () => {
  it('equal parameters give the same rule, other parameters another', () => {
    const made = (build: (chain: FieldRules) => FieldRules) => ruleOf(build(new FieldRules('x', 1)));
    expect(made((c) => c.max(254))).toBe(made((c) => c.max(254)));
    expect(made((c) => c.max(254))).not.toBe(made((c) => c.max(255)));
    expect(made((c) => c.between(2, 80))).toBe(made((c) => c.between(2, 80)));
    expect(made((c) => c.between(2, 80))).not.toBe(made((c) => c.between(80, 2)));
    expect(made((c) => c.gte(5))).not.toBe(made((c) => c.gte('5')));
    expect(made((c) => c.startsWith('INV-', 'CRN-'))).toBe(made((c) => c.startsWith('INV-', 'CRN-')));
    expect(made((c) => c.startsWith('INV-'))).not.toBe(made((c) => c.startsWith('INV-', 'CRN-')));
    expect(made((c) => c.notMatches(/--/u))).toBe(made((c) => c.notMatches(/--/u)));
    expect(made((c) => c.notMatches(/--/u))).not.toBe(made((c) => c.notMatches(/--/iu)));
    // A Date is no key (it could change): a fresh rule each time.
    const day = new Date('2020-01-01');
    expect(made((c) => c.before(day))).not.toBe(made((c) => c.before(day)));
  });

  it('keeps no rule for -0, objects, or past its limit', () => {
    const memo = new RuleMemo();
    const rule = max(1);
    memo.keep([0], rule);
    expect(memo.find(0)).toBe(rule);
    expect(memo.find(-0)).toBeUndefined();
    memo.keep([{}], max(2));
    expect(memo.findList([{}])).toBeUndefined();
    for (let n = 1; n < 1000; n++) memo.keep([n], max(n));
    expect(memo.find(200)).toBeDefined();
    expect(memo.find(999)).toBeUndefined();
  });

  it('keeps no rule made from long text or a long list: a visitor’s text passed into a rule is not held for the life of the process', () => {
    const memo = new RuleMemo();
    const visitorText = 'x'.repeat(1_000_000);
    memo.keep([visitorText], max(3));
    expect(memo.find(visitorText)).toBeUndefined();
    const constant = 'y'.repeat(128);
    memo.keep([constant], max(4));
    expect(memo.find(constant)).toBeDefined();
    const many = Array.from({ length: 9 }, (_, n) => `p${n}`);
    memo.keep(many, max(5));
    expect(memo.findList(many)).toBeUndefined();
    const few = many.slice(0, 8);
    memo.keep(few, max(6));
    expect(memo.findList(few)).toBeDefined();
    // Through a form's rules: the same long text twice gives two rules, nothing kept.
    const made = () => new FieldRules('x', 1).startsWith(visitorText).first?.rule;
    expect(made()).not.toBe(made());
  });

  it('a fixed date is read again by other format checks', () => {
    const rule = before('2010-01-01');
    const scope = (formats: FormatChecks) => ({ field: 'd', formats, other: () => undefined });
    expect(rule.check('2000-01-01', scope(validatorFormatChecks))).toBeNull();
    const later: FormatChecks = { ...validatorFormatChecks, date: (text) => (text === '2010-01-01' ? Date.UTC(1990, 0, 1) : validatorFormatChecks.date(text)) };
    expect(rule.check('2000-01-01', scope(later))).not.toBeNull();
  });
});
