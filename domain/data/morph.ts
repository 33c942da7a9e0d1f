import { IDENTIFIER, ModelDefinitionError } from './model.js';
import type { ModelDefinition, RowOf } from './model.js';

/** The models a polymorphic relation may point to, by the type name stored in the row. */
export type MorphTypes = Readonly<Record<string, ModelDefinition>>;

/**
 * A polymorphic relation (the spec's `Morph`): a child row points to a row of one of several
 * models through two columns, `<name>_type` (the type name, e.g. `post`) and `<name>_id` (that
 * row's key). Type names are the app's own words, so renaming a table never breaks stored rows.
 */
export interface MorphDefinition<T extends MorphTypes = MorphTypes> {
  readonly name: string;
  readonly typeColumn: string;
  readonly idColumn: string;
  readonly types: T;
}

/** The row a child points to, with its type name: `{ type: 'post', row }`. */
export type MorphParent<T extends MorphTypes> = { [K in keyof T & string]: { readonly type: K; readonly row: RowOf<T[K]> } }[keyof T & string];

/**
 * `defineMorph('commentable', { post: Post, video: Video })`: columns `commentable_type` and
 * `commentable_id` on the child model (other names with `typeColumn`/`idColumn`). Checked now.
 */
export function defineMorph<const T extends MorphTypes>(name: string, types: T, options?: { typeColumn?: string; idColumn?: string }): MorphDefinition<T> {
  const fail = (message: string): never => {
    throw new ModelDefinitionError(`morph '${name}': ${message}`);
  };
  const typeColumn = options?.typeColumn ?? `${name}_type`;
  const idColumn = options?.idColumn ?? `${name}_id`;
  for (const each of [name, typeColumn, idColumn]) if (!IDENTIFIER.test(each)) fail(`${JSON.stringify(each)} is not a plain identifier (${IDENTIFIER.source})`);
  const names = Object.keys(types);
  if (names.length === 0) fail('it needs at least one type');
  const seen = new Set<ModelDefinition>();
  for (const type of names) {
    const model = types[type] as ModelDefinition;
    if (seen.has(model)) fail(`the model '${model.table}' is named twice`);
    seen.add(model);
  }
  return Object.freeze({ name, typeColumn, idColumn, types: Object.freeze({ ...types }) });
}

/**
 * The child's two columns pointing to `id` of type `type`: `db.create(Comment, { body, ...morphKeys(Commentable, 'post', post.id) })`
 * or a condition `db.query(Comment).where(morphKeys(Commentable, 'post', post.id))`.
 */
export function morphKeys<T extends MorphTypes, K extends keyof T & string>(morph: MorphDefinition<T>, type: K, id: RowOf<T[K]>['id']): Record<string, unknown> {
  if (!Object.hasOwn(morph.types, type)) throw new ModelDefinitionError(`morph '${morph.name}': '${type}' is not one of its types (${Object.keys(morph.types).join(', ')})`);
  return { [morph.typeColumn]: type, [morph.idColumn]: id };
}
