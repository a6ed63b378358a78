import {
  ArgAttributes,
  CallAttributes,
  EventAttributes,
  GenAiAttributes,
  Emitter,
  ErrorType,
  HopEvents,
  INSTRUMENTATION_SCOPE,
  OPERATION_EXECUTE_TOOL,
  OtelAttributes,
  SpanNamePrefix,
} from '@argspan/conventions';
import { sqlString } from './duckdb-types.js';
import { EVENTS, attrListSql, type AttrList } from './schema.js';

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
  { column: 'tool_call_id', key: GenAiAttributes.TOOL_CALL_ID, type: 'str' },
  { column: 'argspan_call_id', key: CallAttributes.CALL_ID, type: 'str' },
  { column: 'conversation_id', key: GenAiAttributes.CONVERSATION_ID, type: 'str' },
  { column: 'argspan_run_id', key: CallAttributes.RUN_ID, type: 'str' },
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
  { column: 'enforcement', key: CallAttributes.ENFORCEMENT, type: 'str' },
  { column: 'enforcement_reason', key: CallAttributes.ENFORCEMENT_REASON, type: 'str' },
  { column: 'stripped_keys', key: CallAttributes.STRIPPED_KEYS, type: 'arr' },
  { column: 'local_ms', key: CallAttributes.LOCAL_MS, type: 'num' },
  { column: 'remote_rtt_ms', key: CallAttributes.REMOTE_RTT_MS, type: 'num' },
  { column: 'bytes_after_redaction', key: CallAttributes.BYTES_REDACTED, type: 'num' },
  { column: 'hop_blocked', key: CallAttributes.HOP_BLOCKED, type: 'bool' },
  { column: 'hop_remote', key: CallAttributes.HOP_REMOTE, type: 'bool' },
  { column: 'tool_remote', key: CallAttributes.TOOL_REMOTE, type: 'bool' },
  { column: 'hop_step', key: CallAttributes.HOP_STEP, type: 'int' },
  { column: 'hop_fingerprint', key: CallAttributes.HOP_FINGERPRINT, type: 'str' },
  { column: 'failed_closed', key: CallAttributes.FAILED_CLOSED, type: 'bool' },
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
  { column: 'checkpoint_phase', key: EventAttributes.CHECKPOINT_PHASE, type: 'str' },
  { column: 'checkpoint_generation', key: EventAttributes.CHECKPOINT_GENERATION, type: 'int' },
  { column: 'attempt', key: EventAttributes.ATTEMPT, type: 'int' },
  { column: 'state_file', key: EventAttributes.STATE_FILE, type: 'str' },
];

/**
 * A derived column's typed value, from the span's attribute lists (`ks` keys, `sv` strings, `iv`
 * ints, `dv` doubles, `bv` bools, `av` array values: the staged {@link ATTR_LISTS}) and the
 * attribute's position `p` in them. Picking from a list of plain values is a cheap list_extract.
 */
const TYPED: Record<ColType, (p: string) => string> = {
  // (a label written as another type reads as its text, as ClickHouse's exporter stores it: an
  // enforcement `true` is an unknown enforcement, not a missing one, in both engines)
  str: (p) =>
    `coalesce(sv[${p}], CAST(iv[${p}] AS VARCHAR), CASE bv[${p}] WHEN true THEN 'true' WHEN false THEN 'false' END, CASE WHEN ${wholeNumber(`dv[${p}]`)} IS NOT NULL THEN CAST(${wholeNumber(`dv[${p}]`)} AS VARCHAR) ELSE CAST(dv[${p}] AS VARCHAR) END)`,
  // (from a double or a number's text only when it is a whole number an integer holds: 2.5, 1e20 and
  // NaN read as nothing, never rounded one way here and another in ClickHouse, nor a failed cast)
  int: (p) => `coalesce(TRY_CAST(iv[${p}] AS BIGINT), ${wholeNumber(`dv[${p}]`)}, TRY_CAST(sv[${p}] AS BIGINT), ${wholeNumber(`TRY_CAST(sv[${p}] AS DOUBLE)`)})`,
  num: (p) => `coalesce(dv[${p}], TRY_CAST(iv[${p}] AS DOUBLE), TRY_CAST(sv[${p}] AS DOUBLE))`,
  // (a flag written as the integer 1 or 0, as some exporters write booleans, reads as one, as in ClickHouse's text maps: never as false by default)
  bool: (p) =>
    `coalesce(bv[${p}], CASE lower(sv[${p}]) WHEN 'true' THEN true WHEN '1' THEN true WHEN 'false' THEN false WHEN '0' THEN false END, CASE TRY_CAST(iv[${p}] AS BIGINT) WHEN 1 THEN true WHEN 0 THEN false END, CASE dv[${p}] WHEN 1 THEN true WHEN 0 THEN false END)`,
  // (Jaeger, and OTLP converted to it, writes an array attribute as a string tag of its JSON.)
  arr: (p) => `coalesce(arr_values(av[${p}]), json_text_list(sv[${p}]))`,
};

/** The short names {@link TYPED} reads, and the staged attribute list each stands for. */
const LIST_OF = { ks: 'attr_keys', sv: 'attr_str', iv: 'attr_int', dv: 'attr_dbl', bv: 'attr_bool', av: 'attr_arr' } as const satisfies Record<string, AttrList>;
type ListName = keyof typeof LIST_OF;

/** Which value lists each column type reads (see {@link TYPED}). */
const LISTS_OF: Record<ColType, readonly ListName[]> = {
  str: ['sv', 'iv', 'bv', 'dv'],
  int: ['sv', 'iv', 'dv'],
  num: ['sv', 'iv', 'dv'],
  bool: ['sv', 'bv', 'iv', 'dv'],
  arr: ['av', 'sv'],
};

/** A double as a BIGINT when it is a whole number within BIGINT's range, else NULL (as ClickHouse's `CH_TYPED.int` reads one). */
function wholeNumber(x: string): string {
  return `CASE WHEN isfinite(${x}) AND ${x} = trunc(${x}) AND abs(${x}) < 9.2e18 THEN CAST(${x} AS BIGINT) END`;
}

/** Where a derivation's attribute lists come from: the staged span columns, or lambdas over an OTLP attribute list. */
type Lists = (name: ListName) => string;
const STAGED: Lists = (n) => LIST_OF[n];
const fromOtlp =
  (l: string): Lists =>
  (n) =>
    attrListSql(LIST_OF[n], l);

/** The value lists `cols` need, plus the keys `ks`: `<list> AS ks, <list> AS sv, …`. */
function lists(from: Lists, cols: readonly DerivedColumn[]): string {
  const needed: ListName[] = ['ks', ...new Set(cols.flatMap((c) => LISTS_OF[c.type]))];
  return needed.map((n) => `${from(n)} AS ${n}`).join(', ');
}

/** The value lists `cols` need, by name (to carry them through a projection). */
const listNames = (cols: readonly DerivedColumn[]) => [...new Set(cols.flatMap((c) => LISTS_OF[c.type]))].join(', ');

/**
 * `… AS p_col, …`: each column's attribute position, found once — of the key's last copy (`rks`
 * is `ks` reversed), as the collector's ClickHouse exporter keeps a key written twice (OTLP
 * forbids it), and as the ClickHouse engine and the foreign readers read it.
 */
function positions(cols: readonly DerivedColumn[]): string {
  return cols.map((c) => `len(ks) + 1 - list_position(rks, ${sqlString(c.key)}) AS p_${c.column}`).join(',\n    ');
}

/** `typed(p_col) AS col, …` */
function typed(cols: readonly DerivedColumn[]): string {
  return cols.map((c) => `${TYPED[c.type](`p_${c.column}`)} AS ${c.column}`).join(',\n    ');
}

/**
 * `SELECT base…, keyed…, typed columns`, picking each column of `cols` from the attribute lists
 * `from` of `source` (rows matching `where`) in three projections: value lists, positions,
 * typed values. `base` items are plain columns or `expr AS name`; `keyed` items are `expr AS
 * name` that may read the key list `ks`.
 */
function derive(source: string, where: string, base: readonly string[], from: Lists, cols: readonly DerivedColumn[], keyed: readonly string[] = []): string {
  const names = [...base, ...keyed].map((x) => x.replace(/^.* AS /, '')).join(', ');
  const baseNames = base.map((x) => x.replace(/^.* AS /, '')).join(', ');
  return `SELECT ${names}, ${typed(cols)}
  FROM (SELECT ${baseNames}, ${[...keyed, listNames(cols), positions(cols)].join(', ')}
    FROM (SELECT *, list_reverse(ks) AS rks FROM (SELECT ${base.join(', ')}, ${lists(from, cols)} FROM ${source} WHERE ${where})))`;
}

const like = (prefix: string) => sqlString(`${prefix} %`);
const strip = (prefix: string) => `${prefix} `.length + 1;
const HOP_EVENT_NAMES = Object.values(HopEvents).map(sqlString).join(', ');

/** `error.type` values the wrapper records when it stops a call instead of dispatching it. */
const GATE_ERRORS = [ErrorType.REFUSED, ErrorType.BLOCKED, ErrorType.CLARIFICATION].map(sqlString).join(', ');


/**
 * `(trace_id, call_span_id)` of every span with a hop.sent event: the span itself, or the parent
 * of a `hop {tool}` span — the same call `hop_events` attributes the event to, found before
 * `tool_calls` exists, so `went_remote` is computed as the table is written (an UPDATE of the
 * table afterwards rewrote its rows).
 */
const SENT_SQL = `SELECT DISTINCT trace_id, CASE WHEN "name" LIKE ${like(SpanNamePrefix.HOP)} THEN parent_span_id ELSE span_id END AS call_span_id
    FROM span_structs WHERE len(events) > 0 AND list_contains(list_transform(events, lambda e: e."name"), ${sqlString(HopEvents.HOP_SENT)})`;

/**
 * SQL that derives argspan's own tables, once at load time, from the staged span structs
 * (each span's attribute lists are searched directly: no join over the long attribute table), so
 * rules read typed columns and never attribute keys:
 * - `tool_calls`: one row per `execute_tool {tool}` span, with its parent (the turn), whether
 *   it went remote (`argspan.hop.remote` or a hop.sent event), whether its arguments left the
 *   machine (`left_machine`: it went remote, or a tool in `remoteTools` was reached), who wrote it (`emitter`) and
 *   whether the tool was reached (`dispatched`: the wrapper did not stop it with a gate error).
 * - `tool_args`: one row per `tool_arg {key}` span with its call's tool, call id, run id and turn,
 *   and the tool-call span its first span link (or source call id) points to.
 * - `hop_events`: every hop/lease event on a call span or its `hop {tool}` child, with the call.
 * Runs after NORMALISE_SQL and CLEANUP_SQL, one step per table, in this order.
 */
export const ARGSPAN_TABLE_STEPS: readonly { table: string; sql: string }[] = [
  {
    table: 'tool_calls',
    sql: `
CREATE TABLE tool_calls AS
  WITH sent AS (${SENT_SQL})
  SELECT c.* EXCLUDE (tool_call_id, argspan_call_id, conversation_id, argspan_run_id),
    -- argspan's own ids first; older exports wrote them into the GenAI attributes.
    coalesce(c.argspan_call_id, c.tool_call_id) AS call_id, coalesce(c.argspan_run_id, c.conversation_id) AS run_id, c.conversation_id,
    coalesce(c.tool_attr, substr(c."name", ${strip(SpanNamePrefix.TOOL_CALL)})) AS tool,
    coalesce(c.hop_remote, false) OR EXISTS (SELECT 1 FROM sent s WHERE s.trace_id = c.trace_id AND s.call_span_id = c.span_id) AS went_remote,
    -- the arguments left this machine: a hop went remote, or a tool that runs off this machine was reached
    coalesce(c.hop_remote, false) OR EXISTS (SELECT 1 FROM sent s WHERE s.trace_id = c.trace_id AND s.call_span_id = c.span_id)
      OR (coalesce(c.tool_remote, false) AND NOT coalesce(c.error_type IN (${GATE_ERRORS}), false)) AS left_machine,
    ${sqlString(Emitter.ARGSPAN)} AS emitter,
    coalesce(c.error_type IN (${GATE_ERRORS}), false) AS stopped_by_gate,
    NOT coalesce(c.error_type IN (${GATE_ERRORS}), false) AS dispatched,
    'tool-span' AS call_source, false AS no_evidence
  FROM (${derive(
    'span_structs',
    // argspan's own tool spans: its scope, or (exports that drop the scope) its verdict attribute.
    // Other libraries' execute_tool spans are read by the foreign-call readers.
    `"name" LIKE ${like(SpanNamePrefix.TOOL_CALL)} AND (scope_name = ${sqlString(INSTRUMENTATION_SCOPE)} OR list_contains(attr_keys, ${sqlString(CallAttributes.VERDICT)}))`,
    ['trace_id', 'span_id', 'parent_span_id AS turn_span_id', '"name"', 'start_ns', 'end_ns', 'file_id'],
    STAGED,
    TOOL_CALL_COLUMNS,
  )}) c
  WHERE c.operation IS NULL OR c.operation = ${sqlString(OPERATION_EXECUTE_TOOL)};
CREATE VIEW gate_hits AS
  SELECT trace_id, span_id, tool, unnest(gate_hits) AS hit FROM tool_calls WHERE len(gate_hits) > 0;`,
  },
  {
    table: 'hop_events',
    sql: `
CREATE TABLE hop_events AS
  WITH ev AS (${derive(
    `(${EVENTS})`,
    `e."name" IN (${HOP_EVENT_NAMES})`,
    ['trace_id', 'span_id', 'CAST(event_index AS INTEGER) AS event_index', 'e."name" AS "name"', 'TRY_CAST(e.timeUnixNano AS BIGINT) AS time_ns'],
    fromOtlp('e.attributes'),
    HOP_EVENT_COLUMNS,
  )}),
  hops AS (SELECT trace_id, span_id, parent_span_id FROM span_structs WHERE "name" LIKE ${like(SpanNamePrefix.HOP)})
  SELECT ev.*, coalesce(c.span_id, hc.span_id) AS call_span_id, coalesce(c.tool, hc.tool) AS tool, coalesce(c.run_id, hc.run_id) AS run_id
  FROM ev
  LEFT JOIN tool_calls c ON c.trace_id = ev.trace_id AND c.span_id = ev.span_id
  LEFT JOIN hops h ON h.trace_id = ev.trace_id AND h.span_id = ev.span_id
  LEFT JOIN tool_calls hc ON hc.trace_id = h.trace_id AND hc.span_id = h.parent_span_id;`,
  },
  {
    table: 'tool_args',
    sql: `
-- Build each hash join below on the side written on the right (the smaller table: the calls), not on
-- the argument rows, whose estimated size after the name filter misleads the optimizer into
-- copying every argument row into the hash table (a third of the load's time and memory).
SET disabled_optimizers = 'build_side_probe_side';
CREATE TABLE tool_args AS
  WITH a AS (${derive(
    'span_structs',
    `"name" LIKE ${like(SpanNamePrefix.ARGUMENT)}`,
    [
      'trace_id',
      'span_id',
      'parent_span_id AS call_span_id',
      '"name"',
      'start_ns',
      'file_id',
      'hex_id(links[1].traceId, 32) AS link_trace_id',
      'hex_id(links[1].spanId, 16) AS link_span_id',
    ],
    STAGED,
    TOOL_ARG_COLUMNS,
    [`list_contains(ks, ${sqlString(ArgAttributes.EXCERPT)}) AS has_excerpt`],
  )}),
  -- The call a source call id names: in the argument's own trace, else the first in id order (call ids may repeat across runs).
  in_trace AS (SELECT trace_id, call_id, min(span_id) AS span_id FROM tool_calls WHERE call_id IS NOT NULL GROUP BY trace_id, call_id),
  by_call_id AS (SELECT call_id, min(trace_id) AS trace_id, arg_min(span_id, trace_id || span_id) AS span_id FROM tool_calls WHERE call_id IS NOT NULL GROUP BY call_id)
  SELECT a.* EXCLUDE (link_trace_id, link_span_id),
    coalesce(a.key_attr, substr(a."name", ${strip(SpanNamePrefix.ARGUMENT)})) AS "key",
    gate_hit_key(c.tool, coalesce(a.key_attr, substr(a."name", ${strip(SpanNamePrefix.ARGUMENT)}))) AS gate_hit_key,
    c.tool, c.call_id, c.run_id, c.turn_span_id,
    coalesce(a.link_trace_id, it.trace_id, src.trace_id) AS source_trace_id, coalesce(a.link_span_id, it.span_id, src.span_id) AS source_span_id,
    coalesce(c.emitter, ${sqlString(Emitter.ARGSPAN)}) AS emitter, coalesce(c.dispatched, true) AS dispatched, coalesce(c.went_remote, false) AS went_remote,
    coalesce(c.left_machine, false) AS left_machine
  FROM a
  LEFT JOIN tool_calls c ON c.trace_id = a.trace_id AND c.span_id = a.call_span_id
  LEFT JOIN in_trace it ON it.trace_id = a.trace_id AND it.call_id = a.source_call_id
  LEFT JOIN by_call_id src ON src.call_id = a.source_call_id;
RESET disabled_optimizers;`,
  },
];
