import type { ModelDefinition, NewRowOf, RowOf } from './model.js';
import { OutOfRangeError } from '../shared/errors.js';

/** Attributes for one row, fixed or made from the row's sequence number (1, 2, 3… per factory). */
export type Attributes<M extends ModelDefinition> = Partial<NewRowOf<M>> | ((seq: number) => Partial<NewRowOf<M>>);

/**
 * Where `create` saves rows: the data layer (`Db`, or a `Db` inside a transaction). `create`
 * runs the model's hooks as `db.create` does; `transaction` makes one factory call all or nothing.
 */
export interface FactoryDb {
  create<M extends ModelDefinition>(model: M, values: NewRowOf<M>): Promise<RowOf<M>>;
  transaction<T>(work: (db: FactoryDb) => Promise<T>): Promise<T>;
}

export interface FactoryOptions<M extends ModelDefinition, S extends string> {
  /** Named states: `states: { expensive: { price: 90_000 } }`, applied with `.state('expensive')`. */
  readonly states?: Readonly<Record<S, Attributes<M>>>;
}

/** A factory called without `count(n)` makes one row; with it, an array of `n`. */
type Made<Many extends boolean, Row> = Many extends true ? Row[] : Row;

/** The most rows one factory call makes: a typo (`count(1e9)`) fails at once instead of filling the disk. */
export const MAX_FACTORY_COUNT = 100_000;

/**
 * Rows for tests and seeders, made from a definition:
 *
 *     const ProductFactory = factory(Product, (seq) => ({ name: `Product ${seq}`, price: 1000 }), {
 *       states: { expensive: { price: 90_000 } },
 *     });
 *     const rows = ProductFactory.count(3).state('expensive').make({ name: 'Mug' }); // not saved
 *     const saved = await ProductFactory.count(50).create(db);                      // saved, hooks run
 *
 * Every call returns a new factory; the sequence is shared by all of them, so names made from it
 * stay unique across calls.
 */
export class Factory<M extends ModelDefinition, S extends string = never, Many extends boolean = false> {
  private constructor(
    readonly model: M,
    private readonly definition: (seq: number) => NewRowOf<M>,
    private readonly states: Readonly<Record<string, Attributes<M>>>,
    private readonly sequence: { next: number },
    private readonly amount: number | null,
    private readonly layers: readonly Attributes<M>[],
  ) {}

  /** A factory for `model`; see the class comment. */
  static for<M extends ModelDefinition, S extends string = never>(model: M, definition: (seq: number) => NewRowOf<M>, options: FactoryOptions<M, S> = {}): Factory<M, S> {
    const states: Record<string, Attributes<M>> = { ...(options.states ?? {}) };
    return new Factory<M, S>(model, definition, states, { next: 1 }, null, []);
  }

  /** `n` rows per call (`make` and `create` then return arrays). */
  count(n: number): Factory<M, S, true> {
    if (!Number.isInteger(n) || n < 0 || n > MAX_FACTORY_COUNT) throw new OutOfRangeError('data.bad-factory-count', `factory(${this.model.table}).count: ${String(n)} is not a whole number from 0 to ${MAX_FACTORY_COUNT}`);
    return new Factory<M, S, true>(this.model, this.definition, this.states, this.sequence, n, this.layers);
  }

  /** A named state from the definition, or attributes given here; later states win. */
  state(state: S | Attributes<M>): Factory<M, S, Many> {
    let layer: Attributes<M>;
    if (typeof state === 'string') {
      const named = this.states[state];
      if (named === undefined) {
        const known = Object.keys(this.states);
        throw new OutOfRangeError('data.unknown-factory-state', `factory(${this.model.table}) has no state '${state}'${known.length === 0 ? '' : ` (it has ${known.join(', ')})`}`);
      }
      layer = named;
    } else {
      layer = state;
    }
    return new Factory<M, S, Many>(this.model, this.definition, this.states, this.sequence, this.amount, [...this.layers, layer]);
  }

  /** The rows' values, not saved: definition, then states, then `overrides`. */
  make(overrides: Attributes<M> = {}): Made<Many, NewRowOf<M>> {
    const rows = this.rows(overrides);
    return (this.amount === null ? rows[0] : rows) as Made<Many, NewRowOf<M>>;
  }

  /**
   * The rows saved through `db.create` (hooks run, keys and timestamps set), in one transaction:
   * a row that fails (a hook throws, a unique key clashes) leaves none of them.
   */
  async create(db: FactoryDb, overrides: Attributes<M> = {}): Promise<Made<Many, RowOf<M>>> {
    const values = this.rows(overrides);
    const saved = await db.transaction(async (tx) => {
      const rows: RowOf<M>[] = [];
      for (const row of values) rows.push(await tx.create(this.model, row));
      return rows;
    });
    return (this.amount === null ? saved[0] : saved) as Made<Many, RowOf<M>>;
  }

  private rows(overrides: Attributes<M>): NewRowOf<M>[] {
    const rows: NewRowOf<M>[] = [];
    for (let i = 0; i < (this.amount ?? 1); i++) {
      const seq = this.sequence.next++;
      let row = { ...this.definition(seq) } as Record<string, unknown>;
      for (const layer of [...this.layers, overrides]) row = { ...row, ...(typeof layer === 'function' ? layer(seq) : layer) };
      rows.push(row as NewRowOf<M>);
    }
    return rows;
  }
}

/** `factory(Product, (seq) => ({ … }), { states })`: shorthand for `Factory.for`. */
export function factory<M extends ModelDefinition, S extends string = never>(model: M, definition: (seq: number) => NewRowOf<M>, options: FactoryOptions<M, S> = {}): Factory<M, S> {
  return Factory.for(model, definition, options);
}
