import { totalmem } from 'node:os';
import { DuckDBInstance, DuckDBScalarFunction, VARCHAR, type DuckDBConnection, type DuckDBVarCharVector } from '@duckdb/node-api';
import { ANY_VALUE_JSON_FUNCTION, WrongTypedAnyValue, anyValueJson } from './load/any-value.js';

/** Row as plain JSON values (64-bit integers as strings, as @duckdb/node-api's JSON conversion gives them). */
export type Row = Record<string, unknown>;

/** A DuckDB database and one connection. No extension is installed or loaded (json and parquet are built in). */
export class Db {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
    private readonly memoryLimit: string | undefined,
  ) {}

  /** Open `path` (a file) or an in-memory database, with DuckDB's defaults unless `settings` (DuckDB configuration options) say otherwise. */
  static async open(path = ':memory:', settings: Readonly<Record<string, string>> = {}): Promise<Db> {
    const instance = await DuckDBInstance.create(path, { ...settings, autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
    const conn = await instance.connect();
    conn.registerScalarFunction(anyValueJsonFunction());
    return new Db(instance, conn, settings.memory_limit);
  }

  /** True when DuckDB opens an in-memory database with these settings. */
  static async accepts(settings: Readonly<Record<string, string>>): Promise<boolean> {
    try {
      (await DuckDBInstance.create(':memory:', { ...settings })).closeSync();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Run `fn` under DuckDB's default memory limit. Reading a file line by line (read_csv) or as one
   * JSON document reserves a buffer of 16 times the longest line (or twice the largest object)
   * allowed up front; a tight limit refuses that reservation although little of it is touched.
   * Only those reads use this, never the bulk OTLP JSON-lines path.
   */
  async withDefaultMemoryLimit<T>(fn: () => Promise<T>): Promise<T> {
    if (this.memoryLimit === undefined) return fn();
    // DuckDB's own default: 80% of physical memory (RESET would go back to the limit this database was opened with).
    await this.run(`SET memory_limit = '${Math.floor((totalmem() * 0.8) / 2 ** 20)}MiB'`);
    try {
      return await fn();
    } finally {
      await this.run(`SET memory_limit = '${this.memoryLimit.replace(/'/g, "''")}'`);
    }
  }

  /**
   * Run `fn` with DuckDB's memory limit lowered to `share` of the run's, so memory spent outside
   * DuckDB meanwhile (the classifier threads' heaps) stays within the run's budget; DuckDB spills
   * what no longer fits to its temporary directory. Without a limit of its own, or one this cannot
   * read as a size, the database keeps its limit.
   */
  async withMemoryLimitShare<T>(share: number, fn: () => Promise<T>): Promise<T> {
    const bytes = this.memoryLimit === undefined ? undefined : sizeInBytes(this.memoryLimit);
    if (bytes === undefined) return fn();
    await this.run(`SET memory_limit = '${Math.floor((bytes * share) / 2 ** 20)}MiB'`);
    try {
      return await fn();
    } finally {
      await this.run(`SET memory_limit = '${this.memoryLimit!.replace(/'/g, "''")}'`);
    }
  }

  /**
   * A second connection to the same database. A query streaming on one connection ends (silently:
   * an empty chunk) when that connection runs anything else — an appender's flush included — so
   * whatever writes while a stream is read writes through its own connection. Temp tables belong
   * to the connection that made them. Close it before {@link close}.
   */
  async connect(): Promise<DuckDBConnection> {
    return this.instance.connect();
  }

  async run(sql: string): Promise<void> {
    await this.conn.run(sql);
  }

  async all(sql: string): Promise<Row[]> {
    const reader = await this.conn.runAndReadAll(sql);
    return reader.getRowObjectsJson() as Row[];
  }

  async one(sql: string): Promise<Row> {
    const rows = await this.all(sql);
    const row = rows[0];
    if (!row) throw new Error('query returned no row');
    return row;
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

/**
 * {@link anyValueJson} as DuckDB's `argspan_any_value_json(VARCHAR)`, for staging maps and nested
 * arrays. Only the staging queries of this connection call it (never a view: a database file
 * written with `--db` opens anywhere), and only on the few values that hold such a shape. A value
 * of the wrong type fails the statement, as the typed read does.
 */
function anyValueJsonFunction(): DuckDBScalarFunction {
  return DuckDBScalarFunction.create({
    name: ANY_VALUE_JSON_FUNCTION,
    returnType: VARCHAR,
    parameterTypes: [VARCHAR],
    mainFunction: (info, input, output) => {
      const texts = input.getColumnVector(0) as DuckDBVarCharVector;
      try {
        for (let i = 0; i < input.rowCount; i++) {
          const text = texts.getItem(i);
          output.setItem(i, text === null ? null : anyValueJson(text));
        }
      } catch (err) {
        // The statement fails, as DuckDB's typed read fails on such a value; the message holds no data.
        if (err instanceof WrongTypedAnyValue) return info.setError(err.message);
        throw err;
      }
      output.flush();
    },
  });
}

const SIZE_UNITS: Record<string, number> = { b: 1, byte: 1, bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** A DuckDB size setting (`1.25GB`, `2GiB`, `512MB`, `1000000000b`) in bytes; undefined for anything else. */
export function sizeInBytes(size: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(size);
  const unit = SIZE_UNITS[(m?.[2] || 'b').toLowerCase()];
  return m && unit !== undefined ? Number(m[1]) * unit : undefined;
}
