import { OtelAttributes } from '@argspan/conventions';
import { JAEGER_TRACE, JAEGER_TRACE_COLUMNS, OTLP_SPAN, columnsArg, sqlString } from './duckdb-types.js';
import { stagedProblemSql, stagedSpanSql } from './schema.js';

/** Macros turning Jaeger tags into OTLP key/values (typed by the tag's `type`). */
export const JAEGER_MACROS = `
CREATE OR REPLACE TEMP MACRO jaeger_kv(t) AS {'key': t."key", 'value': {
  'stringValue': CASE WHEN lower(coalesce(t."type", 'string')) = 'string' THEN t."value"->>'$' END,
  'intValue': CASE WHEN lower(t."type") = 'int64' THEN t."value"->>'$' END,
  'doubleValue': CASE WHEN lower(t."type") = 'float64' THEN TRY_CAST(t."value"->>'$' AS DOUBLE) END,
  'boolValue': CASE WHEN lower(t."type") = 'bool' THEN TRY_CAST(t."value"->>'$' AS BOOLEAN) END,
  'bytesValue': CASE WHEN lower(t."type") = 'binary' THEN t."value"->>'$' END,
  'arrayValue': NULL}};
CREATE OR REPLACE TEMP MACRO jaeger_tag(tags, k) AS list_filter(tags, lambda t: t."key" = k)[1]."value"->>'$';
CREATE OR REPLACE TEMP MACRO us_to_ns(x) AS CASE WHEN x IS NOT NULL THEN coalesce(CAST(TRY_CAST(x AS BIGINT)::HUGEINT * 1000 AS VARCHAR), 'not an integer') END;
CREATE OR REPLACE TEMP MACRO jaeger_end_ns(start_us, duration_us) AS CASE
  WHEN duration_us IS NOT NULL AND TRY_CAST(duration_us AS BIGINT) IS NULL THEN 'not an integer'
  WHEN start_us IS NOT NULL THEN coalesce(CAST((TRY_CAST(start_us AS BIGINT)::HUGEINT + coalesce(TRY_CAST(duration_us AS BIGINT), 0)) * 1000 AS VARCHAR), 'not an integer') END;
CREATE OR REPLACE TEMP MACRO jaeger_id(j, n) AS CASE
  WHEN length(j::VARCHAR) BETWEEN 3 AND n + 2 AND regexp_full_match(j::VARCHAR, '"[0-9a-fA-F]+"') THEN to_json(lpad(lower((j::VARCHAR)[2:-2]), n, '0')) ELSE j END;
`;

/**
 * Relation with one Jaeger trace struct `t` per row, from either Jaeger JSON shape; `indexed`
 * adds `ti`, the trace's index in `data` (NULL for a single trace), for the diagnosis of malformed spans.
 */
export function jaegerTraces(file: string, envelope: boolean, indexed = false): string {
  const opts = `format='auto', maximum_object_size=1073741824`;
  return envelope
    ? // An entry without "spans" is not a Jaeger trace: other APIs answer {"data":[…]} too (Langfuse's).
      `(SELECT t, ${indexed ? 'ti, ' : ''}bad OR t IS NULL OR t.spans IS NULL AS bad FROM (SELECT unnest(CASE WHEN data IS NULL THEN [NULL] ELSE data END) AS t, ${indexed ? 'unnest(CASE WHEN data IS NULL THEN [0] ELSE range(len(data)) END) AS ti, ' : ''}data IS NULL AS bad
        FROM read_json(${sqlString(file)}, ${opts}, columns=${columnsArg({ data: `${JAEGER_TRACE}[]` })})))`
    : `(SELECT {'traceID': traceID, 'spans': spans, 'processes': processes} AS t, ${indexed ? 'NULL::BIGINT AS ti, ' : ''}spans IS NULL AS bad FROM read_json(${sqlString(file)}, ${opts}, columns=${columnsArg(JAEGER_TRACE_COLUMNS)}))`;
}

/**
 * SQL staging Jaeger spans into `span_structs` as OTLP-shaped structs: ids (hex strings, which
 * Jaeger writes without leading zeros) left-padded to 32/16 digits — anything else is passed on
 * as it is, for the span checks to reject — µs times to ns, the first
 * same-trace CHILD_OF reference as parent and every other reference as a link (with its
 * type), logs as events (the `event` field names them), the process as the resource, the
 * `span.kind` and `error` tags as kind and status.
 */
export function stageJaegerSql(fileId: number, traces: string): string {
  return `
INSERT INTO span_structs
SELECT ${stagedSpanSql(fileId, 's', { line: 'NULL', bad: 'bad', resourceId: 'hash(res)', res: 'res', scopeName: "'jaeger'", scopeVersion: 'NULL', scopeAttrs: 'NULL' })}
FROM ${jaegerSpansSql(traces, false)}`;
}

/**
 * SQL: where in `traces` (a {@link jaegerTraces} relation with `indexed`) each malformed span is —
 * `idx`, `[trace in data, span in its spans]` (0-based; the first NULL for a single trace) — and
 * its `problem`, by the very expression staging decides it with (`spans`: NULL, a document names every span's place). Run only for a file staging found
 * malformed spans in.
 */
export function malformedJaegerSpansSql(traces: string): string {
  return `SELECT NULL::INTEGER AS line, [ti, si] AS idx, problem, NULL::BIGINT AS spans FROM (SELECT ti, si, bad, ${stagedProblemSql('s', {})} AS problem
  FROM ${jaegerSpansSql(traces, true)}) WHERE NOT bad AND problem IS NOT NULL`;
}

/** The relation of {@link stageJaegerSql}: one OTLP-shaped span `s` per row; `indexed` carries `ti` and the span's index `si`. */
function jaegerSpansSql(traces: string, indexed: boolean): string {
  const carried = indexed ? 'ti, si, ' : '';
  return `(
  SELECT ${carried}bad, res, CAST({
    'traceId': jaeger_id(sp.traceID, 32), 'spanId': jaeger_id(sp.spanID, 16), 'parentSpanId': jaeger_id(parent, 16), 'name': sp.operationName,
    'kind': jaeger_tag(sp.tags, 'span.kind'),
    'startTimeUnixNano': us_to_ns(sp.startTime),
    'endTimeUnixNano': jaeger_end_ns(sp.startTime, sp.duration),
    'attributes': list_transform(sp.tags, lambda t: jaeger_kv(t)),
    'events': list_transform(sp.logs, lambda lg: {'timeUnixNano': us_to_ns(lg."timestamp"),
       'name': coalesce(jaeger_tag(lg.fields, 'event'), 'log'),
       'attributes': list_transform(list_filter(lg.fields, lambda f: f."key" <> 'event'), lambda f: jaeger_kv(f))}),
    'links': list_transform(list_filter(sp."references", lambda r: NOT (r.refType = 'CHILD_OF' AND r.spanID = parent AND jaeger_id(r.traceID, 32) = jaeger_id(sp.traceID, 32))),
       lambda r: {'traceId': jaeger_id(r.traceID, 32), 'spanId': jaeger_id(r.spanID, 16), 'refType': r.refType, 'attributes': NULL}),
    'status': {'code': CASE WHEN jaeger_tag(sp.tags, 'error') = 'true' THEN '2' END, 'message': NULL}
  } AS ${OTLP_SPAN}) AS s
  FROM (
    SELECT ${carried}bad, sp,
      list_filter(sp."references", lambda r: r.refType = 'CHILD_OF' AND jaeger_id(r.traceID, 32) = jaeger_id(sp.traceID, 32))[1].spanID AS parent,
      list_concat([{'key': ${sqlString(OtelAttributes.SERVICE_NAME)}, 'value': {'stringValue': proc.serviceName}}], list_transform(proc.tags, lambda t: jaeger_kv(t))) AS res
    FROM (
      SELECT ${carried}bad, sp, t.processes[sp.processID] AS proc
      FROM (SELECT ${indexed ? 'ti, ' : ''}bad, t, unnest(CASE WHEN bad THEN [NULL] ELSE t.spans END) AS sp${indexed ? ', unnest(CASE WHEN bad THEN [0] ELSE range(len(t.spans)) END) AS si' : ''} FROM ${traces})
    )
  )
)`;
}
