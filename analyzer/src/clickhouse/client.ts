import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ClickHouseError, ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { UsageError } from '../usage-error.js';

/** A row of a query result as JSON values (64-bit integers as strings). */
export type ChRow = Record<string, unknown>;

/**
 * Settings every query of a run is sent with, so the rules mean in ClickHouse what they mean in
 * standard SQL and DuckDB: an outer join's missing side is NULL (`join_use_nulls`; ClickHouse's
 * default fills in empty strings and zeros, which the rules would read as values), and a column
 * name means the column even where the query also defines an alias of that name
 * (`prefer_column_name_to_alias`: `argMin(span_id, …) AS span_id` beside `argMin(trace_id, (…,
 * span_id))`). 64-bit integers come back as strings, exactly.
 */
export const SESSION_SETTINGS = {
  join_use_nulls: 1,
  prefer_column_name_to_alias: 1,
  output_format_json_quote_64bit_integers: 1,
} as const;

/** A ClickHouse server reached over HTTP: the URL (credentials in it, or from CLICKHOUSE_USER / CLICKHOUSE_PASSWORD). */
export function connectClickHouse(url: string, database: string): ClickHouseClient {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('--clickhouse-url', 'is not a URL (expected http[s]://host:port)');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError('--clickhouse-url', `${parsed.protocol} is not supported: the analyzer speaks ClickHouse's HTTP interface (http:// or https://, port 8123 or 8443)`);
  // (the client reads a URL's path as the database and its query as its own options: neither is the analyzer's to pass on)
  if (parsed.search !== '' || parsed.hash !== '') throw new UsageError('--clickhouse-url', 'takes no query string or fragment (give the database with --database)');
  if (parsed.pathname !== '/' && parsed.pathname !== '') throw new UsageError('--clickhouse-url', 'takes no path (give the database with --database)');
  const username = urlCredential(parsed.username, 'user name') || process.env.CLICKHOUSE_USER;
  const password = urlCredential(parsed.password, 'password') || process.env.CLICKHOUSE_PASSWORD;
  parsed.username = '';
  parsed.password = '';
  return createClient({
    url: parsed,
    database,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    // The derived tables are temporary tables of this session: one run, one session, nothing left behind.
    session_id: `argspan-${randomUUID()}`,
    request_timeout: 3_600_000,
    // Progress headers keep a long query's connection busy through load balancers' idle timeouts;
    // the session (and its tables) outlives the pauses between queries (the server's default is 60 s).
    clickhouse_settings: { ...SESSION_SETTINGS, send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '60000', session_timeout: '600' } as ClickHouseSettings,
    max_response_headers_size: 1024 * 1024,
    // The client's own log lines name queries and settings on stderr; failures are reported by the analyzer, in its words.
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** The URL without its credentials, to name the server in messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'the ClickHouse URL';
  }
}

/** Errors of the server or the network, not of argspan: a run that meets one exits 2, naming it. */
const SERVER_ERRORS = new Set([
  'MEMORY_LIMIT_EXCEEDED',
  'TIMEOUT_EXCEEDED',
  'TOO_MANY_SIMULTANEOUS_QUERIES',
  'AUTHENTICATION_FAILED',
  'ACCESS_DENIED',
  'READONLY',
  'QUERY_WAS_CANCELLED',
  'NETWORK_ERROR',
  'SOCKET_TIMEOUT',
  'ALL_CONNECTION_TRIES_FAILED',
  'SESSION_NOT_FOUND',
  'SESSION_IS_LOCKED',
  'TOO_MANY_ROWS_OR_BYTES',
  'TOO_MANY_PARTS',
  'UNKNOWN_DATABASE',
  'UNKNOWN_TABLE',
  'NOT_ENOUGH_SPACE',
]);

/** Node's network error codes. */
const NETWORK_CODE = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|CERT_|ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/;

/** The ClickHouse error type (`UNKNOWN_TABLE`), or undefined for another error. */
export function clickHouseErrorType(err: unknown): string | undefined {
  if (err instanceof ClickHouseError) return err.type ?? `code ${err.code}`;
  // The in-process engine's errors carry the same names.
  const ch = (err as { clickhouseCode?: unknown; type?: unknown } | null)?.type;
  return typeof ch === 'string' && /^[A-Z_]+$/.test(ch) ? ch : undefined;
}

/**
 * What a failed query of the analyzer's own means for the run: the server's or the network's
 * problem (a {@link UsageError} naming the server and the error type — ClickHouse's messages may
 * quote the data, so they are never shown), or, for anything else, the error itself (a bug).
 */
export function serverFailure(err: unknown, server: string, doing: string): Error {
  const type = clickHouseErrorType(err);
  if (type && SERVER_ERRORS.has(type)) {
    const hint =
      type === 'MEMORY_LIMIT_EXCEEDED' || type === 'TIMEOUT_EXCEEDED' || type === 'TOO_MANY_ROWS_OR_BYTES'
        ? ': narrow the window (--since/--until) or raise the server\'s limits for this user'
        : type === 'AUTHENTICATION_FAILED' || type === 'ACCESS_DENIED' || type === 'READONLY'
          ? ': the user needs SELECT on the traces table and CREATE TEMPORARY TABLE'
          : '';
    return new UsageError('--clickhouse-url', `${server} failed while ${doing}: ClickHouse error ${type}${hint}`);
  }
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && NETWORK_CODE.test(code)) return new UsageError('--clickhouse-url', `${server} could not be reached while ${doing} (${code})`);
  if (err instanceof Error && /timeout|socket hang up/i.test(err.message) && !type) return new UsageError('--clickhouse-url', `${server} did not answer in time while ${doing}`);
  return err instanceof Error ? err : new Error(String(err));
}

/** Rows per insert statement. */
const INSERT_ROWS = 10_000;

/** One session's queries, each failure mapped by {@link serverFailure}. */
export class ChSession {
  constructor(
    readonly client: ClickHouseClient,
    /** The server as named in messages (no credentials). */
    readonly server: string,
  ) {}

  /** Run a statement that returns no rows. */
  async run(sql: string, doing: string): Promise<void> {
    try {
      await this.client.command({ query: sql, clickhouse_settings: SESSION_SETTINGS });
    } catch (err) {
      throw serverFailure(err, this.server, doing);
    }
  }

  /** Run a query and return its rows. */
  async all(sql: string, doing: string): Promise<ChRow[]> {
    try {
      const rs = await this.client.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: SESSION_SETTINGS });
      return await rs.json<ChRow>();
    } catch (err) {
      throw serverFailure(err, this.server, doing);
    }
  }

  /** Run a query and hand its rows to `onRow` as they arrive (large results are never held whole). */
  async each(sql: string, doing: string, onRow: (row: ChRow) => void): Promise<void> {
    try {
      const rs = await this.client.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: SESSION_SETTINGS });
      for await (const rows of rs.stream<ChRow>()) for (const row of rows) onRow(row.json());
    } catch (err) {
      throw serverFailure(err, this.server, doing);
    }
  }

  /** Run a query and hand each line of its `TabSeparatedRaw` result (no escaping: the query's columns must hold no tab or newline) to `onLine`. */
  async eachLine(sql: string, doing: string, onLine: (line: string) => void): Promise<void> {
    try {
      const rs = await this.client.query({ query: sql, format: 'TabSeparatedRaw', clickhouse_settings: SESSION_SETTINGS });
      for await (const rows of rs.stream()) for (const row of rows) onLine(row.text);
    } catch (err) {
      throw serverFailure(err, this.server, doing);
    }
  }

  /**
   * Append rows to a table (JSONEachRow), {@link INSERT_ROWS} at a time: the client encodes an
   * insert as one string, and a million argument rows would not fit in one.
   */
  async insert(table: string, values: readonly ChRow[], doing: string): Promise<void> {
    if (values.length === 0) return;
    // Rows as arrays under one column list (every key any row has): no key repeated in every row.
    const seen = new Set<string>();
    for (const row of values) for (const key in row) seen.add(key);
    const columns = [...seen];
    try {
      for (let at = 0; at < values.length; at += INSERT_ROWS) {
        const rows = values.slice(at, at + INSERT_ROWS).map((row) => columns.map((c) => row[c] ?? null));
        await this.client.insert({ table, values: rows, columns: columns as [string, ...string[]], format: 'JSONCompactEachRow', clickhouse_settings: SESSION_SETTINGS });
      }
    } catch (err) {
      throw serverFailure(err, this.server, doing);
    }
  }

  /**
   * Append `TabSeparated` rows (`TsvRows`) to a table, `columns` in the rows' order. No session
   * settings: none bears on parsing, and chdb sends them as statements before the insert, which
   * made it scan the rows as SQL (an insert took half as long again).
   */
  async insertTsv(table: string, columns: readonly string[], rows: Buffer, doing: string): Promise<void> {
    try {
      await this.client.insert({ table, values: Readable.from([rows], { objectMode: false }), columns: columns as [string, ...string[]], format: 'TabSeparated' });
    } catch (err) {
      throw serverFailure(err, this.server, doing);
    }
  }
}

/** A user name or password of the URL, percent-decoded; a `%` not followed by two hex digits is a usage error (never quoting it). */
function urlCredential(encoded: string, what: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new UsageError('--clickhouse-url', `has a ${what} with a % not followed by two hex digits: write % as %25`);
  }
}
