import type { Dictionary } from '@mikro-orm/core';
import type { QueryBuilder } from '@mikro-orm/knex';
import type { EngineName } from '../../../../domain/data/columns.js';
import type { ModelDefinition } from '../../../../domain/data/model.js';
import type { RowCodec } from './row-codec.js';

/** What a `ModelQuery` needs of the database it runs on (`Db`, inside or outside a transaction). */
export interface ModelSession {
  readonly engine: EngineName;
  codec(model: ModelDefinition): RowCodec;
  /** A fresh MikroORM QueryBuilder over the model's table, in this session's transaction if any. */
  builder(model: ModelDefinition): QueryBuilder<Dictionary>;
  now(): Date;
  /** The model's default-scope conditions under this session's scope values (none without a scope). */
  scopeOf(model: ModelDefinition): Readonly<Record<string, unknown>>;
  /** `values` as the SET of an update: checked, encoded, `updated_at` added. */
  encodeChanges(model: ModelDefinition, values: Record<string, unknown>): Dictionary;
  insertRow(model: ModelDefinition, values: Record<string, unknown>): Promise<Record<string, unknown>>;
  insertRows(model: ModelDefinition, rows: readonly Record<string, unknown>[]): Promise<number>;
  upsertRows(model: ModelDefinition, rows: readonly Record<string, unknown>[], unique: readonly string[], update: readonly string[]): Promise<number>;
  saveRow(model: ModelDefinition, row: Record<string, unknown>): Promise<Record<string, unknown>>;
  newRow(model: ModelDefinition, values: Record<string, unknown>): Record<string, unknown>;
  isUniqueViolation(error: unknown): boolean;
  /** SQLite: whether an index of the model's table leads with `created_at` (false elsewhere and without timestamps). */
  latestIndexed(model: ModelDefinition): Promise<boolean>;
  /** PostgreSQL: whether the model's first search column has its own GIN index (false elsewhere and without two search columns). */
  firstColumnIndexed(model: ModelDefinition): Promise<boolean>;
  /** The same data layer compiling for another engine (`toSql(dialect)`); it runs no statement. */
  inDialect(engine: EngineName): ModelSession;
}
