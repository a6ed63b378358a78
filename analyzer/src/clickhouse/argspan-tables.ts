import {
  ArgAttributes,
  CallAttributes,
  Emitter,
  ErrorType,
  HopEvents,
  INSTRUMENTATION_SCOPE,
  LIST_INDEX_PATTERN,
  OPERATION_EXECUTE_TOOL,
  OtelAttributes,
  SpanNamePrefix,
} from '@argspan/conventions';
import { HOP_EVENT_COLUMNS, TOOL_ARG_COLUMNS, TOOL_CALL_COLUMNS, type DerivedColumn } from '../load/argspan-tables.js';
import { LOG_RECORD_SPAN_NAME } from '../load/schema.js';
import { SPANS_FROM_RECORDS } from './log-records.js';
import { CH_TYPE, CH_TYPED, attrValue, chString } from './sql.js';
import type { TraceSource } from './source.js';
import { onceSql } from './span-copies.js';

/** A temporary table of the run: its name and columns (name, ClickHouse type), in the order the rows are written. */
export interface ChTable {
  table: string;
  columns: readonly (readonly [string, string])[];
  /** A row per span, call or argument leaf: kept on disk, compressed (MergeTree), not in the session's memory. */
  onDisk?: boolean;
}

const typedColumns = (cols: readonly DerivedColumn[], dictionary: ReadonlySet<string> = new Set()) =>
  cols.map((c) => [c.column, dictionary.has(c.column) ? `LowCardinality(${CH_TYPE[c.type]})` : CH_TYPE[c.type]] as const);
/**
 * `tool_args` columns whose few values repeat on every argument row (labels, keys, tools),
 * dictionary-encoded: other libraries' traces give a million rows and more, and the table is
 * held in memory (a third less at 200K spans).
 */
const REPEATED_ARG_LABELS = new Set(['leaf', 'provenance', 'residency', 'rule']);
/** Ids the call's own columns replace (`call_id`, `run_id`): read, never kept, as in DuckDB's table. */
const CALL_ID_SOURCES = new Set(['tool_call_id', 'argspan_call_id', 'argspan_run_id']);

/**
 * The derived tables the rules read, with the columns DuckDB's have (analyzer/README.md,
 * "Schema"), less `file_id` (the spans come from one table, not from files). Ids are text,
 * times Int64 nanoseconds, lists Array(String) (empty, never NULL).
 */
export const CH_TABLES = {
  tool_calls: {
    table: 'tool_calls',
    onDisk: true,
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['turn_span_id', 'Nullable(String)'],
      ['name', 'Nullable(String)'],
      ['start_ns', 'Nullable(Int64)'],
      ['end_ns', 'Nullable(Int64)'],
      ...typedColumns(TOOL_CALL_COLUMNS.filter((c) => !CALL_ID_SOURCES.has(c.column))),
      ['call_id', 'Nullable(String)'],
      ['run_id', 'Nullable(String)'],
      ['tool', 'Nullable(String)'],
      ['went_remote', 'Bool'],
      ['left_machine', 'Bool'],
      ['emitter', 'String'],
      ['stopped_by_gate', 'Bool'],
      ['dispatched', 'Bool'],
      ['call_source', 'String'],
      ['no_evidence', 'Bool'],
    ],
  },
  gate_hits: {
    table: 'gate_hits',
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['tool', 'Nullable(String)'],
      ['hit', 'String'],
    ],
  },
  hop_events: {
    table: 'hop_events',
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['event_index', 'Int32'],
      ['name', 'String'],
      ['time_ns', 'Nullable(Int64)'],
      ...typedColumns(HOP_EVENT_COLUMNS),
      ['call_span_id', 'Nullable(String)'],
      ['tool', 'Nullable(String)'],
      ['run_id', 'Nullable(String)'],
    ],
  },
  tool_args: {
    table: 'tool_args',
    onDisk: true,
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['call_span_id', 'Nullable(String)'],
      ['name', 'Nullable(String)'],
      ['start_ns', 'Nullable(Int64)'],
      ...typedColumns(TOOL_ARG_COLUMNS, REPEATED_ARG_LABELS),
      ['has_excerpt', 'Bool'],
      ['key', 'LowCardinality(Nullable(String))'],
      ['gate_hit_key', 'LowCardinality(Nullable(String))'],
      ['tool', 'LowCardinality(Nullable(String))'],
      ['call_id', 'Nullable(String)'],
      ['run_id', 'Nullable(String)'],
      ['turn_span_id', 'Nullable(String)'],
      ['source_trace_id', 'Nullable(String)'],
      ['source_span_id', 'Nullable(String)'],
      ['emitter', 'LowCardinality(String)'],
      ['dispatched', 'Bool'],
      ['went_remote', 'Bool'],
      ['left_machine', 'Bool'],
    ],
  },
  argument_blobs: {
    table: 'argument_blobs',
    onDisk: true,
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['attribute', 'String'],
      ['call_span_id', 'String'],
    ],
  },
  credential_hits: {
    table: 'credential_hits',
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['scope', 'String'],
      ['key', 'Nullable(String)'],
      ['rule_id', 'String'],
      ['credential_hash', 'String'],
      ['hit_no', 'Int32'],
      ['start_ns', 'Nullable(Int64)'],
      ['end_ns', 'Nullable(Int64)'],
    ],
  },
  log_record_credential_hits: {
    table: 'log_record_credential_hits',
    columns: [
      ['trace_id', 'Nullable(String)'],
      ['span_id', 'Nullable(String)'],
      ['scope', 'String'],
      ['key', 'Nullable(String)'],
      ['rule_id', 'String'],
      ['credential_hash', 'String'],
      ['records', 'Int64'],
      ['first_time', 'Nullable(String)'],
    ],
  },
  argument_credentials: {
    table: 'argument_credentials',
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['key', 'String'],
      ['credential_hash', 'String'],
    ],
  },
  remote_allowlist: { table: 'remote_allowlist', columns: [['tool', 'String']] },
  deny_residencies: { table: 'deny_residencies', columns: [['residency', 'String']] },
  spans: {
    table: 'spans',
    onDisk: true,
    columns: [
      ['trace_id', 'String'],
      ['span_id', 'String'],
      ['parent_span_id', 'Nullable(String)'],
      ['name', 'String'],
      ['kind', 'Nullable(String)'],
      ['start_ns', 'Int64'],
      ['end_ns', 'Int64'],
      ['duration_ns', 'Int64'],
      ['status_code', 'Nullable(String)'],
      ['status_message', 'Nullable(String)'],
      ['service_name', 'Nullable(String)'],
      ['scope_name', 'Nullable(String)'],
      ['scope_version', 'Nullable(String)'],
    ],
  },
} as const satisfies Record<string, ChTable>;

/**
 * `CREATE TEMPORARY TABLE` for one of {@link CH_TABLES} (the session's, dropped with it). A table
 * with a row per span, call or leaf is a MergeTree table, compressed on disk: at 1M spans of other
 * libraries' traces, held in memory (`Memory`) they took the run's peak from about 2.1 GB to 3.3 GB.
 */
export function createTableSql(t: ChTable): string {
  return `CREATE TEMPORARY TABLE ${t.table} (${t.columns.map(([n, type]) => `\`${n}\` ${type}`).join(', ')}) ENGINE = ${t.onDisk ? 'MergeTree ORDER BY tuple()' : 'Memory'}`;
}

/** `INSERT INTO t (columns)` of one of {@link CH_TABLES}, columns in its order. */
function insertInto(t: ChTable): string {
  return `INSERT INTO ${t.table} (${t.columns.map(([n]) => `\`${n}\``).join(', ')})`;
}

const typed = (cols: readonly DerivedColumn[], map: string) => cols.map((c) => `${CH_TYPED[c.type](attrValue(map, c.key))} AS ${c.column}`).join(',\n      ');
const like = (prefix: string) => chString(`${prefix} %`);
const strip = (prefix: string) => `${prefix} `.length + 1;
const HOP_EVENT_NAMES = `[${Object.values(HopEvents).map(chString).join(', ')}]`;
const GATE_ERRORS = [ErrorType.REFUSED, ErrorType.BLOCKED, ErrorType.CLARIFICATION].map(chString).join(', ');

/**
 * The statements that build argspan's derived tables in ClickHouse, in order — the same rows
 * DuckDB's `ARGSPAN_TABLE_STEPS` derive from staged spans, here from the exporter's columns: each
 * reads only the columns it names, and only the spans of its kind (`SpanName` prefix, in the
 * run's window), so ClickHouse prunes partitions and granules before the attribute maps are read.
 */
export function argspanTableSteps(src: TraceSource): { table: string; sql: string }[] {
  const T = src.table;
  const callCols = TOOL_CALL_COLUMNS;
  // Each span once: the collector may insert a batch twice (a retried export), and of differing copies one is kept (span-copies.ts).
  const ONCE = onceSql(src);
  return [
    {
      table: 'tool_calls',
      sql: `${insertInto(CH_TABLES.tool_calls)}
  SELECT trace_id, span_id, turn_span_id, name, start_ns, end_ns,
    ${callCols.filter((c) => !CALL_ID_SOURCES.has(c.column)).map((c) => c.column).join(', ')},
    coalesce(argspan_call_id, tool_call_id) AS call_id, coalesce(argspan_run_id, conversation_id) AS run_id,
    coalesce(tool_attr, substring(name, ${strip(SpanNamePrefix.TOOL_CALL)})) AS tool,
    coalesce(hop_remote, false) OR sent_here OR (trace_id, span_id) GLOBAL IN (
      SELECT TraceId, ParentSpanId FROM ${T}
      WHERE ${src.where} AND SpanName LIKE ${like(SpanNamePrefix.HOP)} AND has(Events.Name, ${chString(HopEvents.HOP_SENT)})) AS went_remote,
    -- the arguments left this machine: a hop went remote, or a tool that runs off this machine was reached
    went_remote OR (coalesce(tool_remote, false) AND NOT coalesce(error_type IN (${GATE_ERRORS}), false)) AS left_machine,
    ${chString(Emitter.ARGSPAN)} AS emitter,
    coalesce(error_type IN (${GATE_ERRORS}), false) AS stopped_by_gate,
    NOT coalesce(error_type IN (${GATE_ERRORS}), false) AS dispatched,
    'tool-span' AS call_source, false AS no_evidence
  FROM (
    SELECT TraceId AS trace_id, SpanId AS span_id, nullIf(ParentSpanId, '') AS turn_span_id, SpanName AS name,
      toUnixTimestamp64Nano(Timestamp) AS start_ns, start_ns + toInt64(Duration) AS end_ns,
      has(Events.Name, ${chString(HopEvents.HOP_SENT)}) AS sent_here,
      ${typed(callCols, 'SpanAttributes')}
    FROM ${T}
    -- argspan's own tool spans: its scope, or (exports that drop the scope) its verdict attribute.
    WHERE ${src.where} AND SpanName LIKE ${like(SpanNamePrefix.TOOL_CALL)}
      AND (${src.scopeName} = ${chString(INSTRUMENTATION_SCOPE)} OR mapContains(SpanAttributes, ${chString(CallAttributes.VERDICT)}))
    ${ONCE})
  WHERE operation IS NULL OR operation = ${chString(OPERATION_EXECUTE_TOOL)}`,
    },
    {
      table: 'gate_hits',
      sql: `${insertInto(CH_TABLES.gate_hits)} SELECT trace_id, span_id, tool, arrayJoin(gate_hits) AS hit FROM tool_calls WHERE notEmpty(gate_hits)`,
    },
    {
      table: 'hop_events',
      sql: `${insertInto(CH_TABLES.hop_events)}
  SELECT e.trace_id, e.span_id, e.event_index, e.name, e.time_ns, ${HOP_EVENT_COLUMNS.map((c) => `e.${c.column}`).join(', ')},
    coalesce(c.span_id, hc.span_id) AS call_span_id, coalesce(c.tool, hc.tool) AS tool, coalesce(c.run_id, hc.run_id) AS run_id
  FROM (
    SELECT trace_id, span_id, hop_parent, toInt32(i - 1) AS event_index, n AS name, toUnixTimestamp64Nano(t) AS time_ns,
      ${typed(HOP_EVENT_COLUMNS, 'ea')}
    FROM (
      SELECT TraceId AS trace_id, SpanId AS span_id,
        if(SpanName LIKE ${like(SpanNamePrefix.HOP)}, nullIf(ParentSpanId, ''), NULL) AS hop_parent,
        Events.Name AS names, Events.Timestamp AS times, Events.Attributes AS attrs
      FROM ${T} WHERE ${src.where} AND hasAny(Events.Name, ${HOP_EVENT_NAMES})
      ${ONCE})
    ARRAY JOIN names AS n, times AS t, attrs AS ea, arrayEnumerate(names) AS i
    WHERE n IN ${HOP_EVENT_NAMES}) e
  LEFT JOIN tool_calls c ON c.trace_id = e.trace_id AND c.span_id = e.span_id
  LEFT JOIN tool_calls hc ON hc.trace_id = e.trace_id AND hc.span_id = e.hop_parent`,
    },
    {
      table: 'tool_args',
      sql: `${insertInto(CH_TABLES.tool_args)}
  SELECT a.trace_id, a.span_id, a.call_span_id, a.name, a.start_ns, ${TOOL_ARG_COLUMNS.map((c) => `a.${c.column}`).join(', ')}, a.has_excerpt,
    a.arg_key AS key, concat(c.tool, '.', replaceRegexpAll(a.arg_key, ${chString(LIST_INDEX_PATTERN)}, '')) AS gate_hit_key,
    c.tool, c.call_id, c.run_id, c.turn_span_id,
    coalesce(a.link_trace_id, it.trace_id, src.trace_id) AS source_trace_id, coalesce(a.link_span_id, it.span_id, src.span_id) AS source_span_id,
    coalesce(c.emitter, ${chString(Emitter.ARGSPAN)}) AS emitter, coalesce(c.dispatched, true) AS dispatched, coalesce(c.went_remote, false) AS went_remote,
    coalesce(c.left_machine, false) AS left_machine
  FROM (
    SELECT *, coalesce(key_attr, substring(name, ${strip(SpanNamePrefix.ARGUMENT)})) AS arg_key
    FROM (
      SELECT TraceId AS trace_id, SpanId AS span_id, nullIf(ParentSpanId, '') AS call_span_id, SpanName AS name,
        toUnixTimestamp64Nano(Timestamp) AS start_ns,
        nullIf(Links.TraceId[1], '') AS link_trace_id, nullIf(Links.SpanId[1], '') AS link_span_id,
        mapContains(SpanAttributes, ${chString(ArgAttributes.EXCERPT)}) AS has_excerpt,
        ${typed(TOOL_ARG_COLUMNS, 'SpanAttributes')}
      FROM ${T} WHERE ${src.where} AND SpanName LIKE ${like(SpanNamePrefix.ARGUMENT)}
      ${ONCE})) a
  LEFT JOIN tool_calls c ON c.trace_id = a.trace_id AND c.span_id = a.call_span_id
  -- The call a source call id names: in the argument's own trace, else the first in id order (as DuckDB's).
  LEFT JOIN (SELECT trace_id, call_id, min(span_id) AS span_id FROM tool_calls WHERE call_id IS NOT NULL GROUP BY trace_id, call_id) it
    ON it.trace_id = a.trace_id AND it.call_id = a.source_call_id
  LEFT JOIN (SELECT call_id, min(trace_id) AS trace_id, argMin(span_id, concat(trace_id, span_id)) AS span_id FROM tool_calls WHERE call_id IS NOT NULL GROUP BY call_id) src
    ON src.call_id = a.source_call_id`,
    },
  ];
}

/** Span kinds and status codes as the exporter writes them (`SPAN_KIND_SERVER`, or a collector's `Server`), as DuckDB's labels. */
const label = (col: string, prefix: string) => `nullIf(lower(replaceOne(upper(${col}), ${chString(prefix)}, '')), '')`;

/**
 * `spans`, for the rules that read it (only those: it is as large as the window). Columns as
 * DuckDB's view, less `resource_id` and `file_id`.
 */
export function spansSql(src: TraceSource): string {
  // Spans made from log records, as DuckDB stages them: no parent, kind or status, the records' resource and scope (a coding agent's record: its event's name).
  const fromRecords = src.logRecords
    ? `
  UNION ALL
  SELECT trace_id, span_id, NULL, if(name = '', ${chString(LOG_RECORD_SPAN_NAME)}, name), ${label("'SPAN_KIND_UNSPECIFIED'", 'SPAN_KIND_')}, start_ns, end_ns, end_ns - start_ns,
    ${label("'STATUS_CODE_UNSET'", 'STATUS_CODE_')}, NULL, nullIf(resource[${chString(OtelAttributes.SERVICE_NAME)}], ''), scope_name, scope_version
  FROM ${SPANS_FROM_RECORDS}`
    : '';
  return `${insertInto(CH_TABLES.spans)}
  SELECT TraceId, SpanId, nullIf(ParentSpanId, ''), SpanName, ${label('SpanKind', 'SPAN_KIND_')},
    toUnixTimestamp64Nano(Timestamp) AS start_ns, start_ns + toInt64(Duration), toInt64(Duration),
    ${label('StatusCode', 'STATUS_CODE_')}, nullIf(StatusMessage, ''), nullIf(ServiceName, ''), ${src.scopeName}, ${src.scopeVersion}
  FROM ${src.table} WHERE ${src.where} ${onceSql(src)}${fromRecords}`;
}
