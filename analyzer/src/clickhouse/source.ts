import { UsageError } from '../usage-error.js';
import type { ChSession } from './client.js';
import { attrValue, chIdent, chString } from './sql.js';

/** The oldest ClickHouse the rules run on: correlated subqueries (NOT EXISTS …) are on by default from 25.8. */
export const MIN_CLICKHOUSE_VERSION = [25, 8] as const;

/** Columns of the exporter's `otel_traces` the analyzer reads; every other column is left alone. */
const REQUIRED_COLUMNS = [
  'Timestamp',
  'TraceId',
  'SpanId',
  'ParentSpanId',
  'SpanName',
  'Duration',
  'SpanAttributes',
  'ResourceAttributes',
  'Events.Timestamp',
  'Events.Name',
  'Events.Attributes',
  'Links.TraceId',
  'Links.SpanId',
  'Links.Attributes',
] as const;

/** The run's slice of the traces table. */
export interface TraceWindow {
  /** Traces whose first span starts at or after this instant. @default the beginning of the table */
  since?: Date;
  /** …and before this one. @default no end */
  until?: Date;
  /** How long after `until` a claimed trace's spans are still read. */
  maxTraceDurationMs: number;
}

/** The traces table as the analyzer reads it. */
export interface TraceSource {
  /** `database`.`table`, quoted. */
  table: string;
  /** The instrumentation scope's name: the `ScopeName` column (exporter ≥ 0.106), else the `otel.scope.name` attribute older exporters wrote. */
  scopeName: string;
  /** The scope's version, likewise. */
  scopeVersion: string;
  /** Whether the table has the `ScopeName` and `ScopeVersion` columns (else they are span attributes, scanned as such). */
  scopeColumns: boolean;
  /** `GLOBAL IN run_traces` and the time bounds, or `1` for the whole table. */
  where: string;
  /** The instants the spans of the run's traces are read between (`readFrom` inclusive), when a window bounds them. */
  readFrom?: Date;
  readBefore?: Date;
  /**
   * Whether the run has GenAI log records (the session's `log_record_spans`, see `log-records.ts`):
   * their spans' events, and spans of their own, read beside the traces table.
   */
  logRecords?: boolean;
  /**
   * SQL: the log records of the run the credential scan reads (`TraceId`, `SpanId`, `Timestamp`,
   * `App`, `Body`, `LogAttributes`, `ResourceAttributes`, `ScopeName`, `ScopeVersion`,
   * `ScopeAttributes`; see `LogRecordsRead.scannedLogRecords`); absent when the run reads none.
   */
  scannedLogRecords?: string;
  /** Whether some spans have copies that differ, the ones not kept named in `dropped_copies` (see `span-copies.ts`). */
  droppedCopies?: boolean;
}

/** Check the server version and the table's columns; name the problem (exit 2) when either will not do. */
export async function openSource(session: ChSession, database: string, table: string, window: TraceWindow): Promise<TraceSource> {
  const [v] = await session.all('SELECT version() AS v', 'reading the server version');
  const [major = 0, minor = 0] = String(v?.v ?? '').split('.').map(Number);
  if (major < MIN_CLICKHOUSE_VERSION[0] || (major === MIN_CLICKHOUSE_VERSION[0] && minor < MIN_CLICKHOUSE_VERSION[1])) {
    throw new UsageError('--clickhouse-url', `${session.server} runs ClickHouse ${String(v?.v)}; the rules need ${MIN_CLICKHOUSE_VERSION.join('.')} or newer (correlated subqueries)`);
  }
  const cols = await session.all(
    `SELECT name FROM system.columns WHERE database = ${chString(database)} AND table = ${chString(table)}`,
    'reading the traces table\'s columns',
  );
  const names = new Set(cols.map((c) => String(c.name)));
  if (names.size === 0) throw new UsageError('--table', `${database}.${table} does not exist on ${session.server} (or this user may not read it)`);
  const missing = REQUIRED_COLUMNS.filter((c) => !names.has(c));
  if (missing.length) throw new UsageError('--table', `${database}.${table} is not the collector exporter's traces table: no column ${missing.join(', ')}`);
  const qualified = `${chIdent(database)}.${chIdent(table)}`;
  return {
    table: qualified,
    scopeName: names.has('ScopeName') ? "nullIf(ScopeName, '')" : attrValue('SpanAttributes', 'otel.scope.name'),
    scopeVersion: names.has('ScopeVersion') ? "nullIf(ScopeVersion, '')" : attrValue('SpanAttributes', 'otel.scope.version'),
    scopeColumns: names.has('ScopeName') && names.has('ScopeVersion'),
    ...(await claimTraces(session, qualified, window)),
  };
}

/** The instants DateTime64(9) holds (1900-01-01 up to 2262-04-11 23:47:16 UTC), as a window's bounds may be. */
const FIRST_DATETIME64_MS = Date.UTC(1900, 0, 1);
const LAST_DATETIME64_MS = Date.UTC(2262, 3, 11, 23, 47, 16);

/** `toDateTime64(…)` of an instant, UTC, nanosecond precision. */
export function instant(d: Date): string {
  return `toDateTime64(${chString(d.toISOString().replace('T', ' ').replace('Z', ''))}, 9, 'UTC')`;
}

/**
 * The spans of a run. Without a window, the whole table. With one, each trace belongs to the
 * window its first span starts in (consecutive nightly windows split the traces between them,
 * none twice), and a claimed trace is read whole: its spans up to `maxTraceDurationMs` after the
 * window's end. The claimed ids are a temporary table (`run_traces`) that every read filters by
 * with GLOBAL IN, so on a Distributed table each shard is sent the list once per query.
 */
async function claimTraces(session: ChSession, table: string, window: TraceWindow): Promise<Pick<TraceSource, 'where' | 'readFrom' | 'readBefore'>> {
  const { since, until } = window;
  if (!since && !until) return { where: '1' };
  // (kept within what DateTime64(9) holds, 1900 up to 2262: past it ClickHouse's arithmetic overflows)
  const lower = since ? new Date(Math.max(since.getTime() - window.maxTraceDurationMs, FIRST_DATETIME64_MS)) : undefined;
  const claim = [lower && `Timestamp >= ${instant(lower)}`, until && `Timestamp < ${instant(until)}`].filter(Boolean).join(' AND ');
  await session.run(
    `CREATE TEMPORARY TABLE run_traces ENGINE = Memory AS
      SELECT TraceId FROM ${table} WHERE ${claim} GROUP BY TraceId${since ? ` HAVING min(Timestamp) >= ${instant(since)}` : ''}`,
    'choosing the traces of the window',
  );
  const end = until ? new Date(Math.min(until.getTime() + window.maxTraceDurationMs, LAST_DATETIME64_MS)) : undefined;
  return {
    where: [since && `Timestamp >= ${instant(since)}`, end && `Timestamp < ${instant(end)}`, 'TraceId GLOBAL IN run_traces'].filter(Boolean).join(' AND '),
    ...(since ? { readFrom: since } : {}),
    ...(end ? { readBefore: end } : {}),
  };
}
