import { randomUUID } from 'node:crypto';
import { LockWaitTimeoutException, DeadlockException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Dictionary } from '@mikro-orm/core';
import type { EntityManager, Knex, QueryBuilder } from '@mikro-orm/knex';
import { ulid } from 'ulid';
import type { EngineName } from '../../../../domain/data/columns.js';
import { checkColumn } from '../../../../domain/data/conditions.js';
import { InvalidQuery } from '../../../../domain/data/invalid-query.js';
import type { ModelDefinition, NewRowOf, RowOf, ScopeParams } from '../../../../domain/data/model.js';
import type { Clock } from '../../../../ports/clock.js';
import type { SecretBox } from '../../../../ports/secret-box.js';
import type { Database } from '../database.js';
import type { PivotDefinition } from '../../../../domain/data/pivot.js';
import { firstColumnIndexName } from '../../../../domain/data/search.js';
import { dialectDatabase } from './dialect-orm.js';
import { entityName, entitySchemaFor, pivotEntityName, pivotEntitySchemaFor } from './entity-schema.js';
import { ModelQuery } from './model-query.js';
import type { ModelSession } from './model-session.js';
import { PivotRelation } from './pivot-relation.js';
import type { PivotSession } from './pivot-relation.js';
import { Relations } from './relations.js';
import { RowCodec } from './row-codec.js';
import { FrameworkError } from '../../../../domain/shared/errors.js';

export interface DbOptions {
  /** Models checked against their tables now; others are registered on first use. */
  readonly models?: readonly ModelDefinition[];
  /** Seals `column.encrypted()` values (an `AesGcmSecretBox` under `AppKeys.modelEncryption`). */
  readonly box: SecretBox;
  readonly clock: Clock;
}

/** What every `Db` of one database shares, inside transactions or not. */
interface Shared {
  readonly database: Database;
  readonly box: SecretBox;
  readonly clock: Clock;
  readonly codecs: Map<ModelDefinition, RowCodec>;
  /** SQLite: whether an index of each model's table leads with `created_at`, asked once (`latestIndexed`). */
  readonly latestIndexes: Map<ModelDefinition, Promise<boolean>>;
  /** PostgreSQL: whether each model's first search column has its own GIN index, asked once (`firstColumnIndexed`). */
  readonly firstColumnIndexes: Map<ModelDefinition, Promise<boolean>>;
}

/** A model's table or columns missing from the database: start-up stops with this message. */
export class ModelTableMismatch extends FrameworkError {
  constructor(message: string) {
    super('data.model-table-mismatch', message);
  }
}

/** A raw report: `db.sql('select …', [values]).fetchAs<Row>()`. */
export interface RawQuery {
  fetchAs<Row = Record<string, unknown>>(): Promise<Row[]>;
}

/** SQLite busy/locked and PostgreSQL serialization failure or deadlock: a retry can succeed. */
const RETRYABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', '40001', '40P01']);
/** Bound parameters per INSERT statement: under SQLite's 32 766 and PostgreSQL's 65 535. */
const PARAMETERS_PER_STATEMENT = 30_000;
/** knex writes a many-row INSERT on SQLite as a compound SELECT, which SQLite caps at 500 terms. */
const SQLITE_ROWS_PER_STATEMENT = 500;

/**
 * The data layer's handle on one database: `db.query(Model)` for the query builder, row
 * operations (`save`, `delete`, `refresh`), transactions and raw reports. Built on MikroORM's
 * QueryBuilder and EntityManager; inside `transaction` it is a `Db` of that transaction.
 */
export class Db implements ModelSession, PivotSession {
  private constructor(
    private readonly shared: Shared,
    private readonly em: EntityManager,
    private readonly inTransaction: boolean,
    private readonly scopeParams: ScopeParams = {},
  ) {}

  /**
   * This database with values for the models' default scopes: `db.withScope({ teamId: 7 })`
   * (per request, from the signed-in user). Every query of a scoped model then adds its scope.
   */
  withScope(params: ScopeParams): Db {
    return new Db(this.shared, this.em, this.inTransaction, Object.freeze({ ...params }));
  }

  scopeOf(model: ModelDefinition): Readonly<Record<string, unknown>> {
    return model.scope?.(this.scopeParams) ?? {};
  }

  /** A `Db` on an open database; models are registered with the ORM on first use. */
  static connect(database: Database, options: Omit<DbOptions, 'models'>): Db {
    return new Db({ database, box: options.box, clock: options.clock, codecs: new Map(), latestIndexes: new Map(), firstColumnIndexes: new Map() }, database.orm.em.fork() as unknown as EntityManager, false);
  }

  /** `connect`, then `verify(models)`. */
  static async open(database: Database, options: DbOptions): Promise<Db> {
    const db = Db.connect(database, options);
    await db.verify(options.models ?? []);
    return db;
  }

  /** This data layer on another engine's dialect, for `toSql(dialect)`: it compiles statements, and runs none. */
  inDialect(engine: EngineName): Db {
    if (engine === this.engine) return this;
    const database = dialectDatabase(engine);
    return new Db({ database, box: this.shared.box, clock: this.shared.clock, codecs: new Map(), latestIndexes: new Map(), firstColumnIndexes: new Map() }, database.orm.em.fork() as unknown as EntityManager, false, this.scopeParams);
  }

  /** Registers the models with the ORM and checks each against its table: a missing table or column stops start-up, naming it. */
  async verify(models: readonly ModelDefinition[]): Promise<void> {
    for (const model of models) {
      this.codec(model);
      await this.verifyTable(model);
    }
  }

  get engine(): EngineName {
    return this.shared.database.engine;
  }

  /** A query over `model`: `db.query(Product).where('price', '>', 100).latest().get()`. */
  query<M extends ModelDefinition>(model: M): ModelQuery<M> {
    this.codec(model);
    return new ModelQuery(this, model);
  }

  /** The relation loaders: `db.relations.hasMany(users, Post, 'user_id')`, one statement each. */
  get relations(): Relations {
    return new Relations(this);
  }

  /** The links of a pivot table: `db.pivot(PostTags).sync(post.id, [tag.id])`, `loadWithPivot(posts)`. */
  pivot<P extends PivotDefinition>(pivot: P): PivotRelation<P> {
    return new PivotRelation(this, pivot);
  }

  /** Shorthand for `db.query(model).create(values)`. */
  create<M extends ModelDefinition>(model: M, values: NewRowOf<M>): Promise<RowOf<M>> {
    return this.query(model).create(values);
  }

  /** Inserts a row without a key, or updates every column of the row with this key (and `updated_at`). */
  async save<M extends ModelDefinition>(model: M, row: RowOf<M>): Promise<RowOf<M>> {
    return (await this.saveRow(model, row)) as RowOf<M>;
  }

  /** Only these columns of a saved row (and `updated_at`), with the hooks. */
  async saveOnly<M extends ModelDefinition>(model: M, row: RowOf<M>, columns: readonly (keyof RowOf<M> & string)[]): Promise<RowOf<M>> {
    return (await this.updateRow(model, row, columns)) as RowOf<M>;
  }

  /**
   * `changes` to a saved row, writing only the columns whose value differs. `saving` runs even
   * when nothing changed; then no query is sent and `saved` does not run.
   */
  async saveChanges<M extends ModelDefinition>(model: M, row: RowOf<M>, changes: Partial<RowOf<M>>): Promise<RowOf<M>> {
    const draft: Record<string, unknown> = { ...row, ...changes };
    await model.hooks.saving?.(draft, false);
    const original = row as Record<string, unknown>;
    const changed = Object.keys(draft).filter((name) => name !== 'id' && model.columns.has(name) && !sameValue(draft[name], original[name]));
    if (changed.length === 0) return draft as RowOf<M>;
    return (await this.updateRow(model, draft, changed, false)) as RowOf<M>;
  }

  /** Deletes this row: sets `deleted_at` on a model with soft deletes. `deleting` may stop it by throwing. */
  async delete<M extends ModelDefinition>(model: M, row: RowOf<M>): Promise<RowOf<M>> {
    if (!model.softDeletes) return this.forceDelete(model, row);
    await model.hooks.deleting?.(row);
    const deletedAt = this.now();
    await this.query(model).withTrashed().where('id' as never, row.id as never).update({ deleted_at: deletedAt } as never);
    const deleted = { ...row, deleted_at: deletedAt, ...(model.timestamps ? { updated_at: deletedAt } : {}) };
    await model.hooks.deleted?.(deleted);
    return deleted;
  }

  /** Removes this row for good, with the hooks. */
  async forceDelete<M extends ModelDefinition>(model: M, row: RowOf<M>): Promise<RowOf<M>> {
    await model.hooks.deleting?.(row);
    await this.query(model).withTrashed().where('id' as never, row.id as never).forceDelete();
    await model.hooks.deleted?.(row);
    return row;
  }

  /** Brings a soft-deleted row back. */
  async restore<M extends ModelDefinition>(model: M, row: RowOf<M>): Promise<RowOf<M>> {
    await this.query(model).onlyTrashed().where('id' as never, row.id as never).restore();
    return { ...row, deleted_at: null };
  }

  /** The row as the database holds it now (trashed or not), or null when it is gone. */
  refresh<M extends ModelDefinition>(model: M, row: RowOf<M>): Promise<RowOf<M> | null> {
    return this.query(model).withTrashed().find(row.id);
  }

  /** Runs `work` in one transaction: commits when it resolves, rolls back when it throws. Nested calls use savepoints. */
  async transaction<T>(work: (db: Db) => Promise<T>): Promise<T> {
    // The connection's own transaction, not `em.transactional`: that one runs MikroORM's
    // AsyncLocalStorages (its transaction context, its flush guard), and on Node 20 running any
    // AsyncLocalStorage turns on promise hooks for every promise of the process from then on
    // (docs/decisions.md). Nothing here needs them: every statement names its transaction
    // (`em.getTransactionContext()`), and rows are never flushed through a unit of work.
    const em = this.em.fork({ clear: true });
    const outer = this.em.getTransactionContext<Knex.Transaction>();
    return this.em.getConnection('write').transactional(async (trx) => {
      em.setTransactionContext(trx);
      const db = new Db(this.shared, em, true, this.scopeParams);
      // SQLite starts transactions with a deferred BEGIN: two writers that both read first
      // then fail on the lock upgrade instead of waiting. Taking the write lock first (what
      // BEGIN IMMEDIATE does) makes the second writer wait for the busy timeout instead.
      if (this.engine === 'sqlite' && !this.inTransaction) await db.sql('delete from "migrations" where 0').fetchAs();
      return work(db);
    }, outer === undefined ? {} : { ctx: outer });
  }

  /**
   * `transaction`, tried up to `attempts` times while it fails on SQLite's busy lock or a
   * PostgreSQL serialization failure or deadlock; any other error rolls back and is thrown.
   */
  async transactionRetrying<T>(attempts: number, work: (db: Db) => Promise<T>): Promise<T> {
    const tries = Math.max(1, Math.floor(attempts));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transaction(work);
      } catch (error) {
        if (attempt >= tries || !isRetryable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 ** attempt) * Math.random()));
      }
    }
  }

  /** SQL of the app's own with `?` placeholders, values bound: `db.sql('select …', [x]).fetchAs<Row>()`. */
  sql(text: string, values: readonly unknown[] = []): RawQuery {
    return {
      fetchAs: async <Row>() => {
        const result: unknown = await this.em.getConnection().execute(text, [...values], 'all', this.em.getTransactionContext());
        return (Array.isArray(result) ? result : []) as Row[];
      },
    };
  }

  // ── ModelSession and PivotSession ──────────────────────────────────────

  /**
   * SQLite: whether an index of the model's table leads with `created_at`, so `latest()` can walk
   * it (the search migration makes one; an app may have its own). Asked once per model and
   * database: an index made later is not seen until restart (its pages keep the other plan).
   */
  latestIndexed(model: ModelDefinition): Promise<boolean> {
    if (this.engine !== 'sqlite' || !model.timestamps) return Promise.resolve(false);
    let known = this.shared.latestIndexes.get(model);
    if (known === undefined) {
      known = this.sql(`select 1 as found from pragma_index_list(?) as list where exists (select 1 from pragma_index_info(list.name) as info where info.seqno = 0 and info.name = 'created_at')`, [model.table])
        .fetchAs()
        .then((rows) => rows.length > 0);
      // A failed look (a closed database) is asked again next time.
      known.catch(() => this.shared.latestIndexes.delete(model));
      this.shared.latestIndexes.set(model, known);
    }
    return known;
  }

  /**
   * PostgreSQL: whether the model's table has the first search column's GIN index
   * (`firstColumnIndexName`; search migrations made before it lack it). Asked once per model and
   * database, like `latestIndexed`.
   */
  firstColumnIndexed(model: ModelDefinition): Promise<boolean> {
    if (this.engine !== 'postgres' || model.search.length !== 2) return Promise.resolve(false);
    let known = this.shared.firstColumnIndexes.get(model);
    if (known === undefined) {
      // The index must be on the model's language as it is now: one made under another (the model's
      // `searchLanguage` changed since its migration) would find rows by other word forms than the
      // full ranking's, and the planner could not use it for the tier's expression anyway.
      const language = `to_tsvector('${model.searchLanguage}'::regconfig,`;
      const column = new RegExp(`\\b${model.search[0] ?? ''}\\b`, 'u');
      known = this.sql(`select indexdef from pg_indexes where schemaname = any (current_schemas(false)) and tablename = ? and indexname = ?`, [model.table, firstColumnIndexName(model)])
        .fetchAs<{ indexdef: string }>()
        .then((rows) => rows.some(({ indexdef }) => indexdef.includes(language) && column.test(indexdef)));
      known.catch(() => this.shared.firstColumnIndexes.delete(model));
      this.shared.firstColumnIndexes.set(model, known);
    }
    return known;
  }

  pivotCodec(pivot: PivotDefinition): RowCodec {
    let codec = this.shared.codecs.get(pivot.tableModel);
    if (codec === undefined) {
      const { orm } = this.shared.database;
      if (orm.getMetadata().find(pivotEntityName(pivot)) === undefined) orm.discoverEntity(pivotEntitySchemaFor(pivot, this.engine));
      codec = new RowCodec(pivot.tableModel, this.engine, this.shared.box);
      this.shared.codecs.set(pivot.tableModel, codec);
    }
    return codec;
  }

  pivotBuilder(pivot: PivotDefinition): QueryBuilder<Dictionary> {
    this.pivotCodec(pivot);
    return this.em.createQueryBuilder<Dictionary>(pivotEntityName(pivot));
  }

  knex(): Knex {
    return this.em.getKnex();
  }

  async runKnex(query: Knex.QueryBuilder): Promise<Dictionary[]> {
    const result: unknown = await this.em.getConnection().execute(query, [], 'all', this.em.getTransactionContext());
    return (Array.isArray(result) ? result : []) as Dictionary[];
  }

  codec(model: ModelDefinition): RowCodec {
    let codec = this.shared.codecs.get(model);
    if (codec === undefined) {
      const { orm } = this.shared.database;
      if (orm.getMetadata().find(entityName(model)) === undefined) orm.discoverEntity(entitySchemaFor(model, this.engine));
      codec = new RowCodec(model, this.engine, this.shared.box);
      this.shared.codecs.set(model, codec);
    }
    return codec;
  }

  builder(model: ModelDefinition): QueryBuilder<Dictionary> {
    return this.em.createQueryBuilder<Dictionary>(entityName(model));
  }

  now(): Date {
    return this.shared.clock.now();
  }

  encodeChanges(model: ModelDefinition, values: Record<string, unknown>): Dictionary {
    const codec = this.codec(model);
    const set: Dictionary = {};
    for (const [name, value] of Object.entries(values)) {
      if (model.skipped.has(name)) continue;
      checkColumn(model, name, 'write');
      if (name === 'id') throw new InvalidQuery('update_sets_key', `An update cannot set '${model.table}.id'`);
      set[name] = codec.encode(name, value);
    }
    if (model.timestamps && !('updated_at' in values)) set['updated_at'] = codec.encode('updated_at', this.now());
    return set;
  }

  newRow(model: ModelDefinition, values: Record<string, unknown>): Record<string, unknown> {
    this.codec(model);
    for (const name of Object.keys(values)) if (!model.skipped.has(name)) checkColumn(model, name, 'write');
    const row: Record<string, unknown> = { id: values['id'] ?? (model.key.type === 'integer' ? 0 : '') };
    for (const [name, spec] of model.columns) {
      const given = values[name];
      row[name] = given !== undefined ? given : spec.defaultValue !== null ? spec.defaultValue.value : null;
    }
    for (const [name, fallback] of model.skipped) row[name] = fallback();
    return row;
  }

  async insertRow(model: ModelDefinition, values: Record<string, unknown>): Promise<Record<string, unknown>> {
    const draft = { ...values };
    await model.hooks.saving?.(draft, true);
    const { row, stored } = this.prepareInsert(model, draft);
    const result = await this.builder(model).insert(stored).execute<{ insertId?: unknown }>('run', false);
    if (model.key.type === 'integer' && (row['id'] === 0 || row['id'] === null)) row['id'] = Number(result.insertId);
    await model.hooks.saved?.(row, true);
    return row;
  }

  async insertRows(model: ModelDefinition, rows: readonly Record<string, unknown>[]): Promise<number> {
    if (rows.length === 0) return 0;
    // One instant for the statement's rows, read once: a Date per row was 3 % of a 10 000-row insert's CPU.
    const now = model.timestamps ? this.now() : null;
    const stored = rows.map((values) => this.prepareInsert(model, values, false, now).stored);
    const byParameters = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / (model.columns.size + 1)));
    const perStatement = this.engine === 'sqlite' ? Math.min(byParameters, SQLITE_ROWS_PER_STATEMENT) : byParameters;
    for (let start = 0; start < stored.length; start += perStatement) {
      await this.builder(model).insert(stored.slice(start, start + perStatement)).execute('run', false);
    }
    return stored.length;
  }

  async upsertRows(model: ModelDefinition, rows: readonly Record<string, unknown>[], unique: readonly string[], update: readonly string[]): Promise<number> {
    if (unique.length === 0) throw new InvalidQuery('no_unique_columns', `An upsert into '${model.table}' needs the columns of a unique index`);
    for (const name of [...unique, ...update]) checkColumn(model, name, 'write');
    if (update.includes('id')) throw new InvalidQuery('update_sets_key', `An upsert cannot set '${model.table}.id'`);
    if (rows.length === 0) return 0;
    const now = model.timestamps ? this.now() : null;
    const stored = rows.map((values) => this.prepareInsert(model, values, false, now).stored);
    const merge = [...update, ...(model.timestamps && !update.includes('updated_at') ? ['updated_at'] : [])];
    try {
      await this.builder(model).insert(stored).onConflict([...unique]).merge(merge).execute('run', false);
    } catch (error) {
      if (/ON CONFLICT clause does not match|no unique or exclusion constraint matching/iu.test((error as Error).message)) {
        throw new InvalidQuery('no_unique_columns', `An upsert into '${model.table}' needs a unique index on (${unique.join(', ')})`);
      }
      throw error;
    }
    return stored.length;
  }

  async saveRow(model: ModelDefinition, row: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = row['id'];
    const unsaved = id === undefined || id === null || id === 0 || id === '';
    if (unsaved) {
      if (model.key.type === 'string') throw new InvalidQuery('bad_value', `A '${model.table}' row needs its string key set before it is saved`);
      const { id: _unset, ...values } = row;
      void _unset;
      return this.insertRow(model, this.withoutManaged(model, values));
    }
    return this.updateRow(model, row, null);
  }

  /**
   * Writes `columns` of a saved row (all its columns when null) and `updated_at`, with the
   * hooks around it; `saving` may change the row, and what it sets is written.
   */
  private async updateRow(model: ModelDefinition, row: Record<string, unknown>, columns: readonly string[] | null, runSaving = true): Promise<Record<string, unknown>> {
    const draft = { ...row };
    if (runSaving) await model.hooks.saving?.(draft, false);
    const id = draft['id'];
    const changes = this.withoutManaged(model, draft);
    delete changes['id'];
    if (columns !== null) for (const name of Object.keys(changes)) if (!columns.includes(name)) delete changes[name];
    const set = this.encodeChanges(model, changes);
    const qb = this.builder(model);
    qb.update(set).where({ id: this.codec(model).encode('id', id) });
    const result = await qb.execute<{ affectedRows: number }>('run', false);
    if (result.affectedRows === 0) throw new InvalidQuery('bad_value', `No '${model.table}' row has the key ${JSON.stringify(id)}: create it instead of saving it`);
    const saved = { ...draft, ...(model.timestamps ? { updated_at: this.codec(model).decode('updated_at', set['updated_at']) } : {}) };
    await model.hooks.saved?.(saved, false);
    return saved;
  }

  isUniqueViolation(error: unknown): boolean {
    // Raw QueryBuilder results come with the driver's own errors, not MikroORM's converted ones.
    if (error instanceof UniqueConstraintViolationException) return true;
    const { code } = (error ?? {}) as { code?: unknown };
    return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  }

  // ── start-up check ──────────────────────────────────────────────────────

  private async verifyTable(model: ModelDefinition): Promise<void> {
    const columns =
      this.engine === 'sqlite'
        ? (await this.sql(`select name from pragma_table_info(?)`, [model.table]).fetchAs<{ name: string }>()).map((row) => row.name)
        : (await this.sql('select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ?', [model.table]).fetchAs<{ name: string }>()).map((row) => row.name);
    if (columns.length === 0) throw new ModelTableMismatch(`model '${model.table}': the table '${model.table}' does not exist (run its migration first)`);
    const present = new Set(columns);
    for (const name of ['id', ...model.columns.keys()]) {
      if (!present.has(name)) throw new ModelTableMismatch(`model '${model.table}': the column '${name}' is not in the table '${model.table}' (it has ${columns.join(', ')})`);
    }
  }

  // ── helpers ─────────────────────────────────────────────────────────────

  /** A row's values without the columns fw manages itself (timestamps, deleted_at) or skipped fields. */
  private withoutManaged(model: ModelDefinition, row: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row)) {
      if (model.skipped.has(name) || name === 'created_at' || name === 'updated_at' || (model.softDeletes && name === 'deleted_at')) continue;
      values[name] = value;
    }
    return values;
  }

  /**
   * The row an insert makes (as reads will return it; only its key without `buildRow`) and what
   * is sent for it; `now` is the timestamps' instant (read from the clock when not given).
   */
  private prepareInsert(model: ModelDefinition, values: Record<string, unknown>, buildRow = true, now: Date | null = null): { row: Record<string, unknown>; stored: Dictionary } {
    const codec = this.codec(model);
    for (const name of Object.keys(values)) if (!model.skipped.has(name)) checkColumn(model, name, 'write');
    const row: Record<string, unknown> = {};
    const stored: Dictionary = {};
    const given = values['id'];
    const hasKey = given !== undefined && given !== null && given !== 0 && given !== '';
    if (hasKey) row['id'] = given;
    else if (model.key.type === 'ulid') row['id'] = ulid();
    else if (model.key.type === 'uuid') row['id'] = randomUUID();
    else if (model.key.type === 'string') throw new InvalidQuery('bad_value', `A new '${model.table}' row needs its string key 'id'`);
    if ('id' in row) stored['id'] = codec.encode('id', row['id']);
    else row['id'] = 0;
    const at = model.timestamps ? (now ?? this.now()) : null;
    for (const [name, spec] of codec.columnSpecs) {
      let value = values[name];
      if (value === undefined && at !== null && (name === 'created_at' || name === 'updated_at')) value = at;
      if (value === undefined && spec.defaultValue !== null) value = spec.defaultValue.value;
      if (value === undefined) {
        if (!spec.allowsNull) throw new InvalidQuery('bad_value', `A new '${model.table}' row needs a value for '${name}'`);
        value = null;
      }
      stored[name] = codec.encodeSpec(spec, value, name);
      if (buildRow) row[name] = spec.kind === 'encrypted' || value === null ? value : codec.decode(name, stored[name]);
    }
    if (buildRow) for (const [name, fallback] of model.skipped) row[name] = fallback();
    return { row, stored };
  }
}

/** Whether a changed field holds the same value (dates by time, JSON by its text). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

function isRetryable(error: unknown): boolean {
  if (error instanceof LockWaitTimeoutException || error instanceof DeadlockException) return true;
  const { code, sqlState } = (error ?? {}) as { code?: unknown; sqlState?: unknown };
  return RETRYABLE_CODES.has(String(code)) || RETRYABLE_CODES.has(String(sqlState));
}
