import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Row as plain JSON values (64-bit integers as strings, as @duckdb/node-api's JSON conversion gives them). */
export type Row = Record<string, unknown>;

/** A DuckDB database and one connection. No extension is installed or loaded (json and parquet are built in). */
export class Db {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
  ) {}

  /** Open `path` (a file) or an in-memory database. */
  static async open(path = ':memory:'): Promise<Db> {
    const instance = await DuckDBInstance.create(path, { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
    return new Db(instance, await instance.connect());
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
