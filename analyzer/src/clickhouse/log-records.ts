import { CLAUDE_CODE_EVENTS_SCOPE, CLAUDE_CODE_PREFIX, CODING_AGENT_EVENT_NAMES, CodingAgentIds, RUST_TRACING_EVENT_NAME } from '../foreign/coding-agent-events.js';
import { MESSAGE_EVENT_NAMES } from '../foreign/message-events.js';
import { RECORD_BODY_ATTRIBUTE } from '../load/coding-agent-records.js';
import { LOG_BODY_ATTRIBUTE } from '../load/otlp-logs.js';
import type { InputProblem } from '../load/input-error.js';
import { UsageError } from '../usage-error.js';
import type { ChSession } from './client.js';
import { chIdent, chString } from './sql.js';
import { instant, type TraceSource, type TraceWindow } from './source.js';


/** The first instant past what ClickHouse's DateTime (UInt32 seconds) holds: 2106-02-07 06:28:16 UTC. */
const LAST_DATETIME_MS = 2 ** 32 * 1000;
/**
 * The GenAI log records of the collector exporter's logs table (`otel_logs`), read as DuckDB's
 * path reads an OTLP logs export (`load/otlp-logs.ts`): the official instrumentations (Python
 * `opentelemetry-instrumentation-openai-v2` and its siblings) record a model call's messages as
 * log records carrying the call's trace and span id, not on the span. Each record becomes an event
 * of that span, after its own, by time; a span the traces table does not hold is made from its
 * records. The records of the run are gathered once, a row per span, into the session's temporary
 * table {@link LOG_RECORD_SPANS}, which the foreign classification, the credential re-scan, `spans`
 * and the counts read beside the traces table.
 */

/** The session's table of GenAI log records, a row per span they name (see {@link gatherLogRecords}). */
export const LOG_RECORD_SPANS = 'log_record_spans';

/**
 * The rows of {@link LOG_RECORD_SPANS} whose span is not in the traces table: spans made from their
 * records — GenAI records' spans (`name` empty: named `gen_ai log records`, their records their
 * events) and coding agents' records, a span each (`name` the event's, `attributes` the record's).
 */
export const SPANS_FROM_RECORDS = `(SELECT * FROM ${LOG_RECORD_SPANS} WHERE NOT in_traces)`;

/** Columns of the exporter's logs table the analyzer reads (`ScopeName` / `ScopeVersion` too, where the exporter writes them). */
const REQUIRED_LOG_COLUMNS = ['Timestamp', 'TraceId', 'SpanId', 'Body', 'ResourceAttributes', 'LogAttributes'] as const;

/** The default logs table: a run without it reads no logs (the exporter writes it only in a logs pipeline). */
export const DEFAULT_LOGS_TABLE = 'otel_logs';

/** The names of the events that record messages, as a ClickHouse array. */
const MESSAGE_EVENTS_ARRAY = `[${MESSAGE_EVENT_NAMES.map(chString).join(', ')}]`;

/** An event of {@link LOG_RECORD_SPANS}' `events`: as the exporter keeps a span event, its attributes text. */
const EVENT_TUPLE = 'Tuple(time_ns Int64, name String, attributes Map(String, String))';

/** What {@link gatherLogRecords} read. */
export interface LogRecordsRead {
  /** GenAI log records read (a record the exporter inserted twice counted twice, as DuckDB counts a record in two files); when 0 and so are `agentRecords`, there is no {@link LOG_RECORD_SPANS}. */
  records: number;
  /** Of the spans, those made from their GenAI records (no span of the traces table has their ids). */
  spansFromRecords: number;
  /** Coding agents' records read (Claude Code, Gemini CLI, Qwen Code, Codex CLI: see `load/coding-agent-records.ts`), each a span of its own. */
  agentRecords: number;
  /** The spans made from them (a record inserted twice is one). */
  agentSpans: number;
  /** GenAI log records of the window's time without a trace or span id: written outside any span, they name no call to read them with. */
  unjoinable: number;
  /**
   * Log records of the run's traces with GenAI attributes but no event name, in a table without
   * the `EventName` column: the exporter keeps OTLP's event name only in that column (an optional
   * one its default schema lacks), and the instrumentations name their events only there.
   */
  unnamed: number;
  /**
   * Log records of the run's traces, and those without a trace id of the window's time, that are no
   * GenAI message event (an application's own logs, the unnamed above apart): counted, scanned for
   * credentials ({@link scannedLogRecords}), not read as tool calls.
   */
  others: number;
  /**
   * SQL: the records the credential scan reads, as `TraceSource.scannedLogRecords` (a subquery):
   * those others (the unnamed too), `App` true, and the GenAI records read, `App` false, whose
   * resource and scope are read, not their own texts (a logs export's resource need not be its traces').
   */
  scannedLogRecords: string;
}

/**
 * Check the logs table and gather its GenAI log records of the run's traces into
 * {@link LOG_RECORD_SPANS} (left only when there are some); `undefined` when the default table
 * does not exist (a collector without a logs pipeline). A table the user named that does not
 * exist, or a table without the exporter's columns, is a usage error (exit 2), as for traces.
 *
 * Each row is a span: its records as `events` (ordered by time, then as the exporter inserted
 * them — the instrumentations write a call's messages at one instant, in the conversation's
 * order, and MergeTree keeps the insertion order of rows with equal keys), a record inserted twice
 * once (the same time, name and attributes); the event name from the `EventName` column where the
 * exporter has one, else the `event.name` attribute; the body, as the exporter wrote it (a map's
 * JSON, a string as it is), as {@link LOG_BODY_ATTRIBUTE}; the first record's resource and scope;
 * `start_ns` / `end_ns` its first and last record's time; `in_traces`, whether the traces table
 * holds the span (in the window). A record without a trace or span id (written outside any span)
 * names no span and is not read: they are counted (`unjoinable`, those of the window's time), for
 * the run to say so, as DuckDB's path refuses them — unless it names its session (`session.id`):
 * then it is read as a coding agent's record, a span of its own (as DuckDB's path reads it).
 */
export async function gatherLogRecords(
  session: ChSession,
  database: string,
  table: string,
  named: boolean,
  src: TraceSource,
  window: Pick<TraceWindow, 'since' | 'until'>,
): Promise<LogRecordsRead | undefined> {
  const cols = await session.all(
    `SELECT name FROM system.columns WHERE database = ${chString(database)} AND table = ${chString(table)}`,
    'reading the logs table\'s columns',
  );
  const names = new Set(cols.map((c) => String(c.name)));
  if (names.size === 0) {
    if (!named) return undefined;
    throw new UsageError('--logs-table', `${database}.${table} does not exist on ${session.server} (or this user may not read it)`);
  }
  const missing = REQUIRED_LOG_COLUMNS.filter((c) => !names.has(c));
  if (missing.length) throw new UsageError('--logs-table', `${database}.${table} is not the collector exporter's logs table: no column ${missing.join(', ')}`);
  const logs = `${chIdent(database)}.${chIdent(table)}`;
  const attrName = "LogAttributes['event.name']";
  // (Rust's `tracing` default name, `event {file}:{line}`, names no event: Codex CLI's is in the attribute, as `eventName` in otlp-logs.ts reads it)
  const eventName = names.has('EventName')
    ? `multiIf(EventName <> '' AND NOT match(EventName, ${chString(RUST_TRACING_EVENT_NAME.source)}), EventName, ${attrName} <> '', ${attrName}, EventName)`
    : attrName;
  const scope = (col: string) => (names.has(col) ? `nullIf(${col}, '')` : 'CAST(NULL AS Nullable(String))');
  // Where a record stands in the table: its part's first block (parts in insertion order) and its row in the part.
  const place = "(toUInt64OrZero(splitByChar('_', _part)[2]), _part_offset)";
  // The exporter partitions the table by TimestampTime (the second of Timestamp): bounding it too lets ClickHouse skip other days.
  // (only an instant a DateTime holds, 1970 up to 2106: toDateTime wraps any other, and the bound would drop every record;
  // a bound outside that range bounds nothing a DateTime column holds anyway)
  const inDateTime = (d: Date | undefined) => d !== undefined && d.getTime() >= 0 && d.getTime() < LAST_DATETIME_MS;
  const partitions = names.has('TimestampTime')
    ? [inDateTime(src.readFrom) && `TimestampTime >= toDateTime(${instant(src.readFrom!)})`, inDateTime(src.readBefore) && `TimestampTime <= toDateTime(${instant(src.readBefore!)})`]
        .filter(Boolean)
        .map((c) => ` AND ${c}`)
        .join('')
    : '';
  const genAi = `${eventName} IN ${MESSAGE_EVENTS_ARRAY}`;
  const genAiRead = `${src.where}${partitions} AND TraceId <> '' AND SpanId <> '' AND ${genAi}`;
  // Records without ids belong to no trace: the window's own time bounds them (never its extension past --until, which the next window reads).
  const during = [window.since && `Timestamp >= ${instant(window.since)}`, window.until && `Timestamp < ${instant(window.until)}`].filter(Boolean).map((c) => ` AND ${c}`).join('');
  // A coding agent's record (its full event name: Claude Code's `event.name` lacks the prefix its body or scope gives), read as a
  // span of its own: those of the run's traces, and those without a trace id of the window's time (the agents' default).
  const agentEvent = `multiIf(position(${eventName}, '.') = 0 AND ${eventName} <> '' AND (Body = concat(${chString(CLAUDE_CODE_PREFIX)}, ${eventName}) OR ${scope('ScopeName')} = ${chString(CLAUDE_CODE_EVENTS_SCOPE)}),
    concat(${chString(CLAUDE_CODE_PREFIX)}, ${eventName}), ${eventName} = '' AND startsWith(Body, ${chString(CLAUDE_CODE_PREFIX)}), Body, ${eventName})`;
  // A GenAI record written outside any span but in a session (Gemini CLI's model-call details) is read as one too.
  const outsideSpans = "(TraceId = '' OR SpanId = '')";
  const sessionGenAi = `(${genAi}) AND ${outsideSpans} AND LogAttributes[${chString(CodingAgentIds.SESSION)}] <> ''`;
  const agent = `(${agentEvent} IN [${CODING_AGENT_EVENT_NAMES.map(chString).join(', ')}] OR (${sessionGenAi}))`;
  const agentRead = `${agent}${partitions} AND ((TraceId <> '' AND ${src.where}) OR (TraceId = ''${during}))`;
  await session.run(
    `CREATE TEMPORARY TABLE ${LOG_RECORD_SPANS} ENGINE = MergeTree ORDER BY (trace_id, span_id) AS
    SELECT trace_id, span_id,
      CAST(arrayMap(r -> (r.1, r.2, r.3), arraySort(r -> (r.1, r.4), groupArray((time_ns, name, attributes, place)))) AS Array(${EVENT_TUPLE})) AS events,
      min(time_ns) AS start_ns, max(time_ns) AS end_ns, argMin(resource, (time_ns, place)) AS resource,
      argMin(scope_name, (time_ns, place)) AS scope_name, argMin(scope_version, (time_ns, place)) AS scope_version,
      sum(copies) AS records,
      (trace_id, span_id) GLOBAL IN (SELECT TraceId, SpanId FROM ${src.table} WHERE ${src.where}) AS in_traces,
      '' AS name, CAST(map() AS Map(String, String)) AS attributes
    FROM (
      SELECT TraceId AS trace_id, SpanId AS span_id, time_ns, name, attributes, min(place) AS place, count() AS copies,
        argMin(res, place) AS resource, argMin(scope_name, place) AS scope_name, argMin(scope_version, place) AS scope_version
      FROM (
        SELECT TraceId, SpanId, toUnixTimestamp64Nano(Timestamp) AS time_ns, ${eventName} AS name,
          mapSort(mapUpdate(CAST(LogAttributes AS Map(String, String)), if(Body = '', map(), map(${chString(LOG_BODY_ATTRIBUTE)}, Body)))) AS attributes,
          CAST(ResourceAttributes AS Map(String, String)) AS res, ${scope('ScopeName')} AS scope_name, ${scope('ScopeVersion')} AS scope_version, ${place} AS place
        FROM ${logs}
        WHERE ${genAiRead})
      GROUP BY trace_id, span_id, time_ns, name, attributes)
    GROUP BY trace_id, span_id
    UNION ALL
    SELECT trace_id, span_id, CAST([] AS Array(${EVENT_TUPLE})), min(time_ns), max(time_ns), argMin(res, place), argMin(scope_name, place), argMin(scope_version, place),
      count(), 0, any(event), argMin(attributes, place)
    FROM (
      SELECT *, ${codingAgentSpanIdSql('trace_id', 'event', 'time_ns')} AS span_id
      FROM (
        SELECT if(TraceId <> '', TraceId, ${codingAgentTraceIdSql('event')}) AS trace_id, event, toUnixTimestamp64Nano(Timestamp) AS time_ns,
          mapUpdate(log_attributes, if(Body = '' OR Body = event, map(), map(${chString(RECORD_BODY_ATTRIBUTE)}, Body))) AS attributes, log_attributes, res, scope_name, scope_version, place
        FROM (
          SELECT TraceId, Body, Timestamp, CAST(LogAttributes AS Map(String, String)) AS log_attributes, CAST(ResourceAttributes AS Map(String, String)) AS res,
            ${scope('ScopeName')} AS scope_name, ${scope('ScopeVersion')} AS scope_version, ${place} AS place, ${agentEvent} AS event
          FROM ${logs} WHERE ${agentRead})))
    GROUP BY trace_id, span_id`,
    'gathering the GenAI log records',
  );
  const [read] = await session.all(
    `SELECT sumIf(records, name = '') AS records, countIf(NOT in_traces AND name = '') AS spans, sumIf(records, name <> '') AS agent_records, countIf(name <> '') AS agent_spans FROM ${LOG_RECORD_SPANS}`,
    'counting the GenAI log records',
  );
  const records = Number(read?.records ?? 0);
  const agentRecords = Number(read?.agent_records ?? 0);
  if (records === 0 && agentRecords === 0) await session.run(`DROP TEMPORARY TABLE ${LOG_RECORD_SPANS}`, `dropping ${LOG_RECORD_SPANS}`);
  const [unjoinable] = await session.all(
    `SELECT count() AS n FROM ${logs} WHERE ${outsideSpans} AND ${genAi} AND LogAttributes[${chString(CodingAgentIds.SESSION)}] = ''${during}`,
    'counting GenAI log records outside any span',
  );
  let unnamed = 0;
  if (!names.has('EventName')) {
    const [n] = await session.all(
      `SELECT count() AS n FROM ${logs} WHERE ${src.where}${partitions} AND ${attrName} = '' AND hasAny(mapKeys(LogAttributes), ${GENAI_RECORD_KEYS})`,
      'counting GenAI log records without an event name',
    );
    unnamed = Number(n?.n ?? 0);
  }
  // An application's own records: those of the run's traces, and those written outside any span in the window's time.
  const appRecords = `NOT (${genAi}) AND NOT (${agent}) AND (${src.where === '1' ? '1' : `(${src.where}${partitions}) OR (TraceId = ''${during})`})`;
  const [other] = await session.all(`SELECT count() AS n FROM ${logs} WHERE ${appRecords}`, 'counting the other log records');
  const scopeMap = (col: string) => (names.has(col) ? `CAST(${col} AS Map(String, String))` : 'CAST(map() AS Map(String, String))');
  const scopeText = (col: string) => (names.has(col) ? col : "''");
  const scannedLogRecords = `(SELECT TraceId, SpanId, Timestamp, NOT (${genAi}) AND NOT (${agent}) AS App, Body, CAST(LogAttributes AS Map(String, String)) AS LogAttributes,
    CAST(ResourceAttributes AS Map(String, String)) AS ResourceAttributes, ${scopeText('ScopeName')} AS ScopeName, ${scopeText('ScopeVersion')} AS ScopeVersion,
    ${scopeMap('ScopeAttributes')} AS ScopeAttributes FROM ${logs} WHERE (${appRecords}) OR (${genAiRead}) OR (${agentRead}))`;
  return { records, spansFromRecords: Number(read?.spans ?? 0), agentRecords, agentSpans: Number(read?.agent_spans ?? 0), unjoinable: Number(unjoinable?.n ?? 0), unnamed, others: Number(other?.n ?? 0) - unnamed, scannedLogRecords };
}

/** Attributes every GenAI log record of the instrumentations carries (the provider), whatever its event. */
const GENAI_RECORD_KEYS = `[${['gen_ai.system', 'gen_ai.provider.name'].map(chString).join(', ')}]`;

/** The problem {@link LogRecordsRead.unnamed} records make: how to keep their names, never a value. */
export function unnamedProblem(source: string, table: string, records: number): InputProblem {
  return {
    file: source,
    reason: `${records} log record(s) with GenAI attributes but no event name, not read: the table has no EventName column, the only place the exporter keeps OTLP's event name (where the instrumentations name their events); add it (ALTER TABLE ${table} ADD COLUMN EventName LowCardinality(String)) and the exporter fills it from its next start`,
  };
}

/** The problem {@link LogRecordsRead.unjoinable} records make, named by the table and their count (never a value). */
export function unjoinableProblem(source: string, records: number): InputProblem {
  return {
    file: source,
    reason: `${records} GenAI log record(s) without a trace id and span id: they cannot be joined to their model call's span (log records carry them when they are written inside the span), so they were not read`,
  };
}

/** The text of a record's attribute as the span ids hash it: the exporter's map keeps every value as text. */
const attrText = (key: string) => `log_attributes[${chString(key)}]`;

/** SQL: `codingAgentTraceId` (`load/coding-agent-records.ts`) of a record without a trace id, `event` its full event name. */
function codingAgentTraceIdSql(event: string): string {
  const prompt = CodingAgentIds.PROMPT.reduceRight((rest: string, key) => `if(${attrText(key)} <> '', ${attrText(key)}, ${rest})`, "''");
  const session = `if(${attrText(CodingAgentIds.SESSION)} <> '', ${attrText(CodingAgentIds.SESSION)}, ${attrText(CodingAgentIds.CONVERSATION)})`;
  return idHashSql([chString('trace'), `splitByChar('.', ${event})[1]`, session, prompt], 32);
}

/** SQL: `codingAgentSpanId` of a record: its trace, event, time (ns; '' for none) and identity texts. */
function codingAgentSpanIdSql(traceId: string, event: string, timeNs: string): string {
  return idHashSql([chString('span'), traceId, event, `if(${timeNs} = 0, '', toString(${timeNs}))`, ...CodingAgentIds.IDENTITY.map(attrText)], 16);
}

/** SQL: the first `digits` lower-case hex digits of the SHA-256 of `parts` (SQL texts) joined with NUL, as `digest` does in JavaScript. */
function idHashSql(parts: readonly string[], digits: number): string {
  return `substring(lower(hex(SHA256(arrayStringConcat([${parts.join(', ')}], char(0))))), 1, ${digits})`;
}
