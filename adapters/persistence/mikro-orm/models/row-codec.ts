import type { ColumnSpec, EngineName } from '../../../../domain/data/columns.js';
import { InvalidQuery } from '../../../../domain/data/invalid-query.js';
import type { ModelDefinition } from '../../../../domain/data/model.js';
import type { SecretBox } from '../../../../ports/secret-box.js';
import { FrameworkError } from '../../../../domain/shared/errors.js';

/** An encrypted value that does not open: damaged, or sealed under another APP_KEY. */
export class DecryptionFailed extends FrameworkError {
  constructor(message: string) {
    super('data.decryption-failed', message);
  }
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/u;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/u;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d{1,6})?)?$/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/iu;

/**
 * Turns a model's values into what each engine stores and back, so a row reads the same on
 * SQLite and PostgreSQL: booleans as 0/1 or BOOLEAN, UUIDs as 16 bytes or UUID, instants as
 * ISO 8601 text or TIMESTAMPTZ, JSON as text or JSONB, encrypted values sealed. A value of the
 * wrong type is an `InvalidQuery` ('bad_value') before anything is sent.
 */
export class RowCodec {
  /** The key's and the columns' specs, looked up once: `decodeRow` runs for every row read. */
  private readonly keySpec: ColumnSpec;
  /** The model's columns and their specs, in order, as an array: iterating the model's Map made an entry array per column per row. */
  readonly columnSpecs: ReadonlyArray<readonly [string, ColumnSpec]>;
  /**
   * What `decodeRows` converts: the key and the columns whose stored value is not already the
   * model's (numbers come back as numbers unless the driver sends text, as PostgreSQL does for
   * BIGINT; text, enum, ULID, time and date columns come back as they are).
   */
  private readonly numberColumns: readonly string[];
  private readonly convertedSpecs: ReadonlyArray<readonly [string, ColumnSpec]>;
  /** Every stored column, the key first: what `get()` selects (frozen, so the ORM cannot change it for the next query). */
  readonly columnNames: readonly string[];

  constructor(
    readonly model: ModelDefinition,
    readonly engine: EngineName,
    private readonly box: SecretBox,
  ) {
    this.keySpec = this.spec('id');
    this.columnSpecs = [...model.columns];
    const all: Array<readonly [string, ColumnSpec]> = [['id', this.keySpec], ...this.columnSpecs];
    this.numberColumns = all.filter(([, spec]) => spec.kind === 'integer' || spec.kind === 'float').map(([name]) => name);
    this.convertedSpecs = all.filter(([, spec]) => !PASSED_THROUGH.has(spec.kind) && spec.kind !== 'integer' && spec.kind !== 'float');
    this.columnNames = Object.freeze(all.map(([name]) => name));
  }

  spec(name: string): ColumnSpec {
    const spec = this.model.columns.get(name);
    if (spec !== undefined) return spec;
    return KEY_SPECS[this.model.key.type] ?? STRING_SPEC;
  }

  /** A value as the database takes it, checked against the column's kind. */
  encode(name: string, value: unknown): unknown {
    return this.encodeSpec(this.spec(name), value, name);
  }

  /** `encode` for a column whose spec the caller holds (`columnSpecs`): no lookup by name. */
  encodeSpec(spec: ColumnSpec, value: unknown, name: string): unknown {
    if (value === null || value === undefined) {
      if (!spec.allowsNull && name !== 'id' && value === null) throw this.bad(name, 'cannot be null');
      return null;
    }
    const sqlite = this.engine === 'sqlite';
    switch (spec.kind) {
      case 'string':
      case 'ulid':
        if (typeof value !== 'string') throw this.bad(name, 'must be text');
        if (spec.kind === 'ulid' && !ULID.test(value)) throw this.bad(name, 'must be a ULID');
        return spec.kind === 'ulid' ? value.toUpperCase() : value;
      case 'enum':
        if (typeof value !== 'string' || !(spec.values ?? []).includes(value)) throw this.bad(name, `must be one of ${(spec.values ?? []).join(', ')}`);
        return value;
      case 'integer':
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw this.bad(name, 'must be a whole number');
        return value;
      case 'float':
        if (typeof value !== 'number' || !Number.isFinite(value)) throw this.bad(name, 'must be a finite number');
        return value;
      case 'boolean':
        if (typeof value !== 'boolean') throw this.bad(name, 'must be true or false');
        return sqlite ? Number(value) : value;
      case 'json':
        return JSON.stringify(value);
      case 'time':
        if (typeof value !== 'string' || !TIME.test(value)) throw this.bad(name, 'must be a time HH:MM[:SS]');
        return value.length === 5 ? `${value}:00` : value;
      case 'date':
        if (typeof value !== 'string' || !DATE.test(value)) throw this.bad(name, 'must be a date YYYY-MM-DD');
        return value;
      case 'datetime': {
        const match = typeof value === 'string' ? DATETIME.exec(value) : null;
        if (match === null) throw this.bad(name, 'must be a date and time YYYY-MM-DDTHH:MM[:SS]');
        return `${match[1]}T${match[2]}:${match[3]}:${match[4] ?? '00'}${match[5] ?? ''}`;
      }
      case 'timestamp':
        if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw this.bad(name, 'must be a valid Date');
        return sqlite ? value.toISOString() : value;
      case 'uuid':
        if (typeof value !== 'string' || !UUID.test(value)) throw this.bad(name, 'must be a UUID');
        return sqlite ? Buffer.from(value.replace(/-/gu, ''), 'hex') : value.toLowerCase();
      case 'encrypted': {
        const inner = spec.inner ?? STRING_SPEC;
        // Checked as the inner kind first, so a wrong type fails the same way sealed or not.
        this.encodeSpec({ ...inner, allowsNull: false }, value, name);
        return this.box.seal(JSON.stringify(value));
      }
    }
  }

  /** A stored value as the model's type. */
  decode(name: string, raw: unknown): unknown {
    return this.decodeSpec(this.spec(name), raw, name);
  }

  private decodeSpec(spec: ColumnSpec, raw: unknown, name: string): unknown {
    if (raw === null || raw === undefined) return null;
    switch (spec.kind) {
      case 'integer':
      case 'float':
        return typeof raw === 'number' ? raw : Number(raw);
      case 'boolean':
        return raw === true || raw === 1 || raw === '1' || raw === 't';
      case 'json':
        return typeof raw === 'string' ? JSON.parse(raw) : raw;
      case 'datetime':
        return text(raw).replace(' ', 'T');
      case 'timestamp':
        return raw instanceof Date ? raw : new Date(normalizeInstant(text(raw)));
      case 'uuid':
        return Buffer.isBuffer(raw) ? formatUuid(raw) : text(raw).toLowerCase();
      case 'encrypted': {
        const plain = this.box.open(text(raw));
        if (plain === null) throw new DecryptionFailed(`The encrypted value of '${this.model.table}.${name}' does not open: it was changed, or sealed under another APP_KEY`);
        return JSON.parse(plain);
      }
      case 'string':
      case 'enum':
      case 'ulid':
      case 'time':
      case 'date':
        return raw;
    }
  }

  /** A whole stored row as the model's row: every column decoded, skipped fields given their fallback. */
  decodeRow(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const row: Record<string, unknown> = { id: this.decodeSpec(this.keySpec, raw['id'], 'id') };
    for (const [name, spec] of this.columnSpecs) if (name in raw) row[name] = this.decodeSpec(spec, raw[name], name);
    if (this.model.skipped.size > 0) for (const [name, fallback] of this.model.skipped) row[name] = fallback();
    return row;
  }

  /**
   * Rows read with every column (`columnNames`, as `get()` selects them) made the model's rows
   * in place: the same values as `decodeRow` gives, in the same order (the key, the columns in
   * their order, then the skipped fields), without a copy of each row. Only for the driver's own
   * fresh row objects, which nothing else holds.
   */
  decodeRows(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
    const numbers = this.numberColumns;
    const converted = this.convertedSpecs;
    const skipped = this.model.skipped.size > 0 ? this.model.skipped : null;
    for (const row of rows) {
      // What decodeSpec does for a number column, inline: PostgreSQL's BIGINT arrives as text.
      for (const name of numbers) {
        const raw = row[name];
        if (typeof raw !== 'number' && raw !== null) row[name] = raw === undefined ? null : Number(raw);
      }
      for (const [name, spec] of converted) row[name] = this.decodeSpec(spec, row[name], name);
      if (skipped !== null) for (const [name, fallback] of skipped) row[name] = fallback();
    }
    return rows;
  }

  private bad(name: string, what: string): InvalidQuery {
    return new InvalidQuery('bad_value', `The value of '${this.model.table}.${name}' ${what}`);
  }
}

/** Kinds whose stored value is the model's value on both engines (NULL being null). */
const PASSED_THROUGH: ReadonlySet<ColumnSpec['kind']> = new Set(['string', 'enum', 'ulid', 'time', 'date']);

const STRING_SPEC: ColumnSpec = { kind: 'string', allowsNull: false, defaultValue: null, values: null, inner: null };
const KEY_SPECS: Readonly<Record<string, ColumnSpec>> = {
  integer: { kind: 'integer', allowsNull: false, defaultValue: null, values: null, inner: null },
  string: { kind: 'string', allowsNull: false, defaultValue: null, values: null, inner: null },
  ulid: { kind: 'ulid', allowsNull: false, defaultValue: null, values: null, inner: null },
  uuid: { kind: 'uuid', allowsNull: false, defaultValue: null, values: null, inner: null },
};

/** PostgreSQL's `2026-11-24 12:00:00.123+00` as JavaScript's Date reads it everywhere. */
function normalizeInstant(text: string): string {
  return text.replace(' ', 'T').replace(/([+-]\d{2})$/u, '$1:00');
}

/** A driver's scalar as text. */
function text(raw: unknown): string {
  return typeof raw === 'string' ? raw : String(raw);
}

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
