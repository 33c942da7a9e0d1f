import { EntitySchema } from '@mikro-orm/core';
import type { EntitySchemaProperty } from '@mikro-orm/core';
import { COLUMN_TYPES } from '../../../../domain/data/columns.js';
import type { EngineName } from '../../../../domain/data/columns.js';
import type { ModelDefinition } from '../../../../domain/data/model.js';
import type { PivotDefinition } from '../../../../domain/data/pivot.js';

/** The name the MikroORM metadata knows a model by (tables are unique, so their names are too). */
export function entityName(model: ModelDefinition): string {
  return `fw_model:${model.table}`;
}

/**
 * MikroORM's mapping of a model, generated from its definition. Every property is `unknown`
 * to the ORM: fw's `RowCodec` encodes and decodes values itself, so the ORM passes them through
 * unchanged on both engines. `columnType` records the spec's SQL type for each engine.
 */
export function entitySchemaFor(model: ModelDefinition, engine: EngineName): EntitySchema {
  const properties: Record<string, EntitySchemaProperty<unknown, unknown>> = {};
  const keyColumn = model.key.type === 'integer' ? COLUMN_TYPES.integer : model.key.type === 'uuid' ? COLUMN_TYPES.uuid : COLUMN_TYPES.string;
  properties['id'] = { type: 'unknown', primary: true, autoincrement: model.key.type === 'integer', columnType: keyColumn[engine] };
  for (const [name, spec] of model.columns) {
    properties[name] = { type: 'unknown', nullable: spec.allowsNull, columnType: COLUMN_TYPES[spec.kind][engine] };
  }
  return new EntitySchema({ name: entityName(model), tableName: model.table, properties } as never);
}

/** The name of a pivot table's mapping: one per table, whichever direction it is used in. */
export function pivotEntityName(pivot: PivotDefinition): string {
  return `fw_pivot:${pivot.table}`;
}

/** A pivot table's mapping: both keys form its primary key, the extra columns pass through unchanged. */
export function pivotEntitySchemaFor(pivot: PivotDefinition, engine: EngineName): EntitySchema {
  const properties: Record<string, EntitySchemaProperty<unknown, unknown>> = {};
  for (const [name, spec] of pivot.tableModel.columns) {
    const primary = name === pivot.leftKey || name === pivot.rightKey;
    properties[name] = { type: 'unknown', primary, nullable: !primary && spec.allowsNull, columnType: COLUMN_TYPES[spec.kind][engine] };
  }
  return new EntitySchema({ name: pivotEntityName(pivot), tableName: pivot.table, properties } as never);
}
