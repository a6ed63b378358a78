import type { ChSession } from './client.js';
import type { TraceSource } from './source.js';

/**
 * Spans the traces table holds more than once (the same `TraceId` and `SpanId`), as DuckDB's
 * `DEDUP_SQL` treats them (analyzer/README.md, "Duplicate spans"): identical copies (a retried
 * export) are one span; of copies that differ (overlapping exports of two tools, a re-export
 * after an attribute processor, an id collision) the one first in {@link KEEP_ORDER} is kept,
 * whatever order the rows were inserted in, and the others are named in the session's
 * `dropped_copies` table (by id and {@link CONTENT_HASH}), which every read of the spans leaves
 * out ({@link onceSql}). The credential re-scan still reads every copy.
 */
export const DROPPED_COPIES = 'dropped_copies';

/** A row's content, every column the exporter writes but the ids: equal for the copies of a retried export. */
export const CONTENT_HASH = `cityHash64(ParentSpanId, TraceState, SpanName, SpanKind, Timestamp, Duration, StatusCode, StatusMessage, ServiceName,
  mapKeys(ResourceAttributes), mapValues(ResourceAttributes), ScopeName_, ScopeVersion_, mapKeys(SpanAttributes), mapValues(SpanAttributes),
  Events.Timestamp, Events.Name, arrayMap(m -> mapKeys(m), Events.Attributes), arrayMap(m -> mapValues(m), Events.Attributes),
  Links.TraceId, Links.SpanId, Links.TraceState, arrayMap(m -> mapKeys(m), Links.Attributes), arrayMap(m -> mapValues(m), Links.Attributes))`;

/** A row's span attributes as one text: sorted `key`␂`value` pairs joined by ␁ (DuckDB's `ATTRS_TEXT_SQL`). */
export const ATTRS_TEXT = 'arrayStringConcat(arraySort(arrayMap((k, v) -> concat(k, char(2), v), mapKeys(SpanAttributes), mapValues(SpanAttributes))), char(1))';

/**
 * The order of differing copies, the first kept — DuckDB's `KEEP_ORDER_SQL`, term by term: the
 * copy with the most span attributes, then the most events (the one carrying the most: a copy an
 * attribute processor trimmed is the lesser), then the smallest text of its attributes as sorted
 * `key`␂`value` pairs (the values as the exporter writes them), then the name, start and end.
 * Copies that tie on all of these (they differ only in events' or links' content, status or
 * resource) are ordered by {@link CONTENT_HASH}, which is this engine's own.
 */
export const KEEP_ORDER = `(-toInt64(length(SpanAttributes)), -toInt64(length(Events.Name)), ${ATTRS_TEXT}, SpanName, toUnixTimestamp64Nano(Timestamp), toUnixTimestamp64Nano(Timestamp) + toInt64(Duration), content)`;

/** What {@link findSpanCopies} counts: as DuckDB's `LoadStats`. */
export interface SpanCopies {
  /** Distinct spans (trace id + span id) in the window. */
  spans: number;
  /** Rows dropped: every copy of a span but the one kept. */
  duplicates: number;
  /** Spans whose copies differ in content (only one is analysed; a credential in any is still reported). */
  conflicts: number;
}

/** The scope columns of {@link CONTENT_HASH} for a table with or without them. */
export function contentHashSql(src: TraceSource): string {
  return CONTENT_HASH.replace('ScopeName_', src.scopeColumns ? 'ScopeName' : "''").replace('ScopeVersion_', src.scopeColumns ? 'ScopeVersion' : "''");
}

/**
 * Count the window's copies of spans and, when some differ, fill `dropped_copies` (a temporary
 * table of the session, created here; the caller drops it with the others): the ids and content
 * hash of every copy not kept. Only the ids are read for the spans held once.
 */
export async function findSpanCopies(session: ChSession, src: TraceSource): Promise<SpanCopies & { table: boolean }> {
  const [n] = await session.all(
    `SELECT toString(count()) AS rows, toString(uniqExact(TraceId, SpanId)) AS spans FROM ${src.table} WHERE ${src.where}`,
    'counting copies of spans',
  );
  const spans = Number(n?.spans ?? 0);
  const duplicates = Number(n?.rows ?? 0) - spans;
  if (duplicates === 0) return { spans, duplicates, conflicts: 0, table: false };
  await session.run(`CREATE TEMPORARY TABLE ${DROPPED_COPIES} (TraceId String, SpanId String, content UInt64) ENGINE = Memory`, `creating ${DROPPED_COPIES}`);
  await session.run(
    `INSERT INTO ${DROPPED_COPIES}
    SELECT TraceId, SpanId, content FROM (
      SELECT TraceId, SpanId, content, argMin(content, ${KEEP_ORDER}) OVER (PARTITION BY TraceId, SpanId) AS kept
      FROM (SELECT *, ${contentHashSql(src)} AS content FROM ${src.table}
        WHERE ${src.where} AND (TraceId, SpanId) GLOBAL IN (SELECT TraceId, SpanId FROM ${src.table} WHERE ${src.where} GROUP BY TraceId, SpanId HAVING count() > 1)))
    WHERE content <> kept
    GROUP BY TraceId, SpanId, content`,
    'choosing among differing copies of spans',
  );
  const [c] = await session.all(`SELECT toString(uniqExact(TraceId, SpanId)) AS n FROM ${DROPPED_COPIES}`, 'counting differing copies of spans');
  const conflicts = Number(c?.n ?? 0);
  return { spans, duplicates, conflicts, table: true };
}

/**
 * SQL after a read's WHERE conditions: each span once — identical copies collapse, and the
 * copies {@link findSpanCopies} dropped are left out (only when some differ: the content hash
 * reads every column).
 */
export function onceSql(src: TraceSource): string {
  return `${notDroppedSql(src)}LIMIT 1 BY TraceId, SpanId`;
}

/** SQL after a read's WHERE conditions that leaves out the copies {@link findSpanCopies} dropped ('' when none differ). */
export function notDroppedSql(src: TraceSource): string {
  return src.droppedCopies ? `AND (TraceId, SpanId, ${contentHashSql(src)}) GLOBAL NOT IN (SELECT TraceId, SpanId, content FROM ${DROPPED_COPIES}) ` : '';
}
