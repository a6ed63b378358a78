import {
  ArgAttributes,
  CallAttributes,
  EventAttributes,
  GenAiAttributes,
  HopEvents,
  OPERATION_EXECUTE_TOOL,
  OtelAttributes,
  SpanNamePrefix,
} from '@argspan/conventions';
import { sqlString } from './duckdb-types.js';

type ColType = 'str' | 'int' | 'num' | 'bool' | 'arr';

/** One column of a derived table: the attribute it comes from and how it is typed. */
export interface DerivedColumn {
  column: string;
  key: string;
  type: ColType;
}

/** Columns of `tool_calls`, one per call-span attribute in @argspan/conventions. */
export const TOOL_CALL_COLUMNS: readonly DerivedColumn[] = [
  { column: 'operation', key: GenAiAttributes.OPERATION_NAME, type: 'str' },
  { column: 'tool_attr', key: GenAiAttributes.TOOL_NAME, type: 'str' },
  { column: 'call_id', key: GenAiAttributes.TOOL_CALL_ID, type: 'str' },
  { column: 'run_id', key: GenAiAttributes.CONVERSATION_ID, type: 'str' },
  { column: 'error_type', key: OtelAttributes.ERROR_TYPE, type: 'str' },
  { column: 'args_count', key: CallAttributes.ARGS_COUNT, type: 'int' },
  { column: 'args_truncated', key: CallAttributes.ARGS_TRUNCATED, type: 'int' },
  { column: 'args_bytes', key: CallAttributes.ARGS_BYTES, type: 'int' },
  { column: 'args_hash', key: CallAttributes.ARGS_HASH, type: 'str' },
  { column: 'args_limits', key: CallAttributes.ARGS_LIMITS, type: 'arr' },
  { column: 'residency', key: CallAttributes.RESIDENCY, type: 'str' },
  { column: 'verdict', key: CallAttributes.VERDICT, type: 'str' },
  { column: 'verdict_reason', key: CallAttributes.VERDICT_REASON, type: 'str' },
  { column: 'gate_hits', key: CallAttributes.GATE_HITS, type: 'arr' },
  { column: 'gate_action', key: CallAttributes.GATE_ACTION, type: 'str' },
  { column: 'gate_question', key: CallAttributes.GATE_QUESTION, type: 'str' },
  { column: 'stripped_keys', key: CallAttributes.STRIPPED_KEYS, type: 'arr' },
  { column: 'local_ms', key: CallAttributes.LOCAL_MS, type: 'num' },
  { column: 'remote_rtt_ms', key: CallAttributes.REMOTE_RTT_MS, type: 'num' },
  { column: 'bytes_after_redaction', key: CallAttributes.BYTES_REDACTED, type: 'num' },
  { column: 'hop_blocked', key: CallAttributes.HOP_BLOCKED, type: 'bool' },
  { column: 'hop_remote', key: CallAttributes.HOP_REMOTE, type: 'bool' },
  { column: 'hop_step', key: CallAttributes.HOP_STEP, type: 'int' },
  { column: 'hop_fingerprint', key: CallAttributes.HOP_FINGERPRINT, type: 'str' },
];

/** Columns of `tool_args`, one per argument-span attribute. */
export const TOOL_ARG_COLUMNS: readonly DerivedColumn[] = [
  { column: 'key_attr', key: ArgAttributes.KEY, type: 'str' },
  { column: 'leaf', key: ArgAttributes.LEAF, type: 'str' },
  { column: 'provenance', key: ArgAttributes.PROVENANCE, type: 'str' },
  { column: 'residency', key: ArgAttributes.RESIDENCY, type: 'str' },
  { column: 'rule', key: ArgAttributes.RULE, type: 'str' },
  { column: 'value_hash', key: ArgAttributes.VALUE_HASH, type: 'str' },
  { column: 'bytes', key: ArgAttributes.BYTES, type: 'int' },
  { column: 'denylisted', key: ArgAttributes.DENYLISTED, type: 'bool' },
  { column: 'source_call_id', key: ArgAttributes.SOURCE_CALL_ID, type: 'str' },
];

/** Columns of `hop_events`, one per event attribute. */
export const HOP_EVENT_COLUMNS: readonly DerivedColumn[] = [
  { column: 'step', key: EventAttributes.STEP, type: 'int' },
  { column: 'fingerprint', key: EventAttributes.FINGERPRINT, type: 'str' },
  { column: 'lease_id', key: EventAttributes.LEASE_ID, type: 'str' },
  { column: 'lease_epoch', key: EventAttributes.LEASE_EPOCH, type: 'int' },
  { column: 'rtt_ms', key: EventAttributes.RTT_MS, type: 'num' },
  { column: 'bytes', key: EventAttributes.BYTES, type: 'int' },
  { column: 'decision', key: EventAttributes.DECISION, type: 'str' },
  { column: 'reason', key: EventAttributes.REASON, type: 'str' },
  { column: 'probe_ok', key: EventAttributes.PROBE_OK, type: 'bool' },
  { column: 'queue_depth', key: EventAttributes.QUEUE_DEPTH, type: 'int' },
  { column: 'http_status', key: EventAttributes.HTTP_STATUS, type: 'int' },
];

/** Typed value of an OTLP AnyValue struct `v`, for a derived column. */
const TYPED: Record<ColType, (v: string) => string> = {
  str: (v) => `${v}.stringValue`,
  int: (v) => `coalesce(TRY_CAST(${v}.intValue AS BIGINT), CAST(${v}.doubleValue AS BIGINT), TRY_CAST(${v}.stringValue AS BIGINT))`,
  num: (v) => `coalesce(${v}.doubleValue, TRY_CAST(${v}.intValue AS DOUBLE), TRY_CAST(${v}.stringValue AS DOUBLE))`,
  bool: (v) => `coalesce(${v}.boolValue, CASE lower(${v}.stringValue) WHEN 'true' THEN true WHEN 'false' THEN false END)`,
  arr: (v) => `attr_array(${v})`,
};

/** `attr_v(list, key) AS v_col, …`: the raw value struct of each attribute, picked from the span's own list. */
function pick(cols: readonly DerivedColumn[], list: string): string {
  return cols.map((c) => `attr_v(${list}, ${sqlString(c.key)}) AS v_${c.column}`).join(',\n    ');
}

/** `typed(v_col) AS col, …` */
function typed(cols: readonly DerivedColumn[]): string {
  return cols.map((c) => `${TYPED[c.type](`v_${c.column}`)} AS ${c.column}`).join(',\n    ');
}

const like = (prefix: string) => sqlString(`${prefix} %`);
const strip = (prefix: string) => `${prefix} `.length + 1;
const HOP_EVENT_NAMES = Object.values(HopEvents).map(sqlString).join(', ');

/**
 * SQL that derives argspan's own tables, once at load time, from the staged span structs
 * (each span's attribute list is searched directly: no join over the long attribute table), so
 * rules read typed columns and never attribute keys:
 * - `tool_calls`: one row per `execute_tool {tool}` span, with its parent (the turn) and whether
 *   it went remote (`argspan.hop.remote` or a hop.sent event).
 * - `tool_args`: one row per `tool_arg {key}` span with its call's tool, call id, run id and turn,
 *   and the tool-call span its first span link (or source call id) points to.
 * - `hop_events`: every hop/lease event on a call span or its `hop {tool}` child, with the call.
 * Runs after NORMALISE_SQL and before CLEANUP_SQL (it reads `raw_spans` and `stage_events`).
 */
export const ARGSPAN_TABLES_SQL = `
CREATE OR REPLACE TEMP MACRO attr_v(attrs, k) AS list_filter(attrs, lambda a: a."key" = k)[1]."value";

CREATE TEMP TABLE calls0 AS
  WITH raw AS (
    SELECT r.trace_id, r.span_id, norm_id(r.s.parentSpanId, 16) AS turn_span_id, r.s."name" AS "name",
      TRY_CAST(r.s.startTimeUnixNano AS BIGINT) AS start_ns, TRY_CAST(r.s.endTimeUnixNano AS BIGINT) AS end_ns, r.file_id,
      ${pick(TOOL_CALL_COLUMNS, 'r.s.attributes')}
    FROM raw_spans r WHERE r.s."name" LIKE ${like(SpanNamePrefix.TOOL_CALL)})
  SELECT trace_id, span_id, turn_span_id, "name", start_ns, end_ns, file_id,
    ${typed(TOOL_CALL_COLUMNS)}
  FROM raw;
DELETE FROM calls0 WHERE operation IS NOT NULL AND operation <> ${sqlString(OPERATION_EXECUTE_TOOL)};

CREATE TABLE hop_events AS
  WITH raw AS (
    SELECT trace_id, span_id, event_index, e."name" AS "name", TRY_CAST(e.timeUnixNano AS BIGINT) AS time_ns,
      ${pick(HOP_EVENT_COLUMNS, 'e.attributes')}
    FROM stage_events WHERE e."name" IN (${HOP_EVENT_NAMES})),
  ev AS (SELECT trace_id, span_id, event_index, "name", time_ns, ${typed(HOP_EVENT_COLUMNS)} FROM raw),
  hops AS (SELECT trace_id, span_id, parent_span_id FROM spans WHERE "name" LIKE ${like(SpanNamePrefix.HOP)})
  SELECT ev.*, coalesce(c.span_id, hc.span_id) AS call_span_id,
    coalesce(c.tool_attr, substr(c."name", ${strip(SpanNamePrefix.TOOL_CALL)}), hc.tool_attr, substr(hc."name", ${strip(SpanNamePrefix.TOOL_CALL)})) AS tool,
    coalesce(c.run_id, hc.run_id) AS run_id
  FROM ev
  LEFT JOIN calls0 c ON c.trace_id = ev.trace_id AND c.span_id = ev.span_id
  LEFT JOIN hops h ON h.trace_id = ev.trace_id AND h.span_id = ev.span_id
  LEFT JOIN calls0 hc ON hc.trace_id = h.trace_id AND hc.span_id = h.parent_span_id;

CREATE TABLE tool_calls AS
  SELECT c.*, coalesce(tool_attr, substr("name", ${strip(SpanNamePrefix.TOOL_CALL)})) AS tool,
    coalesce(c.hop_remote, false) OR sent.call_span_id IS NOT NULL AS went_remote
  FROM calls0 c
  LEFT JOIN (SELECT DISTINCT trace_id, call_span_id FROM hop_events WHERE "name" = ${sqlString(HopEvents.HOP_SENT)}) sent
    ON sent.trace_id = c.trace_id AND sent.call_span_id = c.span_id;
DROP TABLE calls0;

CREATE TABLE tool_args AS
  WITH raw AS (
    SELECT r.trace_id, r.span_id, norm_id(r.s.parentSpanId, 16) AS call_span_id, r.s."name" AS "name",
      TRY_CAST(r.s.startTimeUnixNano AS BIGINT) AS start_ns, r.file_id,
      len(list_filter(r.s.attributes, lambda a: a."key" = ${sqlString(ArgAttributes.EXCERPT)})) > 0 AS has_excerpt,
      norm_id(r.s.links[1].traceId, 32) AS link_trace_id, norm_id(r.s.links[1].spanId, 16) AS link_span_id,
      ${pick(TOOL_ARG_COLUMNS, 'r.s.attributes')}
    FROM raw_spans r WHERE r.s."name" LIKE ${like(SpanNamePrefix.ARGUMENT)}),
  a AS (
    SELECT trace_id, span_id, call_span_id, "name", start_ns, file_id, has_excerpt, link_trace_id, link_span_id,
      ${typed(TOOL_ARG_COLUMNS)}
    FROM raw),
  by_call_id AS (SELECT call_id, any_value(trace_id) AS trace_id, any_value(span_id) AS span_id FROM tool_calls WHERE call_id IS NOT NULL GROUP BY call_id)
  SELECT a.* EXCLUDE (link_trace_id, link_span_id),
    coalesce(a.key_attr, substr(a."name", ${strip(SpanNamePrefix.ARGUMENT)})) AS "key",
    c.tool, c.call_id, c.run_id, c.turn_span_id,
    coalesce(a.link_trace_id, src.trace_id) AS source_trace_id, coalesce(a.link_span_id, src.span_id) AS source_span_id
  FROM a
  LEFT JOIN tool_calls c ON c.trace_id = a.trace_id AND c.span_id = a.call_span_id
  LEFT JOIN by_call_id src ON a.link_span_id IS NULL AND src.call_id = a.source_call_id;
`;
