import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { column, key } from '../../../../domain/data/columns.js';
import { checkConditions } from '../../../../domain/data/conditions.js';
import { defineModel, ModelDefinitionError } from '../../../../domain/data/model.js';
import type { NewRowOf, RowOf } from '../../../../domain/data/model.js';
import { clampPerPage, MAX_PER_PAGE, pageNumbers } from '../../../../domain/data/pages.js';
import { createTableSql } from '../../../../domain/data/table-sql.js';

const Post = defineModel('posts', { title: column.string(), body: column.string().nullable(), views: column.integer().default(0), secret: column.encrypted().nullable() }, { softDeletes: true, search: ['title'] });

describe('defineModel', () => {
  it.each([
    ['a table name that is not an identifier', () => defineModel('Posts', {}), /table name "Posts"/u],
    ['a field name that is not an identifier', () => defineModel('posts', { 'Title': column.string() }), /field name "Title"/u],
    ['a key on another field', () => defineModel('posts', { uid: key.ulid() }), /key must be the field 'id'/u],
    ['id as a plain column', () => defineModel('posts', { id: column.string() }), /field 'id' is the key/u],
    ['a timestamp given by hand', () => defineModel('posts', { created_at: column.timestamp() }), /managed by fw/u],
    ['deleted_at given with softDeletes', () => defineModel('posts', { deleted_at: column.timestamp() }, { softDeletes: true }), /managed by fw/u],
    ['a search column that is not a column', () => defineModel('posts', { title: column.string() }, { search: ['titel' as 'title'] }), /search column 'titel' is not one of its columns/u],
    ['an encrypted search column', () => defineModel('posts', { title: column.encrypted() }, { search: ['title'] }), /encrypted values cannot be searched/u],
    ['an enum without values', () => defineModel('posts', { state: column.enum([]) }), /needs at least one value/u],
  ])('stops on %s, naming it', (_name, define, message) => {
    expect(define).toThrow(ModelDefinitionError);
    expect(define).toThrow(message);
  });

  it('adds the managed columns and reads the key type', () => {
    expect([...Post.columns.keys()]).toEqual(['title', 'body', 'views', 'secret', 'created_at', 'updated_at', 'deleted_at']);
    expect(Post.key.type).toBe('integer');
    expect(defineModel('tags', { id: key.ulid() }, { timestamps: false }).columns.size).toBe(0);
  });

  it('gives the static row and create types from the same definition', () => {
    const row: RowOf<typeof Post> = { id: 1, title: 't', body: null, views: 0, secret: null, created_at: null, updated_at: null, deleted_at: null };
    const fresh: NewRowOf<typeof Post> = { title: 't' };
    // @ts-expect-error: title is required when creating
    const missing: NewRowOf<typeof Post> = { body: 'b' };
    expect([row.id, fresh.title, missing.body]).toEqual([1, 't', 'b']);
  });

  it('refuses unknown columns, bad operators and encrypted conditions with stable codes', () => {
    expect(() => checkConditions(Post, [{ kind: 'compare', column: 'titel', op: '=', value: 1 }])).toThrow(expect.objectContaining({ code: 'unknown_column' }));
    expect(() => checkConditions(Post, [{ kind: 'compare', column: 'title', op: 'ilike', value: 1 }])).toThrow(expect.objectContaining({ code: 'bad_operator' }));
    expect(() => checkConditions(Post, [{ kind: 'group', join: 'or', conditions: [{ kind: 'null', column: 'secret', negate: false }] }])).toThrow(expect.objectContaining({ code: 'encrypted_condition' }));
  });

  it('writes the spec column types into CREATE TABLE for each engine', () => {
    expect(createTableSql(Post, 'sqlite')).toContain('"views" INTEGER NOT NULL');
    expect(createTableSql(Post, 'postgres')).toContain('"views" BIGINT NOT NULL');
    expect(createTableSql(Post, 'postgres')).toContain('"deleted_at" TIMESTAMPTZ\n');
    expect(createTableSql(defineModel('t', { id: key.uuid() }), 'sqlite')).toContain('"id" BLOB PRIMARY KEY');
  });
});

describe('page limits', () => {
  it('never gives more than 1000 rows a page, whatever is asked', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.constant(undefined)), (asked) => {
        const perPage = clampPerPage(asked);
        return Number.isInteger(perPage) && perPage >= 1 && perPage <= MAX_PER_PAGE;
      }),
    );
    expect(clampPerPage(5000)).toBe(1000);
    expect(pageNumbers(45, 20, 3)).toEqual({ lastPage: 3, offset: 40, from: 41, to: 45 });
    expect(pageNumbers(0, 20, 1)).toEqual({ lastPage: 1, offset: 0, from: null, to: null });
  });
});
