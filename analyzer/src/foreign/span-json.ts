import { sqlString } from '../load/duckdb-types.js';
import type { ForeignSpan } from './types.js';

/**
 * One candidate span as one JSON text, written by DuckDB (`to_json`) or ClickHouse (`spanJsonSql`
 * in `clickhouse/foreign.ts`), so a span crosses into JavaScript as one string whatever its
 * attributes (reading DuckDB's list vectors value by value cost more than DuckDB's encoding and
 * `JSON.parse` together). Times are text: a nanosecond time does not fit a JSON number.
 */
export interface SpanJson {
  /** span id */
  s: string;
  /** parent span id */
  p: string | null;
  /** name */
  n: string;
  /** start, ns */
  b: string | null;
  /** end, ns */
  e: string | null;
  /** scope name */
  c: string | null;
  /** file id */
  f: number | null;
  /** attribute keys */
  k: string[] | null;
  /** string values, parallel to `k` (NULL where the attribute is not a string) */
  v: (string | null)[] | null;
  /** values of each of `arrayKeys` that is an array attribute, in their order (NULL where it is not) */
  a: ((string | null)[] | null)[];
}

/**
 * SQL for a span of `span_structs` as a {@link SpanJson} text: its string attributes, and of the
 * array attributes only `arrayKeys` (their elements as text).
 */
export function spanJsonSql(arrayKeys: readonly string[]): string {
  const arrays = arrayKeys.map((k) => `arr_values(attr_arr[list_position(attr_keys, ${sqlString(k)})])`).join(', ');
  return `to_json({s: span_id, p: parent_span_id, n: "name", b: start_ns::VARCHAR, e: end_ns::VARCHAR, c: scope_name, f: file_id, k: attr_keys, v: attr_str, a: [${arrays}]})::VARCHAR`;
}

/**
 * The spans of one trace from their {@link spanJsonSql} texts, in the order the trace is read: by
 * start time (a span without one last), then span id. A string attribute is kept unless its value
 * is NULL (a later duplicate key wins); an array attribute of `arrayKeys` replaces a string of the
 * same key.
 */
export function parseTraceSpans(traceId: string, texts: readonly string[], arrayKeys: readonly string[]): ForeignSpan[] {
  return sortSpans(texts.map((text) => readSpan(traceId, text, arrayKeys)));
}

function readSpan(traceId: string, text: string, arrayKeys: readonly string[]): { span: ForeignSpan; started: boolean } {
  const j = JSON.parse(text) as SpanJson;
  const attrs = new Map<string, string | readonly string[]>();
  if (j.k && j.v) {
    for (let i = 0; i < j.k.length; i++) {
      const v = j.v[i];
      if (v !== null && v !== undefined) attrs.set(j.k[i]!, v);
    }
  }
  for (let i = 0; i < arrayKeys.length; i++) {
    const a = j.a[i];
    if (a) attrs.set(arrayKeys[i]!, a as string[]);
  }
  const startNs = j.b === null ? 0n : BigInt(j.b);
  const recordedEndNs = j.e === null ? null : BigInt(j.e);
  const span: ForeignSpan = { traceId, spanId: j.s, parentSpanId: j.p, name: j.n, startNs, endNs: recordedEndNs ?? startNs, recordedEndNs, scope: j.c, fileId: j.f, attrs };
  return { span, started: j.b !== null };
}

function sortSpans(read: { span: ForeignSpan; started: boolean }[]): ForeignSpan[] {
  read.sort((x, y) => {
    if (x.started !== y.started) return x.started ? -1 : 1;
    if (x.span.startNs !== y.span.startNs) return x.span.startNs < y.span.startNs ? -1 : 1;
    return x.span.spanId < y.span.spanId ? -1 : x.span.spanId > y.span.spanId ? 1 : 0;
  });
  return read.map((r) => r.span);
}
