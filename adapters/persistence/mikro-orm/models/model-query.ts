import { LockMode, QueryOrder, raw } from '@mikro-orm/core';
import type { Dictionary } from '@mikro-orm/core';
import type { Knex, QueryBuilder } from '@mikro-orm/knex';
import { checkColumn, checkConditions } from '../../../../domain/data/conditions.js';
import type { Condition } from '../../../../domain/data/conditions.js';
import { InvalidQuery } from '../../../../domain/data/invalid-query.js';
import { columnNames } from '../../../../domain/data/model.js';
import type { EngineName } from '../../../../domain/data/columns.js';
import { clampPage, clampPerPage, decodeCursor, encodeCursor, pageNumbers } from '../../../../domain/data/pages.js';
import type { CursorPage, LengthAwarePage, SimplePage } from '../../../../domain/data/pages.js';
import { RecordNotFound } from '../../../../domain/data/record-not-found.js';
import { everyWordInFirstClassDecides, firstClassDecides, firstColumnVector, fts5AllOf, fts5AnyColumnQuery, fts5ColumnQuery, fts5Query, relevanceClasses, searchIndexName, searchWords, tsAnyClassQuery, tsClassQuery, tsQuery } from '../../../../domain/data/search.js';
import type { ColumnOf, ModelDefinition, NewRowOf, RowOf } from '../../../../domain/data/model.js';
import { Conditions } from './conditions-builder.js';
import type { ValueOfColumn } from './conditions-builder.js';
import { quoted, toFilter } from './filters.js';
import type { ModelSession } from './model-session.js';
import type { RowCodec } from './row-codec.js';

type Order =
  | { readonly column: string; readonly direction: 'asc' | 'desc' }
  /** `relevance`: the words (joined by spaces) of an `orderByRelevance`, whose order this is. */
  | { readonly sql: string; readonly params: readonly unknown[]; readonly direction: 'asc' | 'desc'; readonly relevance?: string };
type Trashed = 'without' | 'with' | 'only';
type RawCondition = Extract<Condition, { kind: 'raw' }>;

const NO_FILTERS: readonly Dictionary[] = [];
/** A newest-first search page walks the order's index when at least 1 row in this many matches (`newestFirstBySearchCount`). */
const WALK_WHEN_ONE_ROW_IN = 32;

/**
 * A query over one model: the spec's query-builder table. Build it with `db.query(Model)`,
 * chain conditions, order and size, then read or write. Columns and operators are checked
 * when it runs (`InvalidQuery`, before any SQL is sent); values are always bound.
 */
export class ModelQuery<M extends ModelDefinition> extends Conditions<M> {
  private orders: Order[] = [];
  private limitCount: number | null = null;
  private offsetCount: number | null = null;
  private groups: string[] = [];
  private havings: Array<{ sql: string; params: unknown[] }> = [];
  private lock: LockMode | null = null;
  /** Orders put NULLs after values ascending, before them descending (PostgreSQL's default), on both engines. */
  private nullsOrdered = false;
  private trashed: Trashed = 'without';
  private scoped = true;
  /** Holds SQL written for the session's engine (search): it compiles for that engine only. */
  private engineBound = false;
  /** The words (joined by spaces) of this query's `whereSearch` filters: ranking by them need not say again that a row matches. */
  private searchedFor = new Set<string>();
  /** Each `whereSearch` condition by its words, so a ranked read can narrow it (`relevanceTiers`) and a SQLite count can ask FTS5 alone. */
  private searchFilters = new Map<string, RawCondition>();
  /** Set on a copy whose plan `newestFirstBySearchCount` chose, so reading it does not choose again. */
  private planChosen = false;

  constructor(
    private readonly session: ModelSession,
    readonly model: M,
  ) {
    super();
  }

  // ── conditions on other queries ─────────────────────────────────────────

  /** `column` is among the values of `other`'s `otherColumn` (one statement, a subquery). */
  whereInQuery<O extends ModelDefinition>(column: ColumnOf<M>, other: ModelQuery<O>, otherColumn: ColumnOf<O>): this {
    this.conditions.push({ kind: 'in-query', column, negate: false, subquery: () => other.subquery(otherColumn) });
    return this;
  }

  /** `column` is none of the (non-NULL) values of `other`'s `otherColumn`. */
  whereNotInQuery<O extends ModelDefinition>(column: ColumnOf<M>, other: ModelQuery<O>, otherColumn: ColumnOf<O>): this {
    const present = other.clone().whereNotNull(otherColumn);
    this.conditions.push({ kind: 'in-query', column, negate: true, subquery: () => present.subquery(otherColumn) });
    return this;
  }

  /**
   * Rows with at least one related row in `related` (whose `foreignKey` holds this row's id),
   * optionally narrowed: `db.query(User).whereHas(db.query(Post).where('published', true), 'user_id')`.
   */
  whereHas<O extends ModelDefinition>(related: ModelQuery<O>, foreignKey: ColumnOf<O>): this {
    return this.whereInQuery('id' as ColumnOf<M>, related, foreignKey);
  }

  /** Rows without any related row in `related`. */
  whereDoesntHave<O extends ModelDefinition>(related: ModelQuery<O>, foreignKey: ColumnOf<O>): this {
    return this.whereNotInQuery('id' as ColumnOf<M>, related, foreignKey);
  }

  /** This query as a subquery selecting one column (knex's builder, which MikroORM nests). */
  private subquery(column: string): unknown {
    checkColumn(this.model, column, 'read');
    return this.select([column], false).getKnexQuery();
  }

  // ── order and size ──────────────────────────────────────────────────────

  orderBy(column: ColumnOf<M>, direction: 'asc' | 'desc' = 'asc'): this {
    this.orders.push({ column, direction });
    return this;
  }

  orderByDesc(column: ColumnOf<M>): this {
    return this.orderBy(column, 'desc');
  }

  /** An SQL expression of the app's own to order by. */
  orderByRaw(sql: string, direction: 'asc' | 'desc' = 'asc', values: readonly unknown[] = []): this {
    this.orders.push({ sql, params: [...values], direction });
    return this;
  }

  // ── full-text search (the model's `search` columns, indexed by `searchMigrationSql`) ──

  /**
   * Rows matching every word of `text`, each as a prefix, in word forms (stemming unless the
   * model's language is `simple`), best first, ties newest first. Any text is safe.
   */
  search(text: string): this {
    return this.whereSearch(text).orderByRelevance(text).latest();
  }

  /** Only rows matching every word of `text`; no words matches nothing. Keeps the query's order. */
  whereSearch(text: string): this {
    const words = this.searchable(text);
    if (words.length === 0) return this.whereAny(() => undefined);
    this.engineBound = true;
    this.searchedFor.add(words.join(' '));
    const index = quoted(searchIndexName(this.model));
    if (this.session.engine === 'sqlite') {
      const condition: RawCondition = { kind: 'raw', sql: `"id" in (select rowid from ${index} where ${index} match ?)`, params: [fts5Query(words)] };
      this.conditions.push(condition);
      this.searchFilters.set(words.join(' '), condition);
      return this;
    }
    const condition: RawCondition = { kind: 'raw', sql: `${index} @@ to_tsquery('${this.model.searchLanguage}', ?)`, params: [tsQuery(words)] };
    this.conditions.push(condition);
    this.searchFilters.set(words.join(' '), condition);
    return this;
  }

  /**
   * PostgreSQL: this query with its search filters written for a statement that reads every
   * match anyway (a count, an aggregate, a relevance order): the tsquery as a one-row subquery,
   * so the planner takes the GIN index's bitmap instead of a sequential scan. Seeing the
   * tsquery, it counts each `@@` as cheap as an `=` and, for a word in a quarter of the rows,
   * prefers evaluating `@@` on every row (100 000 rows: 60–85 ms) to visiting the matches the
   * index lists, whose `@@` needs no recheck (15–25 ms); a subquery's value is unknown when
   * planning, so it estimates few matches and uses the index. Not for pages in another order:
   * there a known common word lets it walk that order's index and stop after the page.
   */
  private readingEveryMatch(): ModelQuery<M> {
    if (this.session.engine !== 'postgres' || this.searchFilters.size === 0) return this;
    const copy = this.clone();
    const index = quoted(searchIndexName(this.model));
    for (const condition of this.searchFilters.values()) {
      const at = copy.conditions.indexOf(condition);
      if (at >= 0) copy.conditions.splice(at, 1, { kind: 'raw', sql: `${index} @@ (select to_tsquery('${this.model.searchLanguage}', ?))`, params: condition.params });
    }
    return copy;
  }

  /**
   * Orders by relevance to `text` (best first) without filtering: each word found in a search
   * column adds that column's weight (earlier columns weigh more), rows that do not match come last. Counted the same way on both
   * engines (`relevanceClasses`), so ties are common and the query's next order decides them
   * (`search` puts the newest first).
   */
  orderByRelevance(text: string): this {
    const words = this.searchable(text);
    if (words.length === 0) return this;
    this.engineBound = true;
    const index = quoted(searchIndexName(this.model));
    const terms: string[] = [];
    const params: unknown[] = [];
    // SQLite: each term is an uncorrelated `IN`, whose rowids SQLite gathers once per statement.
    const holds =
      this.session.engine === 'sqlite'
        ? (query: string) => {
            params.push(query);
            return `("id" in (select rowid from ${index} where ${index} match ?))`;
          }
        : (query: string) => {
            params.push(query);
            return `(${index} @@ to_tsquery('${this.model.searchLanguage}', ?))::int`;
          };
    const ranked = rankedWords(words);
    const classes = relevanceClasses(this.model);
    const filtered = this.searchedFor.has(words.join(' '));
    const [top, rest] = classes;
    if (this.session.engine === 'sqlite' && filtered && classes.length === 2 && top !== undefined && rest !== undefined) {
      // Under a filter by these words each ranked word is in the first class or the second, so
      // "in the second" is "not in the first, or in both": the score, less the same constant for
      // every row, is (first - second) × [in the first] + second × [in both]. SQLite builds each
      // term's rowid set from every posting, and "in both" is a small set where "in the second"
      // (the long column) is most of the matches: `flower baking` 33.5 → 28 ms.
      for (const word of ranked) {
        terms.push(`${top.weight - rest.weight} * ${holds(fts5ColumnQuery(top.columns, [word]))}`);
        terms.push(`${rest.weight} * ${holds(fts5AllOf([fts5ColumnQuery(top.columns, [word]), fts5ColumnQuery(rest.columns, [word])]))}`);
      }
    } else {
      for (const each of classes) {
        for (const word of ranked) terms.push(`${each.weight} * ${holds(this.session.engine === 'sqlite' ? fts5ColumnQuery(each.columns, [word]) : tsClassQuery([word], each.label))}`);
      }
    }
    // Matching at all puts the rows that match before those that do not; under a filter by the same words every row matches.
    if (!filtered) terms.push(holds(this.session.engine === 'sqlite' ? fts5Query(words) : tsQuery(words)));
    this.orders.push({ sql: terms.join(' + '), params, direction: 'desc', relevance: words.join(' ') });
    return this;
  }

  /**
   * Cheaper statements that give exactly this ranked read's rows when they find enough of
   * them, tried in turn before the full statement (`readRanked`). Ranking visits every
   * matching row (SQLite also builds a rowid set per word and class; a quarter of 100 000 rows
   * for a common word: 25–50 ms), while the best rows are few:
   * - one ranked word: the rows holding it in every class, which all have the highest score, so
   *   the query's next order (newest first) alone ranks them;
   * - SQLite, two ranked words and two classes: the rows holding both in the first class and one
   *   in the second, which outrank every other row, ranked by holding both in the second
   *   (`everyWordInFirstClassDecides`: a hundredth of the matches, where the next tier is a tenth);
   * - the rows holding a ranked word in the first class, still ranked, when they outrank every
   *   other row (`firstClassDecides`).
   * SQLite narrows the `whereSearch` of the same words inside its FTS5 query (FTS5 intersects
   * the lists); PostgreSQL adds the first tier's weighted `@@` (its GIN index ignores weights,
   * so the second tier would read as many rows as the full statement). The query's other
   * conditions, scope and soft deletes stay. Enough rows means limit + offset of them.
   */
  private relevanceTiers(firstColumnIndexed: boolean): ModelQuery<M>[] {
    const [first] = this.orders;
    if (first === undefined || !('relevance' in first) || first.relevance === undefined) return [];
    const filter = this.searchFilters.get(first.relevance);
    const wanted = (this.limitCount ?? 0) + (this.offsetCount ?? 0);
    if (filter === undefined || this.limitCount === null || wanted === 0 || wanted > 1000 || this.groups.length > 0 || this.havings.length > 0) return [];
    const words = first.relevance.split(' ');
    const ranked = rankedWords(words);
    const classes = relevanceClasses(this.model);
    if (classes.length < 2) return [];
    // A tier query that holds every ranked word somewhere, when every word is ranked, implies the filter: FTS5 would read each word's postings once more for it.
    const narrowed = (query: string, orders: Order[], holdsEveryRankedWord = false): ModelQuery<M> => {
      const tier = this.clone();
      const implied = holdsEveryRankedWord && ranked.length === words.length;
      if (this.session.engine === 'sqlite') tier.conditions.splice(tier.conditions.indexOf(filter), 1, { kind: 'raw', sql: filter.sql, params: [implied ? query : fts5AllOf([fts5Query(words), query])] });
      else tier.conditions.push({ kind: 'raw', sql: `${quoted(searchIndexName(this.model))} @@ to_tsquery('${this.model.searchLanguage}', ?)`, params: [query] });
      tier.searchFilters = new Map();
      tier.orders = orders;
      tier.limitCount = wanted;
      tier.offsetCount = null;
      return tier;
    };
    const tiers: ModelQuery<M>[] = [];
    if (ranked.length === 1) {
      const everywhere = this.session.engine === 'sqlite' ? fts5AllOf(classes.map((each) => fts5ColumnQuery(each.columns, ranked))) : classes.map((each) => tsClassQuery(ranked, each.label)).join(' & ');
      tiers.push(narrowed(everywhere, this.orders.slice(1), true));
    }
    const [top, rest] = classes;
    if (this.session.engine === 'postgres' && firstColumnIndexed && ranked.length === 2 && ranked.length === words.length && rest !== undefined && everyWordInFirstClassDecides(classes, ranked.length)) {
      // The same two-word tier: the first column's own GIN index finds the rows holding both words there (the search column's
      // index ignores weight labels, so through it the tier would visit every match); holding one in the second is a filter on
      // those few rows, written plainly so the planner does not AND in the search index's bitmap of every match. Both words in
      // the first column imply the search's filter, which is left out for the same reason.
      const index = quoted(searchIndexName(this.model));
      const language = this.model.searchLanguage;
      const tier = this.clone();
      tier.conditions.splice(
        tier.conditions.indexOf(filter),
        1,
        { kind: 'raw', sql: `${firstColumnVector(this.model)} @@ (select to_tsquery('${language}', ?))`, params: [tsQuery(ranked)] },
        { kind: 'raw', sql: `${index} @@ to_tsquery('${language}', ?)`, params: [tsAnyClassQuery(ranked, rest.label)] },
      );
      tier.searchFilters = new Map();
      tier.orders = [{ sql: `(${index} @@ to_tsquery('${language}', ?))::int`, params: [tsClassQuery(ranked, rest.label)], direction: 'desc' }, ...this.orders.slice(1)];
      tier.limitCount = wanted;
      tier.offsetCount = null;
      tiers.push(tier);
    }
    if (this.session.engine === 'sqlite' && ranked.length === 2 && rest !== undefined && top !== undefined && everyWordInFirstClassDecides(classes, ranked.length)) {
      // Two words, two classes: the rows with both in the first class and one in the second; those with both in the second first.
      // When it finds too few, the first-class tier still runs before the full statement: measured cheaper than going straight to it.
      const index = quoted(searchIndexName(this.model));
      const inRest: Order = { sql: `("id" in (select rowid from ${index} where ${index} match ?))`, params: [fts5ColumnQuery(rest.columns, ranked)], direction: 'desc' };
      tiers.push(narrowed(fts5AllOf([fts5ColumnQuery(top.columns, ranked), fts5AnyColumnQuery(rest.columns, ranked)]), [inRest, ...this.orders.slice(1)], true));
    }
    if (this.session.engine === 'sqlite' && top !== undefined && firstClassDecides(classes, ranked.length)) tiers.push(narrowed(fts5AnyColumnQuery(top.columns, ranked), this.orders));
    return tiers;
  }

  /** Rows read by `read`, through the first of `relevanceTiers` that finds enough, else the query itself. */
  private readRanked<T>(read: (query: ModelQuery<M>) => Promise<T[]>): Promise<T[]> {
    const [first] = this.orders;
    // No extra promise for the reads that are not ranked (a by-id lookup is the commonest query).
    if (first === undefined || !('relevance' in first) || first.relevance === undefined) {
      // A newest-first search read with a limit (`simplePaginate`, `first`, `limit(n).get()`) chooses its plan as `paginate` does.
      return this.limitCount !== null && this.mayWalkNewestFirst() ? this.newestFirstBySearchCount(null).then(read) : read(this);
    }
    // PostgreSQL: the two-word tier needs the first search column's own index (`firstColumnIndexed`, asked once).
    if (this.session.engine === 'postgres' && this.model.search.length === 2) return this.session.firstColumnIndexed(this.model).then((indexed) => this.readThrough(this.relevanceTiers(indexed), read));
    return this.readThrough(this.relevanceTiers(false), read);
  }

  private readThrough<T>(tiers: readonly ModelQuery<M>[], read: (query: ModelQuery<M>) => Promise<T[]>): Promise<T[]> {
    // Ranked first, the full statement reads every match whatever its limit.
    return tiers.length === 0 ? read(this.readingEveryMatch()) : this.readTiers(tiers, read);
  }

  private async readTiers<T>(tiers: readonly ModelQuery<M>[], read: (query: ModelQuery<M>) => Promise<T[]>): Promise<T[]> {
    for (const tier of tiers) {
      const rows = await read(tier);
      if (rows.length === tier.limitCount) return rows.slice(this.offsetCount ?? 0);
    }
    return read(this.readingEveryMatch());
  }

  private searchable(text: string): string[] {
    if (this.model.search.length === 0) throw new InvalidQuery('not_searchable', `The model '${this.model.table}' has no search columns`);
    return searchWords(text);
  }

  /** Newest first: `created_at` DESC then `id` DESC; `id` DESC for a model without timestamps. */
  latest(): this {
    if (this.model.timestamps) this.orders.push({ column: 'created_at', direction: 'desc' });
    this.orders.push({ column: 'id', direction: 'desc' });
    return this;
  }

  limit(count: number): this {
    this.limitCount = Math.max(0, Math.floor(count));
    return this;
  }

  offset(count: number): this {
    this.offsetCount = Math.max(0, Math.floor(count));
    return this;
  }

  groupBy(...columns: ColumnOf<M>[]): this {
    this.groups.push(...columns);
    return this;
  }

  havingRaw(sql: string, values: readonly unknown[] = []): this {
    this.havings.push({ sql, params: [...values] });
    return this;
  }

  // ── soft deletes and locks ──────────────────────────────────────────────

  /** Leaves the model's default scope out of this query. */
  withoutScope(): this {
    this.scoped = false;
    return this;
  }

  /** Soft-deleted rows too. */
  withTrashed(): this {
    this.trashed = 'with';
    return this;
  }

  /** Soft-deleted rows only. */
  onlyTrashed(): this {
    this.trashed = 'only';
    return this;
  }

  /** `FOR UPDATE` on the rows read (PostgreSQL; SQLite's transactions already hold the only write lock). Needs a transaction. */
  lockForUpdate(): this {
    this.lock = LockMode.PESSIMISTIC_WRITE;
    return this;
  }

  /** `FOR SHARE` on the rows read (PostgreSQL). Needs a transaction. */
  sharedLock(): this {
    this.lock = LockMode.PESSIMISTIC_READ;
    return this;
  }

  // ── reading ─────────────────────────────────────────────────────────────

  get(): Promise<RowOf<M>[]> {
    const codec = this.session.codec(this.model);
    // The driver's rows are fresh objects of exactly these columns: decoded in place, not copied.
    return this.readRanked(async (query) => codec.decodeRows(await query.select(codec.columnNames, true).execute<Dictionary[]>('all', false)) as RowOf<M>[]);
  }

  async first(): Promise<RowOf<M> | null> {
    const [row] = await this.clone().limit(1).get();
    return row ?? null;
  }

  /** The row with this key (under the query's conditions), or null. */
  async find(id: RowOf<M>['id']): Promise<RowOf<M> | null> {
    // One copy, not first()'s second: a by-id lookup is the commonest query there is.
    const [row] = await this.clone().where('id' as ColumnOf<M>, id as never).limit(1).get();
    return row ?? null;
  }

  /** The row with this key, or `RecordNotFound` (a 404 through the HTTP layer). */
  async findOrFail(id: RowOf<M>['id']): Promise<RowOf<M>> {
    const row = await this.find(id);
    if (row === null) throw new RecordNotFound(this.model.table);
    return row;
  }

  /** The first matching row, or `RecordNotFound` (a 404 through the HTTP layer). */
  async firstOrFail(): Promise<RowOf<M>> {
    const row = await this.first();
    if (row === null) throw new RecordNotFound(this.model.table);
    return row;
  }

  // ── pages (at most 1000 rows, whatever is asked) ────────────────────────

  /** Page `page` of `perPage` rows, with the total count (same conditions, soft deletes and scope). */
  async paginate(perPage?: number, page?: number): Promise<LengthAwarePage<RowOf<M>>> {
    const size = clampPerPage(perPage);
    const current = clampPage(page);
    const total = await this.count();
    const numbers = pageNumbers(total, size, current);
    const items = numbers.from === null ? [] : await (await this.newestFirstBySearchCount(total)).limit(size).offset(numbers.offset).get();
    return { items, total, perPage: size, currentPage: current, lastPage: numbers.lastPage, from: numbers.from, to: numbers.to, hasMorePages: current < numbers.lastPage };
  }

  /**
   * SQLite: a copy of this query for a newest-first page of a search, written for the plan its
   * count calls for. SQLite drives `"id" in (select rowid … match …)` by the search's rowid list
   * and sorts every match (a quarter of 100 000 rows: 30–40 ms), unless the term reads `+"id"`:
   * then it walks the `latest()` order's index (or the key, for a model without timestamps) and
   * probes the list, stopping after the page (the same page: 3–7 ms). The walk passes about
   * table ÷ matches rows per row of the page, and at worst the whole index (~0.07 µs a row
   * against ~1.6 µs a match sorted), so it is taken when at least 1 row in 32 matches, counted
   * against the largest key (cheap; over-counting deletions only keeps the other plan), and only
   * when such an index exists: without one the walk would be a table scan.
   */
  private async newestFirstBySearchCount(matches: number | null): Promise<ModelQuery<M>> {
    const page = this.clone();
    page.planChosen = true;
    if (!this.mayWalkNewestFirst() || matches === 0 || (matches === null && !this.searchOnly())) return page;
    const [first, second] = this.orders;
    const byKey = first !== undefined && 'column' in first && first.column === 'id' && second === undefined;
    if (!byKey && !(await this.session.latestIndexed(this.model))) return page;
    const [row] = await this.session.builder(this.model).select(raw('max("id") as "most"')).execute<Dictionary[]>('all', false);
    const enough = Math.ceil(Number(row?.['most'] ?? 0) / WALK_WHEN_ONE_ROW_IN);
    // Without a count (a read with a limit), FTS5 counts the matches up to that many, when the search is the only condition.
    const known = matches ?? (await this.searchOnlyCount(enough));
    if (known === null || known < enough) return page;
    for (const condition of this.searchFilters.values()) {
      const at = page.conditions.indexOf(condition);
      if (at >= 0) page.conditions.splice(at, 1, { kind: 'raw', sql: `+${condition.sql}`, params: condition.params });
    }
    return page;
  }

  /** SQLite: whether this query is a search ordered newest first (`latest()`, or `id` DESC alone), whose page may walk that order. */
  private mayWalkNewestFirst(): boolean {
    if (this.planChosen || this.session.engine !== 'sqlite' || this.searchFilters.size === 0 || this.groups.length > 0 || this.havings.length > 0) return false;
    const [first, second, ...rest] = this.orders;
    const newestFirst = (order: Order | undefined, column: string): boolean => order !== undefined && 'column' in order && order.column === column && order.direction === 'desc';
    if (newestFirst(first, 'id') && second === undefined) return true;
    return this.model.timestamps && newestFirst(first, 'created_at') && newestFirst(second, 'id') && rest.length === 0;
  }

  /** Page `page` without counting: one extra row says whether another page follows. */
  async simplePaginate(perPage?: number, page?: number): Promise<SimplePage<RowOf<M>>> {
    const size = clampPerPage(perPage);
    const current = clampPage(page);
    const rows = await this.clone().limit(size + 1).offset((current - 1) * size).get();
    return { items: rows.slice(0, size), perPage: size, currentPage: current, hasMorePages: rows.length > size };
  }

  /**
   * Keyset pages in the query's order (then `id`, which breaks ties): fast at any depth, and
   * stable while rows are added. NULLs sort after every value ascending (before, descending) on
   * both engines. A cursor that is not one of ours starts from the beginning.
   */
  async cursorPaginate(perPage?: number, cursor?: string | null): Promise<CursorPage<RowOf<M>>> {
    const size = clampPerPage(perPage);
    const keys: Array<{ column: string; direction: 'asc' | 'desc' }> = [];
    for (const order of this.orders) {
      if (!('column' in order)) throw new InvalidQuery('bad_value', 'cursorPaginate orders by columns only, not by raw SQL');
      if (order.column !== 'id') keys.push(order);
    }
    const last = this.orders.find((order): order is { column: string; direction: 'asc' | 'desc' } => 'column' in order && order.column === 'id');
    keys.push({ column: 'id', direction: last?.direction ?? 'asc' });
    const page = this.clone();
    page.orders = [];
    page.nullsOrdered = true;
    for (const { column, direction } of keys) page.orderBy(column as ColumnOf<M>, direction);
    const decoded = cursor === undefined || cursor === null ? null : decodeCursor(cursor, keys.length);
    const values = decoded === null ? null : keys.map(({ column }, index) => this.fromCursor(column, decoded[index]));
    // A cursor whose values do not fit the columns was not made by us (a visitor edited it):
    // like any other cursor that is not one of ours, it starts from the beginning.
    const after = values !== null && this.fitsColumns(keys, values) ? values : null;
    if (after !== null) {
      const values = after;
      page.conditions.push({
        kind: 'group',
        join: 'or',
        conditions: keys.map((key, index) => ({
          kind: 'group' as const,
          join: 'and' as const,
          conditions: [...keys.slice(0, index).map((earlier, at) => equalTo(earlier.column, values[at])), beyond(key.column, key.direction, values[index], this.nullable(key.column))],
        })),
      });
      const [lead] = keys;
      const leadValue = values[0];
      // The OR above is exact, but with bound values it gives SQLite no index range: it scans the
      // index from the first row to the cursor (page 10 000 of latest(): 500 000 entries, 150 ms).
      // MikroORM 6 happens to inline values as literals, from which SQLite derives the range
      // itself; the first key's bound, implied by the OR, keeps the seek from depending on that.
      // Ascending a nullable column, the rows left include the NULLs, so no such bound holds there.
      if (keys.length > 1 && lead !== undefined && leadValue !== null && (lead.direction === 'desc' || !this.nullable(lead.column))) {
        page.conditions.push({ kind: 'compare', column: lead.column, op: lead.direction === 'asc' ? '>=' : '<=', value: leadValue });
      }
    }
    const rows = await page.limit(size + 1).get();
    const items = rows.slice(0, size);
    const tail = items[items.length - 1] as Record<string, unknown> | undefined;
    const hasMorePages = rows.length > size;
    return { items, perPage: size, hasMorePages, nextCursor: hasMorePages && tail !== undefined ? encodeCursor(keys.map(({ column }) => toCursor(tail[column]))) : null };
  }

  /** Whether a column may hold NULL (the key never does). */
  private nullable(column: string): boolean {
    return column !== 'id' && (this.model.columns.get(column)?.allowsNull ?? true);
  }

  /** Whether every cursor value is one the column's codec takes (NULLs included where allowed). */
  private fitsColumns(keys: readonly { column: string }[], values: readonly unknown[]): boolean {
    const codec = this.session.codec(this.model);
    return keys.every(({ column }, index) => {
      const value = values[index];
      if (value === null) return this.nullable(column);
      try {
        codec.encode(column, value);
        return true;
      } catch (error) {
        if (error instanceof InvalidQuery) return false;
        throw error;
      }
    });
  }

  private fromCursor(column: string, value: unknown): unknown {
    if (value === null || value === undefined) return null;
    const kind = column === 'id' ? null : this.model.columns.get(column)?.kind;
    return kind === 'timestamp' && typeof value === 'string' ? new Date(value) : value;
  }

  /** The rows with these keys, in the order given; missing ones are skipped, repeats given once. */
  async findMany(ids: readonly RowOf<M>['id'][]): Promise<RowOf<M>[]> {
    const unique = [...new Set(ids)];
    const rows = await this.clone().whereIn('id' as ColumnOf<M>, unique as never[]).get();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return unique.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [row];
    });
  }

  async count(): Promise<number> {
    const searchOnly = this.searchOnlyCount();
    if (searchOnly !== null) return searchOnly;
    const qb = this.readingEveryMatch().base(false);
    const [row] = await qb.select(raw('count(*) as "aggregate"')).execute<Dictionary[]>('all', false);
    return Number(row?.['aggregate'] ?? 0);
  }

  /**
   * SQLite: a count whose only conditions are `whereSearch`es (no other condition, scope or
   * soft deletes) is FTS5's count of its query: the index holds exactly the table's rows (its
   * triggers), and counting through the table visits every match (a quarter of 100 000 rows for
   * a common word: 11 ms against 1 ms). Null when the query needs the table. With `upTo`, it
   * stops counting there (FTS5 then reads only that many of the match list).
   */
  private searchOnlyCount(upTo?: number): Promise<number> | null {
    if (!this.searchOnly()) return null;
    const queries = [...this.searchFilters.values()].filter((condition) => this.conditions.includes(condition)).flatMap((condition) => condition.params.map(String));
    const index = quoted(searchIndexName(this.model));
    // Through the model's builder (its transaction, if any); an empty table gives no row, and so does its index.
    const counted = upTo === undefined ? `(select count(*) from ${index} where ${index} match ?) as "aggregate"` : `(select count(*) from (select 1 from ${index} where ${index} match ? limit ?)) as "aggregate"`;
    const params: unknown[] = upTo === undefined ? [fts5AllOf(queries)] : [fts5AllOf(queries), upTo];
    const qb = this.session.builder(this.model).select(raw(counted, params)).limit(1);
    return qb.execute<Dictionary[]>('all', false).then(([row]) => Number(row?.['aggregate'] ?? 0));
  }

  /** SQLite: whether this query's only conditions are `whereSearch`es (no other condition, scope or soft deletes). */
  private searchOnly(): boolean {
    if (this.session.engine !== 'sqlite' || this.conditions.length === 0 || this.groups.length > 0 || this.havings.length > 0) return false;
    if (this.model.softDeletes && this.trashed !== 'with') return false;
    if (this.scoped && Object.keys(this.session.scopeOf(this.model)).length > 0) return false;
    const filters: readonly Condition[] = [...this.searchFilters.values()];
    return this.conditions.every((condition) => filters.includes(condition));
  }

  async exists(): Promise<boolean> {
    const qb = this.base(false);
    const rows = await qb.select(raw('1 as "found"')).limit(1).execute<Dictionary[]>('all', false);
    return rows.length > 0;
  }

  sum(column: ColumnOf<M>): Promise<number> {
    return this.aggregate('sum', column).then((value) => value ?? 0);
  }

  avg(column: ColumnOf<M>): Promise<number | null> {
    return this.aggregate('avg', column);
  }

  min(column: ColumnOf<M>): Promise<number | null> {
    return this.aggregate('min', column);
  }

  max(column: ColumnOf<M>): Promise<number | null> {
    return this.aggregate('max', column);
  }

  /** How many matching rows hold each value of `groupColumn` (one GROUP BY statement). */
  countBy(groupColumn: ColumnOf<M>): Promise<Map<unknown, number>> {
    return this.groupedAggregate('count', groupColumn, null);
  }

  /** The sum of `column` over the matching rows of each value of `groupColumn` (one statement). */
  sumBy(groupColumn: ColumnOf<M>, column: ColumnOf<M>): Promise<Map<unknown, number>> {
    return this.groupedAggregate('sum', groupColumn, column);
  }

  private async groupedAggregate(fn: 'count' | 'sum', groupColumn: string, column: string | null): Promise<Map<unknown, number>> {
    checkColumn(this.model, groupColumn, 'order');
    if (column !== null) checkColumn(this.model, column, 'order');
    const qb = this.readingEveryMatch().base(false);
    const value = fn === 'count' ? 'count(*)' : `sum(${quoted(column ?? 'id')})`;
    qb.select([raw(`${quoted(groupColumn)} as "group_key"`), raw(`${value} as "aggregate"`)]).groupBy([raw<never>(quoted(groupColumn))]);
    const codec = this.session.codec(this.model);
    const rows = await qb.execute<Dictionary[]>('all', false);
    return new Map(rows.map((row) => [codec.decode(groupColumn, row['group_key']), Number(row['aggregate'] ?? 0)]));
  }

  /** One column's values, in the query's order. */
  async pluck<C extends ColumnOf<M>>(column: C): Promise<ValueOfColumn<M, C>[]> {
    checkColumn(this.model, column, 'read');
    const codec = this.session.codec(this.model);
    return this.readRanked(async (query) => (await query.select([column], true).execute<Dictionary[]>('all', false)).map((row) => codec.decode(column, row[column]) as ValueOfColumn<M, C>));
  }

  /** Rows holding only these columns. */
  async selectAs<C extends ColumnOf<M>>(columns: readonly C[]): Promise<Array<Pick<RowOf<M>, C & keyof RowOf<M>>>> {
    for (const column of columns) checkColumn(this.model, column, 'read');
    const codec = this.session.codec(this.model);
    return this.readRanked(async (query) => (await query.select([...columns], true).execute<Dictionary[]>('all', false)).map((row) => Object.fromEntries(columns.map((column) => [column, codec.decode(column, row[column])])) as Pick<RowOf<M>, C & keyof RowOf<M>>));
  }

  /**
   * The matching rows `size` at a time, in id order (the query's own order and limit do not
   * apply, so rows changed by `each` are neither skipped nor seen twice). `each` returning
   * `false` stops.
   */
  async chunk(size: number, each: (rows: RowOf<M>[]) => unknown): Promise<void> {
    const step = Math.max(1, Math.floor(size));
    let after: RowOf<M>['id'] | null = null;
    for (;;) {
      const page = this.clone();
      page.orders = [];
      page.offsetCount = null;
      page.orderBy('id' as ColumnOf<M>).limit(step);
      if (after !== null) page.where('id' as ColumnOf<M>, '>', after as never);
      const rows = await page.get();
      if (rows.length === 0) return;
      if ((await each(rows)) === false) return;
      if (rows.length < step) return;
      after = rows[rows.length - 1]?.id ?? null;
    }
  }

  /** This query as knex's SELECT of every column, without order or size: what fw joins with knex (pivots). */
  knexSelect(): Knex.QueryBuilder {
    return this.base(false).select(columnNames(this.model)).getKnexQuery();
  }

  /** The value codec of this query's model. */
  codec(): RowCodec {
    return this.session.codec(this.model);
  }

  /**
   * The statement `get()` would send, with its bound values: on this database's engine, or on
   * `dialect` (`'sqlite'` or `'postgres'`), compiled by that engine's MikroORM dialect with its
   * value encodings. Search conditions and subqueries are written for the database's own engine
   * when they are added, so such a query compiles for that engine only (an `InvalidQuery`).
   */
  toSql(dialect?: EngineName): { sql: string; params: unknown[] } {
    if (dialect !== undefined && dialect !== this.session.engine) {
      if (this.engineBound || this.conditions.some((condition) => condition.kind === 'in-query')) {
        throw new InvalidQuery('bad_value', `This query uses search or a subquery, written for ${this.session.engine}: toSql('${dialect}') cannot translate it`);
      }
      return this.cloneOn(this.session.inDialect(dialect)).toSql();
    }
    const qb = this.select(columnNames(this.model), true);
    const query = qb.toQuery();
    return { sql: query.sql, params: [...query.params] };
  }

  // ── writing ─────────────────────────────────────────────────────────────

  /** Inserts one row (defaults, key and timestamps filled in) and returns it. */
  create(values: NewRowOf<M>): Promise<RowOf<M>> {
    return this.session.insertRow(this.model, values) as Promise<RowOf<M>>;
  }

  /** Inserts many rows in as few statements as the engine's parameter limit allows; no hooks. Returns how many. */
  insertMany(rows: readonly NewRowOf<M>[]): Promise<number> {
    return this.session.insertRows(this.model, rows);
  }

  /** Sets columns of every matching row (and `updated_at`); setting `id` is an `InvalidQuery`. Returns how many rows changed. */
  async update(values: { [C in ColumnOf<M>]?: ValueOfColumn<M, C> }): Promise<number> {
    const set = this.session.encodeChanges(this.model, values);
    if (Object.keys(set).length === 0) return 0;
    return this.runUpdate(set);
  }

  /** Adds `by` to a numeric column of every matching row in one statement (no read-modify-write). */
  async increment(column: ColumnOf<M>, by = 1): Promise<number> {
    checkColumn(this.model, column, 'write');
    if (column === 'id') throw new InvalidQuery('update_sets_key', `An update cannot set '${this.model.table}.id'`);
    const kind = this.model.columns.get(column)?.kind;
    if (kind !== 'integer' && kind !== 'float') throw new InvalidQuery('bad_value', `'${this.model.table}.${column}' is not a number column`);
    this.session.codec(this.model).encode(column, by);
    const sum: unknown = raw(`${quoted(column)} + ?`, [by]);
    const set: Dictionary = { ...this.session.encodeChanges(this.model, {}), [column]: sum };
    return this.runUpdate(set);
  }

  decrement(column: ColumnOf<M>, by = 1): Promise<number> {
    return this.increment(column, -by);
  }

  /** Deletes every matching row: soft-deletes on a model with `softDeletes`. Returns how many. No hooks. */
  async delete(): Promise<number> {
    if (this.model.softDeletes) return this.runUpdate({ deleted_at: this.session.codec(this.model).encode('deleted_at', this.session.now()) });
    return this.forceDelete();
  }

  /** Removes the matching rows for good, soft deletes or not. */
  async forceDelete(): Promise<number> {
    checkConditions(this.model, this.conditions);
    const qb = this.session.builder(this.model);
    qb.delete().where(this.filter());
    const result = await qb.execute<{ affectedRows: number }>('run', false);
    return result.affectedRows;
  }

  /** Undoes soft deletes of the matching (trashed) rows. No hooks. */
  async restore(): Promise<number> {
    if (!this.model.softDeletes) return 0;
    if (this.trashed === 'without') this.trashed = 'only';
    return this.runUpdate({ deleted_at: null });
  }

  /**
   * Inserts `rows`, and where a row with the same `unique` columns exists, sets `update` columns
   * instead: one statement, which needs a unique index on `unique`. No hooks.
   */
  upsert(rows: readonly NewRowOf<M>[], unique: readonly ColumnOf<M>[], update: readonly ColumnOf<M>[]): Promise<number> {
    return this.session.upsertRows(this.model, rows, unique, update);
  }

  /** The first row matching `attributes`, or one created from `attributes` and `values`. Two racing callers make one row when `attributes` are unique. */
  async firstOrCreate(attributes: Partial<RowOf<M>>, values: Partial<NewRowOf<M>> = {}): Promise<RowOf<M>> {
    const found = await this.clone().where(attributes as never).first();
    if (found !== null) return found;
    try {
      return await this.create({ ...attributes, ...values } as unknown as NewRowOf<M>);
    } catch (error) {
      if (!this.session.isUniqueViolation(error)) throw error;
      const winner = await this.clone().where(attributes as never).first();
      if (winner === null) throw error;
      return winner;
    }
  }

  /** The first row matching `attributes`, or a new unsaved row from them and `values` (key unset). */
  async firstOrNew(attributes: Partial<RowOf<M>>, values: Partial<NewRowOf<M>> = {}): Promise<RowOf<M>> {
    const found = await this.clone().where(attributes as never).first();
    return found ?? (this.session.newRow(this.model, { ...attributes, ...values }) as RowOf<M>);
  }

  /** Updates the first row matching `attributes` with `values`, or creates one from both. */
  async updateOrCreate(attributes: Partial<RowOf<M>>, values: Partial<NewRowOf<M>>): Promise<RowOf<M>> {
    const found = await this.clone().where(attributes as never).first();
    if (found === null) return this.create({ ...attributes, ...values } as unknown as NewRowOf<M>);
    return this.session.saveRow(this.model, { ...found, ...values }) as Promise<RowOf<M>>;
  }

  // ── plumbing ────────────────────────────────────────────────────────────

  /** A copy to change without changing this one. */
  clone(): ModelQuery<M> {
    return this.cloneOn(this.session);
  }

  private cloneOn(session: ModelSession): ModelQuery<M> {
    const copy = new ModelQuery(session, this.model);
    copy.engineBound = this.engineBound;
    // The constructor made empty ones: copies only when there is something to copy.
    if (this.searchedFor.size > 0) copy.searchedFor = new Set(this.searchedFor);
    if (this.searchFilters.size > 0) copy.searchFilters = new Map(this.searchFilters);
    copy.conditions.push(...this.conditions);
    copy.orders = this.orders.slice();
    copy.limitCount = this.limitCount;
    copy.offsetCount = this.offsetCount;
    copy.groups = this.groups.slice();
    copy.havings = this.havings.slice();
    copy.lock = this.lock;
    copy.trashed = this.trashed;
    copy.scoped = this.scoped;
    copy.nullsOrdered = this.nullsOrdered;
    return copy;
  }

  /** The WHERE of this query: its conditions, the scope, the soft-delete rule, every value encoded. */
  private filter(): Dictionary {
    let conditions: readonly Condition[] = this.conditions;
    if (this.scoped) {
      const scope: Condition[] = [];
      for (const [column, value] of Object.entries(this.session.scopeOf(this.model))) scope.push({ kind: 'compare', column, op: '=', value });
      if (scope.length > 0) {
        checkConditions(this.model, scope);
        conditions = [...conditions, ...scope];
      }
    }
    const trashed = this.model.softDeletes && this.trashed !== 'with' ? { deleted_at: this.trashed === 'only' ? { $ne: null } : null } : null;
    return toFilter(conditions, this.session.codec(this.model), trashed === null ? NO_FILTERS : [trashed]);
  }

  /**
   * A SELECT with the conditions and grouping, without columns yet. Checks the query first.
   * Not async on purpose: a QueryBuilder is thenable, so an async function returning one
   * would run it.
   */
  private base(ordered: boolean): QueryBuilder<Dictionary> {
    checkConditions(this.model, this.conditions);
    for (const column of this.groups) checkColumn(this.model, column, 'read');
    const qb = this.session.builder(this.model);
    qb.where(this.filter());
    if (this.groups.length > 0) qb.groupBy(this.groups);
    for (const having of this.havings) qb.andHaving(having.sql, having.params);
    if (ordered) {
      // One call with every order: each `orderBy` call of MikroORM's builder replaces the last.
      if (this.orders.length > 0) qb.orderBy(this.orders.map((order) => {
        if ('column' in order) checkColumn(this.model, order.column, 'order');
        // A column that holds no NULL needs no NULLS clause, which would stop SQLite ordering by its index.
        const nulls = this.nullsOrdered && !('column' in order && !this.nullable(order.column));
        const direction = nulls ? (order.direction === 'asc' ? QueryOrder.ASC_NULLS_LAST : QueryOrder.DESC_NULLS_FIRST) : order.direction;
        return 'column' in order ? { [order.column]: direction } : { [raw(order.sql, [...order.params])]: direction };
      }));
      if (this.limitCount !== null) qb.limit(this.limitCount);
      if (this.offsetCount !== null) qb.offset(this.offsetCount);
    }
    return qb;
  }

  private select(columns: readonly string[], rowsRead: boolean): QueryBuilder<Dictionary> {
    const qb = this.base(true);
    qb.select([...columns]);
    if (rowsRead && this.lock !== null && this.session.engine === 'postgres') qb.setLockMode(this.lock);
    return qb;
  }

  private async aggregate(fn: 'sum' | 'avg' | 'min' | 'max', column: string): Promise<number | null> {
    checkColumn(this.model, column, 'order');
    const qb = this.readingEveryMatch().base(false);
    const [row] = await qb.select(raw(`${fn}(${quoted(column)}) as "aggregate"`)).execute<Dictionary[]>('all', false);
    const value: unknown = row?.['aggregate'];
    return value === null || value === undefined ? null : Number(value);
  }

  private async runUpdate(set: Dictionary): Promise<number> {
    checkConditions(this.model, this.conditions);
    const qb = this.session.builder(this.model);
    qb.update(set).where(this.filter());
    const result = await qb.execute<{ affectedRows: number }>('run', false);
    return result.affectedRows;
  }
}

/** `column` holds `value` (IS NULL for null). */
function equalTo(column: string, value: unknown): Condition {
  return value === null ? { kind: 'null', column, negate: false } : { kind: 'compare', column, op: '=', value };
}

/** `column` comes after `value` in its direction, NULLs being the largest value. */
function beyond(column: string, direction: 'asc' | 'desc', value: unknown, nullable: boolean): Condition {
  // Without NULLs the plain comparison is the whole condition, and an index serves it.
  if (!nullable && value !== null) return { kind: 'compare', column, op: direction === 'asc' ? '>' : '<', value };
  if (direction === 'asc') {
    return value === null ? { kind: 'group', join: 'or', conditions: [] } : { kind: 'group', join: 'or', conditions: [{ kind: 'compare', column, op: '>', value }, { kind: 'null', column, negate: false }] };
  }
  return value === null ? { kind: 'null', column, negate: true } : { kind: 'compare', column, op: '<', value };
}

/** A row value as a cursor holds it (JSON: instants as ISO text). */
function toCursor(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

/**
 * The words relevance is counted for: the first few of at least two characters (the first word
 * when none is that long). Visitor text may hold any number of words, and each ranked word costs
 * one search-index read per column group on every query (on SQLite, synchronously, in the
 * server's own thread): sixteen one-letter prefixes took over a second at 50 000 rows. Filtering
 * (`whereSearch`) still requires every word.
 */
export const MAX_RANKED_WORDS = 4;

function rankedWords(words: readonly string[]): readonly string[] {
  const long = words.filter((word) => word.length >= 2).slice(0, MAX_RANKED_WORDS);
  return long.length > 0 ? long : words.slice(0, 1);
}
