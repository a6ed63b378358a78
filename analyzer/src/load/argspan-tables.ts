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

const VALUE: Record<ColType, string> = {
  str: 'str_value',
  int: 'coalesce(int_value, CAST(dbl_value AS BIGINT), TRY_CAST(str_value AS BIGINT))',
  num: 'coalesce(dbl_value, CAST(int_value AS DOUBLE), TRY_CAST(str_value AS DOUBLE))',
  bool: "coalesce(bool_value, CASE lower(str_value) WHEN 'true' THEN true WHEN 'false' THEN false END)",
  arr: 'arr_value',
};

function pivot(cols: readonly DerivedColumn[]): string {
  return cols.map((c) => `any_value(${VALUE[c.type]}) FILTER (WHERE "key" = ${sqlString(c.key)}) AS ${c.column}`).join(',\n    ');
}

const like = (prefix: string) => sqlString(`${prefix} %`);
const strip = (prefix: string) => `${prefix} `.length + 1;

/**
 * SQL that derives argspan's own tables from the generic schema, once at load time, so rules
 * read typed columns and never attribute keys:
 * - `tool_calls`: one row per `execute_tool {tool}` span, with its parent (the turn).
 * - `tool_args`: one row per `tool_arg {key}` span with its call's tool, call id, run id and turn,
 *   and the tool-call span its span link (or source call id) points to.
 * - `hop_events`: every hop/lease event on a call span or its `hop {tool}` child, with the call.
 */
export const ARGSPAN_TABLES_SQL = `
CREATE TABLE tool_calls AS
  SELECT s.trace_id, s.span_id, s.parent_span_id AS turn_span_id, s."name", s.start_ns, s.end_ns, s.file_id,
    ${pivot(TOOL_CALL_COLUMNS)}
  FROM spans s LEFT JOIN span_attributes a ON a.trace_id = s.trace_id AND a.span_id = s.span_id
  WHERE s."name" LIKE ${like(SpanNamePrefix.TOOL_CALL)}
  GROUP BY s.trace_id, s.span_id, s.parent_span_id, s."name", s.start_ns, s.end_ns, s.file_id
  HAVING operation IS NULL OR operation = ${sqlString(OPERATION_EXECUTE_TOOL)};
ALTER TABLE tool_calls ADD COLUMN tool VARCHAR;
UPDATE tool_calls SET tool = coalesce(tool_attr, substr("name", ${strip(SpanNamePrefix.TOOL_CALL)}));

CREATE TABLE tool_args AS
  SELECT s.trace_id, s.span_id, s.parent_span_id AS call_span_id, s."name", s.start_ns, s.file_id,
    ${pivot(TOOL_ARG_COLUMNS)},
    bool_or("key" = ${sqlString(ArgAttributes.EXCERPT)}) AS has_excerpt
  FROM spans s LEFT JOIN span_attributes a ON a.trace_id = s.trace_id AND a.span_id = s.span_id
  WHERE s."name" LIKE ${like(SpanNamePrefix.ARGUMENT)}
  GROUP BY s.trace_id, s.span_id, s.parent_span_id, s."name", s.start_ns, s.file_id;
ALTER TABLE tool_args ADD COLUMN "key" VARCHAR;
ALTER TABLE tool_args ADD COLUMN tool VARCHAR;
ALTER TABLE tool_args ADD COLUMN call_id VARCHAR;
ALTER TABLE tool_args ADD COLUMN run_id VARCHAR;
ALTER TABLE tool_args ADD COLUMN turn_span_id VARCHAR;
ALTER TABLE tool_args ADD COLUMN source_trace_id VARCHAR;
ALTER TABLE tool_args ADD COLUMN source_span_id VARCHAR;
UPDATE tool_args SET "key" = coalesce(key_attr, substr("name", ${strip(SpanNamePrefix.ARGUMENT)}));
UPDATE tool_args a SET tool = c.tool, call_id = c.call_id, run_id = c.run_id, turn_span_id = c.turn_span_id
  FROM tool_calls c WHERE c.trace_id = a.trace_id AND c.span_id = a.call_span_id;
UPDATE tool_args a SET source_trace_id = l.linked_trace_id, source_span_id = l.linked_span_id
  FROM links l WHERE l.trace_id = a.trace_id AND l.span_id = a.span_id AND l.link_index = 0;
UPDATE tool_args a SET source_trace_id = c.trace_id, source_span_id = c.span_id
  FROM tool_calls c WHERE a.source_span_id IS NULL AND a.source_call_id IS NOT NULL AND c.call_id = a.source_call_id;

CREATE TABLE hop_events AS
  SELECT e.trace_id, e.span_id, coalesce(c.span_id, hc.span_id) AS call_span_id, e.event_index, e."name", e.time_ns,
    ${pivot(HOP_EVENT_COLUMNS)}
  FROM events e
  LEFT JOIN event_attributes a ON a.trace_id = e.trace_id AND a.span_id = e.span_id AND a.event_index = e.event_index
  LEFT JOIN tool_calls c ON c.trace_id = e.trace_id AND c.span_id = e.span_id
  LEFT JOIN spans hs ON hs.trace_id = e.trace_id AND hs.span_id = e.span_id AND hs."name" LIKE ${like(SpanNamePrefix.HOP)}
  LEFT JOIN tool_calls hc ON hc.trace_id = hs.trace_id AND hc.span_id = hs.parent_span_id
  WHERE e."name" IN (${Object.values(HopEvents).map(sqlString).join(', ')})
  GROUP BY ALL;
ALTER TABLE hop_events ADD COLUMN tool VARCHAR;
ALTER TABLE hop_events ADD COLUMN run_id VARCHAR;
UPDATE hop_events h SET tool = c.tool, run_id = c.run_id FROM tool_calls c WHERE c.trace_id = h.trace_id AND c.span_id = h.call_span_id;

ALTER TABLE tool_calls ADD COLUMN went_remote BOOLEAN;
UPDATE tool_calls c SET went_remote = coalesce(c.hop_remote, false) OR EXISTS (
  SELECT 1 FROM hop_events h WHERE h.trace_id = c.trace_id AND h.call_span_id = c.span_id AND h."name" = ${sqlString(HopEvents.HOP_SENT)});
`;
