import type { Dictionary } from '@mikro-orm/core';
import type { Knex, QueryBuilder } from '@mikro-orm/knex';
import { InvalidQuery } from '../../../../domain/data/invalid-query.js';
import type { ModelDefinition, RowOf } from '../../../../domain/data/model.js';
import type { LeftIdOf, PivotDefinition, PivotRowOf, PivotValuesOf, RightIdOf } from '../../../../domain/data/pivot.js';
import type { ModelQuery } from './model-query.js';
import type { RowCodec } from './row-codec.js';

/** What a pivot needs of `Db`: its table's builder and codec, raw knex queries, queries, transactions. */
export interface PivotSession {
  /** MikroORM's QueryBuilder over the pivot table (registered as an entity with a composite key). */
  pivotBuilder(pivot: PivotDefinition): QueryBuilder<Dictionary>;
  pivotCodec(pivot: PivotDefinition): RowCodec;
  /** knex, to join a model's query with the pivot table (MikroORM joins relations only). */
  knex(): Knex;
  runKnex(query: Knex.QueryBuilder): Promise<Dictionary[]>;
  query<M extends ModelDefinition>(model: M): ModelQuery<M>;
  transaction<T>(work: (session: PivotSession) => Promise<T>): Promise<T>;
  now(): Date;
}

type Links<P> = ReadonlyMap<RightIdOf<P>, PivotValuesOf<P>> | readonly RightIdOf<P>[];
export type WithPivot<P extends PivotDefinition> = RowOf<P['right']> & { pivot: PivotRowOf<P> };

/** A pivot column's name as knex reads it (`alias.column`); names are checked identifiers. */
const PIVOT_PREFIX = 'fw_pivot__';

/**
 * The spec's pivot operations on one pivot table, each one statement where it can be (`sync`
 * and `toggle` read the current links first, then write, in one transaction): links are
 * `(left, right)` pairs, unique in the table, so attaching twice keeps one link.
 */
export class PivotRelation<P extends PivotDefinition> {
  constructor(
    private readonly session: PivotSession,
    private readonly pivot: P,
  ) {}

  /** Links `left` to each of `rights`, with the same pivot `values` (existing links get them too). One statement. */
  attach(left: LeftIdOf<P>, rights: readonly RightIdOf<P>[], values?: PivotValuesOf<P>): Promise<void> {
    return this.attachWith(left, new Map(rights.map((right) => [right, values ?? ({} as PivotValuesOf<P>)])));
  }

  /**
   * Links `left` to each right key of `links`, each with its own pivot values; a link that exists
   * gets the values given (a column another entry names is set to its default where an entry
   * leaves it out). One statement.
   */
  async attachWith(left: LeftIdOf<P>, links: ReadonlyMap<RightIdOf<P>, PivotValuesOf<P>>): Promise<void> {
    await this.write(this.session, left, links);
  }

  /** Removes the links of `left` to `rights` (every link of `left` without `rights`). Returns how many. One statement. */
  async detach(left: LeftIdOf<P>, rights?: readonly RightIdOf<P>[]): Promise<number> {
    return this.remove(this.session, left, rights ?? null);
  }

  /**
   * Makes `left` linked to exactly these rights (with their pivot values when a Map is given):
   * links not listed are removed, missing ones added, kept ones get the values given. In one
   * transaction: a read of the current links, then at most one DELETE and one INSERT.
   */
  sync(left: LeftIdOf<P>, links: Links<P>): Promise<{ attached: RightIdOf<P>[]; detached: RightIdOf<P>[]; kept: RightIdOf<P>[] }> {
    const wanted = toMap(links);
    return this.session.transaction(async (tx) => {
      const current = await this.current(tx, left, null);
      const detached = current.filter((right) => !hasKey(wanted, right));
      const attached = [...wanted.keys()].filter((right) => !current.some((each) => sameKey(each, right)));
      const kept = [...wanted.keys()].filter((right) => current.some((each) => sameKey(each, right)));
      if (detached.length > 0) await this.remove(tx, left, detached);
      const written = Array.isArray(links) ? new Map(attached.map((right) => [right, wanted.get(right) as PivotValuesOf<P>])) : wanted;
      await this.write(tx, left, written);
      return { attached, detached, kept };
    });
  }

  /** Removes the links of `left` to those of `rights` it has, and adds the others. One transaction of at most three statements. */
  toggle(left: LeftIdOf<P>, rights: readonly RightIdOf<P>[]): Promise<{ attached: RightIdOf<P>[]; detached: RightIdOf<P>[] }> {
    return this.session.transaction(async (tx) => {
      const current = await this.current(tx, left, rights);
      const detached = [...new Set(rights)].filter((right) => current.some((each) => sameKey(each, right)));
      const attached = [...new Set(rights)].filter((right) => !current.some((each) => sameKey(each, right)));
      if (detached.length > 0) await this.remove(tx, left, detached);
      await this.write(tx, left, new Map(attached.map((right) => [right, {} as PivotValuesOf<P>])));
      return { attached, detached };
    });
  }

  /**
   * The right rows of each left row with their link's values under `pivot` (an entry for every
   * left row, right rows in id order): one statement for the whole list, the right model's
   * query (scope, soft deletes, `narrow`'s conditions) joined with the pivot table.
   */
  async loadWithPivot<K extends LeftIdOf<P>>(lefts: readonly { id: K }[], narrow?: (query: ModelQuery<P['right']>) => unknown): Promise<Map<K, WithPivot<P>[]>> {
    const groups = new Map<K, WithPivot<P>[]>(lefts.map((left) => [left.id, []]));
    if (groups.size === 0) return groups;
    const { leftKey, rightKey } = this.pivot;
    const codec = this.session.pivotCodec(this.pivot);
    const rightQuery = this.session.query(this.pivot.right);
    narrow?.(rightQuery);
    const rightCodec = rightQuery.codec();
    const pivotColumns = [leftKey, rightKey, ...this.pivot.columns.keys()];
    const knex = this.session.knex();
    const query = knex
      .select(['r.*', ...pivotColumns.map((name) => `p.${name} as ${PIVOT_PREFIX}${name}`)])
      .from(rightQuery.knexSelect().as('r'))
      .join(`${this.pivot.table} as p`, `p.${rightKey}`, 'r.id')
      .whereIn(
        `p.${leftKey}`,
        [...groups.keys()].map((id) => codec.encode(leftKey, id) as Knex.Value),
      )
      .orderBy([`p.${leftKey}`, 'r.id']);
    const owners = new Map([...groups.keys()].map((id) => [String(id).toLowerCase(), id]));
    for (const raw of await this.session.runKnex(query)) {
      const pivotRow: Record<string, unknown> = {};
      for (const name of pivotColumns) pivotRow[name] = codec.decode(name, raw[`${PIVOT_PREFIX}${name}`]);
      const row = { ...rightCodec.decodeRow(raw), pivot: pivotRow } as WithPivot<P>;
      const owner = owners.get(String(pivotRow[leftKey]).toLowerCase());
      if (owner !== undefined) groups.get(owner)?.push(row);
    }
    return groups;
  }

  // ── statements ──────────────────────────────────────────────────────────

  private async current(session: PivotSession, left: LeftIdOf<P>, among: readonly RightIdOf<P>[] | null): Promise<RightIdOf<P>[]> {
    const { leftKey, rightKey } = this.pivot;
    const codec = session.pivotCodec(this.pivot);
    const where: Dictionary = { [leftKey]: codec.encode(leftKey, left) };
    if (among !== null) where[rightKey] = { $in: among.map((right) => codec.encode(rightKey, right)) };
    const rows = await session.pivotBuilder(this.pivot).select([rightKey]).where(where).execute<Dictionary[]>('all', false);
    return rows.map((row) => codec.decode(rightKey, row[rightKey]) as RightIdOf<P>);
  }

  private async remove(session: PivotSession, left: LeftIdOf<P>, rights: readonly RightIdOf<P>[] | null): Promise<number> {
    if (rights !== null && rights.length === 0) return 0;
    const { leftKey, rightKey } = this.pivot;
    const codec = session.pivotCodec(this.pivot);
    const where: Dictionary = { [leftKey]: codec.encode(leftKey, left) };
    if (rights !== null) where[rightKey] = { $in: rights.map((right) => codec.encode(rightKey, right)) };
    const result = await session.pivotBuilder(this.pivot).delete().where(where).execute<{ affectedRows: number }>('run', false);
    return result.affectedRows;
  }

  /** One INSERT of every link; on a link that exists, the named columns are set (or nothing happens). */
  private async write(session: PivotSession, left: LeftIdOf<P>, links: ReadonlyMap<RightIdOf<P>, PivotValuesOf<P>>): Promise<void> {
    if (links.size === 0) return;
    const { leftKey, rightKey, table } = this.pivot;
    const codec = session.pivotCodec(this.pivot);
    const named = new Set<string>();
    for (const values of links.values()) {
      for (const name of Object.keys(values)) {
        if (!this.pivot.columns.has(name) || name === 'created_at' || name === 'updated_at') {
          throw new InvalidQuery('unknown_column', `The pivot '${table}' has no column ${JSON.stringify(name)}`);
        }
        named.add(name);
      }
    }
    const now = session.now();
    const rows = [...links].map(([right, values]) => {
      const stored: Dictionary = { [leftKey]: codec.encode(leftKey, left), [rightKey]: codec.encode(rightKey, right) };
      for (const [name, spec] of this.pivot.columns) {
        let value = (values as Record<string, unknown>)[name];
        if (value === undefined && this.pivot.timestamps && (name === 'created_at' || name === 'updated_at')) value = now;
        if (value === undefined && spec.defaultValue !== null) value = spec.defaultValue.value;
        if (value === undefined && !spec.allowsNull) throw new InvalidQuery('bad_value', `A link of the pivot '${table}' needs a value for '${name}'`);
        stored[name] = codec.encode(name, value ?? null);
      }
      return stored;
    });
    const merge = [...named, ...(named.size > 0 && this.pivot.timestamps ? ['updated_at'] : [])];
    const qb = session.pivotBuilder(this.pivot).insert(rows).onConflict([leftKey, rightKey]);
    try {
      await (merge.length > 0 ? qb.merge(merge) : qb.ignore()).execute('run', false);
    } catch (error) {
      if (/ON CONFLICT clause does not match|no unique or exclusion constraint matching/iu.test((error as Error).message)) {
        throw new InvalidQuery('no_unique_columns', `The pivot '${table}' needs a unique index (or primary key) on (${leftKey}, ${rightKey})`);
      }
      throw error;
    }
  }
}

function toMap<P>(links: Links<P>): Map<RightIdOf<P>, PivotValuesOf<P>> {
  if (Array.isArray(links)) return new Map((links as readonly RightIdOf<P>[]).map((right) => [right, {} as PivotValuesOf<P>]));
  return new Map(links as ReadonlyMap<RightIdOf<P>, PivotValuesOf<P>>);
}

/** Keys compare as text: a UUID's case or an integer read back as text is the same key. */
function sameKey(a: unknown, b: unknown): boolean {
  return String(a).toLowerCase() === String(b).toLowerCase();
}

function hasKey(map: ReadonlyMap<unknown, unknown>, key: unknown): boolean {
  for (const each of map.keys()) if (sameKey(each, key)) return true;
  return false;
}
