import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindingParameter, foundQuery, modelBinding, parseKey, singular } from '../../../../../domain/http/routing/model-binding.js';
import type { BindingParameter, Conditions, FoundQuery, KeyKind } from '../../../../../domain/http/routing/model-binding.js';

const products = modelBinding('products');
const posts = modelBinding('posts', { columns: ['slug'], softDeletes: true });
const tokens = modelBinding('api_tokens', { keyKind: 'ulid', param: 'token', softDeletes: 'revoked_at' });

describe('singular: the parameter a table goes by', () => {
  it.each([
    ['products', 'product'],
    ['categories', 'category'],
    ['addresses', 'address'],
    ['boxes', 'box'],
    ['matches', 'match'],
    ['wishes', 'wish'],
    ['api_tokens', 'api_token'],
    ['keys', 'key'],
    ['days', 'day'],
    ['status', 'status'],
    ['campus', 'campus'],
    ['axis', 'axis'],
    ['class', 'class'],
    ['people', 'people'],
    ['data', 'data'],
  ])('%s → %s', (table, param) => {
    expect(singular(table)).toBe(param);
  });
});

describe('modelBinding', () => {
  it('defaults to the integer key id, the singular parameter, no columns and no soft deletes', () => {
    expect(products).toEqual({ table: 'products', key: 'id', keyKind: 'integer', param: 'product', columns: [], softDeleteColumn: null });
    expect(posts.softDeleteColumn).toBe('deleted_at');
    expect(tokens).toMatchObject({ keyKind: 'ulid', param: 'token', softDeleteColumn: 'revoked_at' });
    expect(Object.isFrozen(products)).toBe(true);
  });

  it.each<[string, string, Parameters<typeof modelBinding>[1]]>([
    ['table', 'Products', {}],
    ['table', 'products; DROP', {}],
    ['key', 'products', { key: 'Id' }],
    ['column', 'posts', { columns: ['slug', 'e-mail'] }],
    ['soft-delete column', 'posts', { softDeletes: 'deleted at' }],
    ['parameter', 'posts', { param: 'a-b' }],
    ['keyKind', 'posts', { keyKind: 'bigint' as KeyKind }],
  ])('refuses a bad %s name with a TypeError', (_what, table, options) => {
    expect(() => modelBinding(table, options)).toThrow(TypeError);
  });
});

describe('parseKey', () => {
  it.each<[KeyKind, string, string | number | null]>([
    ['integer', '42', 42],
    ['integer', '007', 7],
    ['integer', '-3', -3],
    ['integer', '9007199254740991', 9007199254740991],
    ['integer', '9007199254740992', null],
    ['integer', '1.5', null],
    ['integer', '1e3', null],
    ['integer', ' 1', null],
    ['integer', '0x10', null],
    ['integer', '', null],
    ['integer', 'abc', null],
    ['ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['ulid', '01arz3ndektsv4rrffq69g5fav', '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['ulid', '81ARZ3NDEKTSV4RRFFQ69G5FAV', null],
    ['ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAI', null],
    ['ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA', null],
    ['ulid', '42', null],
    ['uuid', '0B9F7C2E-4A51-4B8E-9D3C-2F6A1E8B7C90', '0b9f7c2e-4a51-4b8e-9d3c-2f6a1e8b7c90'],
    ['uuid', '00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000000'],
    ['uuid', '0b9f7c2e4a514b8e9d3c2f6a1e8b7c90', null],
    ['uuid', '{0b9f7c2e-4a51-4b8e-9d3c-2f6a1e8b7c90}', null],
    ['uuid', '0b9f7c2e-4a51-4b8e-9d3c-2f6a1e8b7c9g', null],
    ['uuid', '42', null],
  ])('%s %j → %j', (kind, text, expected) => {
    expect(parseKey(kind, text)).toBe(expected);
  });

  it('reads back every safe integer, ULID and UUID it is given, and refuses everything else of another shape', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => parseKey('integer', String(n)) === n));
    fc.assert(fc.property(fc.ulid(), (id) => parseKey('ulid', id) === id.toUpperCase()));
    fc.assert(fc.property(fc.uuid(), (id) => parseKey('uuid', id.toUpperCase()) === id.toLowerCase()));
    fc.assert(
      fc.property(fc.string(), fc.constantFrom<KeyKind>('integer', 'ulid', 'uuid'), (text, kind) => {
        const parsed = parseKey(kind, text);
        // Whatever parses is the same text up to case (and leading zeros for integers).
        return parsed === null || String(parsed).toLowerCase() === text.toLowerCase().replace(/^(-?)0+(?=\d)/u, '$1');
      }),
    );
  });
});

describe('bindingParameter: rule 1', () => {
  it.each<[string, readonly string[], string | undefined, BindingParameter]>([
    ['the parameter named after the model', ['team', 'product'], undefined, { kind: 'parameter', name: 'product' }],
    ['else the only parameter', ['id'], undefined, { kind: 'parameter', name: 'id' }],
    ['an explicit choice', ['team', 'item'], 'item', { kind: 'parameter', name: 'item' }],
    ['an explicit choice over the model name', ['product', 'other'], 'other', { kind: 'parameter', name: 'other' }],
    ['not an explicit parameter the route lacks', ['product'], 'item', { kind: 'none', reason: 'the route has no parameter {item}' }],
    ['not with no parameters', [], undefined, { kind: 'none', reason: 'the route has no parameters and none is named {product}' }],
    ['not with two others', ['team', 'item'], undefined, { kind: 'none', reason: 'the route has the parameters {team}, {item} and none is named {product}' }],
  ])('%s', (_case, names, explicit, expected) => {
    expect(bindingParameter(products, names, explicit)).toEqual(expected);
  });
});

describe('foundQuery: rules 2 and 3', () => {
  const find = (table: string, where: Record<string, string | number | null>): FoundQuery => ({ kind: 'find', table, where });
  it.each<[string, Parameters<typeof foundQuery>, FoundQuery]>([
    ['an integer key', [products, { product: '42' }], find('products', { id: 42 })],
    ['an unparsable key is no row', [products, { product: 'abc' }], { kind: 'no-row' }],
    ['the only parameter, as the key', [products, { id: '7' }], find('products', { id: 7 })],
    ['a parameter named after a column, by that column', [posts, { slug: 'hello-world' }], find('posts', { slug: 'hello-world', deleted_at: null })],
    ['a column value is any text', [posts, { slug: '42 abc' }], find('posts', { slug: '42 abc', deleted_at: null })],
    ['the model parameter is the key even with columns', [posts, { post: '3' }], find('posts', { id: 3, deleted_at: null })],
    ['a ULID key, upper-cased, with another soft-delete column', [tokens, { token: '01arz3ndektsv4rrffq69g5fav' }], find('api_tokens', { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', revoked_at: null })],
    ['the scope adds its conditions', [posts, { post: '3' }, { team_id: 9 }], find('posts', { team_id: 9, id: 3, deleted_at: null })],
    ['a scope null condition', [products, { product: '3' }, { archived_at: null }], find('products', { archived_at: null, id: 3 })],
    ['a scope agreeing with the key', [products, { product: '3' }, { id: '3' }], find('products', { id: 3 })],
    ['a scope contradicting the key is no row', [products, { product: '3' }, { id: 4 }], { kind: 'no-row' }],
    ['a scope contradicting soft deletes is no row', [posts, { post: '3' }, { deleted_at: 5 }], { kind: 'no-row' }],
    ['a scope with a bad column name', [products, { product: '3' }, { 'team id': 1 }], { kind: 'misuse', reason: `the scope of 'products' names the column "team id", which is not a plain identifier` }],
    ['two parameters, none named after the model', [products, { a: '1', b: '2' }], { kind: 'misuse', reason: 'the route has the parameters {a}, {b} and none is named {product}' }],
    ['an explicit parameter', [products, { team: '1', item: '2' }, {}, 'item'], find('products', { id: 2 })],
  ])('%s', (_case, args, expected) => {
    const query = foundQuery(...args);
    expect(query.kind === 'find' ? { ...query, where: { ...query.where } } : query).toEqual(expected);
  });

  it('never queries for a parameter that is not a key, and always keeps the scope and the soft-delete condition', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.dictionary(fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/u), fc.oneof(fc.integer(), fc.string(), fc.constant(null))), (text, scope: Conditions) => {
        const query = foundQuery(posts, { post: text }, scope);
        const key = parseKey('integer', text);
        if (key === null) return query.kind === 'no-row';
        if (query.kind !== 'find') return 'id' in scope || 'deleted_at' in scope;
        return query.where['id'] === key && query.where['deleted_at'] === null && Object.keys(scope).every((name) => name in query.where);
      }),
    );
  });

  it('keeps a scope column called __proto__ as a plain condition', () => {
    const query = foundQuery(products, { product: '1' }, JSON.parse('{"__proto__": 5}') as Conditions);
    expect(query.kind === 'find' && Object.entries(query.where)).toEqual([['__proto__', 5], ['id', 1]]);
  });
});
