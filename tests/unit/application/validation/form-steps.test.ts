import { describe, expect, it } from 'vitest';
import type { RecordLookupBatch } from '../../../../ports/record-lookup.js';
import { validateForm } from '../../../../application/validation/validate-form.js';
import type { FormServiceKey } from '../../../../application/validation/form-context.js';
import { asIs, context } from './support.js';

describe('form request steps, outside HTTP (a CSV row, a command, a job)', () => {
  it('an input field named __proto__ stays a field: the values the rules see inherit nothing from it', async () => {
    // A form body may hold an own `__proto__` key (node's querystring keeps it as one).
    const input = JSON.parse('{"__proto__": ["planted", "b", "c"], "x": "1"}') as Record<string, unknown>;
    const onlyX = { parse: (raw: unknown) => ({ ok: true as const, value: { x: (raw as Record<string, unknown>)['x'] } }) };
    let seen: Record<string, unknown> = {};
    const result = await validateForm({ shape: onlyX, rules: (_v, values) => void (seen = values) }, input, context());
    expect(result).toEqual({ kind: 'valid', value: { x: '1' } });
    // With the list as the values' prototype, `values[0]` read 'planted' and `values.length` 3.
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(seen['0']).toBeUndefined();
    expect(seen['__proto__']).toEqual(['planted', 'b', 'c']);
  });

  it('prepare, authorize (false: forbidden), rules, after with errors.add', async () => {
    const steps: string[] = [];
    const form = (allow: boolean) => ({
      shape: asIs,
      prepare: (input: unknown) => (steps.push('prepare'), { ...(input as object), name: 'Ada' }),
      authorize: () => (steps.push('authorize'), allow),
      rules: () => void steps.push('rules'),
      after: (value: Record<string, unknown>, errors: { add(field: string, message: string): void }) => {
        steps.push('after');
        if (value['name'] === 'Ada') errors.add('name', 'Taken by a legend.');
      },
    });
    expect(await validateForm(form(false), {}, context())).toEqual({ kind: 'forbidden' });
    expect(steps).toEqual(['prepare', 'authorize']);
    steps.length = 0;
    expect(await validateForm(form(true), {}, context())).toEqual({ kind: 'invalid', errors: { name: ['Taken by a legend.'] } });
    expect(steps).toEqual(['prepare', 'authorize', 'rules', 'after']);
  });

  it('FormContext gives the user and the app’s services', async () => {
    const greeting: FormServiceKey<string> = Symbol('greeting');
    const services = <T>(key: FormServiceKey<T>): T => (key === greeting ? 'hello' : undefined) as T;
    const result = await validateForm(
      { shape: asIs, rules: (v, _value, ctx) => void v.field('x').rule(ctx.services?.(greeting) === 'hello' && ctx.user?.id === 1, 'No.') },
      {},
      context({ services }),
    );
    expect(result.kind).toBe('valid');
  });

  it('database rules run after the others, batched into one query per rule and table, and not for a field that already failed', async () => {
    const batches: string[][] = [];
    let inFlight = 0;
    let most = 0;
    const records = {
      exists(): Promise<boolean> {
        throw new Error('each value was asked on its own instead of in a batch');
      },
      async existsEach(batch: RecordLookupBatch): Promise<boolean[]> {
        batches.push([batch.table, ...batch.probes.map(({ column, value }) => `${column}=${value}`)]);
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return batch.probes.map(({ value }) => value === 'taken' || value === 'books');
      },
    };
    const result = await validateForm(
      {
        shape: asIs,
        rules(v) {
          v.field('a').unique('users', 'email').email();
          v.field('b').unique('users', 'email');
          v.field('c').unique('users', 'email');
          v.field('d').unique('users', 'name');
          v.each('tags', (tag) => tag.exists('categories', 'slug'));
        },
      },
      { a: 'not an email', b: 'b@example.com', c: 'c@example.com', d: 'taken', tags: ['books', 'films', 'books', 'films'] },
      context({ records }),
    );
    expect(result).toEqual({
      kind: 'invalid',
      errors: {
        a: ['The a field must be a valid email address.'],
        d: ['The d has already been taken.'],
        'tags.1': ['The selected tags item 2 is invalid.'],
        'tags.3': ['The selected tags item 4 is invalid.'],
      },
    });
    // One query per rule and table, each value once; the two tables asked at the same time.
    expect(batches).toEqual([
      ['users', 'email=b@example.com', 'email=c@example.com', 'name=taken'],
      ['categories', 'slug=books', 'slug=films'],
    ]);
    expect(most).toBe(2);
  });

  it('keeps each unique rule’s ignored row with its own lookup in the one query', async () => {
    const batches: unknown[] = [];
    const records = {
      exists: () => Promise.reject(new Error('not batched')),
      existsEach: (batch: RecordLookupBatch) => (batches.push(batch.probes.map((probe) => probe.ignore ?? null)), Promise.resolve(batch.probes.map(() => false))),
    };
    await validateForm(
      { shape: asIs, rules: (v) => (v.field('a').unique('users', 'email').ignore(1), void v.field('b').unique('users', 'email').ignore(2)) },
      { a: 'a@example.com', b: 'b@example.com' },
      context({ records }),
    );
    expect(batches).toEqual([[{ column: 'id', value: 1 }, { column: 'id', value: 2 }]]);
  });

  it('an async rule is awaited in place: the rest of its chain and the later fields run after it, each rule seeing its own field', async () => {
    const seen: string[] = [];
    const slow = (passes: boolean) => ({
      name: 'slow',
      async check(_value: unknown, scope: { field: string }) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(`slow ${scope.field}`);
        return passes ? null : { key: 'Slowly refused.' };
      },
    });
    const traced = (passes: boolean) => ({ name: 'traced', check: (_value: unknown, scope: { field: string }) => (seen.push(`sync ${scope.field}`), passes ? null : { key: 'Refused.' }) });
    const result = await validateForm(
      {
        shape: asIs,
        rules(v) {
          v.field('a').apply(traced(true)).apply(slow(false)).apply(traced(false));
          v.field('b').apply(slow(true)).apply(slow(false));
          v.field('c').apply(traced(false));
          v.field('d').required().apply(slow(false)); // missing: the presence failure ends the chain
        },
      },
      { a: 'x', b: 'y', c: 'z' },
      context(),
    );
    expect(result).toEqual({
      kind: 'invalid',
      errors: { a: ['Slowly refused.', 'Refused.'], b: ['Slowly refused.'], c: ['Refused.'], d: ['The d field is required.'] },
    });
    expect(seen).toEqual(['sync a', 'slow a', 'sync a', 'slow b', 'slow b', 'sync c']);
  });

  it('reports every field at once', async () => {
    const result = await validateForm(
      { shape: asIs, rules: (v) => (v.field('a').required(), v.field('b').email(), void v.field('c').min(3)) },
      { b: 'x', c: 'ab' },
      context(),
    );
    expect(result.kind === 'invalid' && Object.keys(result.errors)).toEqual(['a', 'b', 'c']);
  });

  it('custom messages and attribute names from the language files, as in Laravel', async () => {
    const { Lang } = await import('../../../../domain/lang/lang.js');
    const { english } = await import('../../../support/lang.js');
    const lang = new Lang('en', [
      { 'validation.custom.email.required': 'We need your email.', 'validation.attributes.dob': 'date of birth', 'validation.custom.tags.*.max': 'Keep tags short.' },
      ...[english].map((l) => ({ 'validation.required': l.t('validation.required'), 'validation.max.string.other': l.t('validation.max.string.other') })),
    ]);
    const result = await validateForm(
      { shape: asIs, rules: (v) => (v.field('email').required(), v.field('dob').required(), void v.each('tags', (t) => t.max(2))) },
      { tags: ['abc'] },
      context({ lang }),
    );
    expect(result).toEqual({
      kind: 'invalid',
      errors: { email: ['We need your email.'], dob: ['The date of birth field is required.'], 'tags.0': ['Keep tags short.'] },
    });
  });
});
