import { INSTRUMENTATION_SCOPE } from '@argspan/conventions';
import type { ClassifyOptions } from '@argspan/core';
import { EVIDENCE_ARRAY_KEYS, EVIDENCE_PREFIXES } from '../foreign/evidence.js';
import { EVIDENCE_EVENT_NAMES } from '../foreign/message-events.js';
import { CANDIDATE_KEYS, CANDIDATE_SPAN_NAMES, type ForeignLoadStats } from '../foreign/load-foreign.js';
import { LOG_RECORD_SPAN_NAME } from '../load/schema.js';
import { TraceClassifier, type TraceClassifierOptions } from '../foreign/trace-classifier.js';
import type { CandidateTrace } from '../foreign/trace-source.js';
import type { ChSession } from './client.js';
import { ForeignRowsClickHouse, runIdSteps } from './foreign-rows.js';
import { LOG_RECORD_SPANS, SPANS_FROM_RECORDS } from './log-records.js';
import { chString } from './sql.js';
import type { TraceSource } from './source.js';
import { ATTRS_TEXT, contentHashSql, DROPPED_COPIES, onceSql } from './span-copies.js';

/**
 * Passes over the candidate spans (each a bucket of traces by a hash of the trace id): ClickHouse
 * reads a pass while the workers classify the one before, so a few passes hide most of the reading;
 * but every pass scans the table's attribute maps again, and a pass's texts are held until it is
 * classified. So: four passes of at least 50,000 spans where there are that many, and passes of at
 * most 200,000 beyond (at 1M spans, load 4–5: 21 passes of 50,000 took 95 s and 140 s of CPU,
 * 5 of 200,000 74 s and 132 s).
 */
function passesFor(candidateSpans: number): number {
  return Math.max(Math.ceil(candidateSpans / 200_000), Math.min(4, Math.ceil(candidateSpans / 50_000)));
}

const EMPTY_TRACE: CandidateTrace = { no: -1, id: '', texts: [] };

/** The events the evidence reads (messages, Claude Code's tool output), as a ClickHouse array. */
const EVIDENCE_EVENTS = `[${EVIDENCE_EVENT_NAMES.map(chString).join(', ')}]`;

/** How the calls are classified (threads) and read (tests set the spans per pass to make several). */
type ForeignLoadOptions = Pick<TraceClassifierOptions, 'threads' | 'minThreadedSpans'> & { spansPerBucket?: number };

/**
 * Other libraries' tool calls, as DuckDB's `loadForeignCalls` reads them: the labelling is
 * JavaScript (`@argspan/core`'s classifier over the recorded argument blobs, with the prompts,
 * results and schemas of the trace as evidence, in worker threads when there are enough spans),
 * so ClickHouse selects only the candidate spans — those holding an emitter's signature key or
 * evidence — each as one JSON text, grouped by trace — and the calls, argument leaves (labels,
 * keyed hashes, byte counts: never a value) and blob locations are written back as narrow rows
 * (`ForeignRowsClickHouse`) that ClickHouse joins into `tool_calls`, `tool_args` and
 * `argument_blobs` for the rules. The exporter keeps every attribute as text: an
 * array attribute the evidence reads (`ai.prompt.tools`) is read back from the exporter's JSON.
 */
export async function loadForeignCallsClickHouse(
  session: ChSession,
  src: TraceSource,
  hashKey: Uint8Array,
  policy: ClassifyOptions,
  options: ForeignLoadOptions = {},
): Promise<ForeignLoadStats> {
  // A span with GenAI log records has message events: a candidate, as in DuckDB, where the records are its events.
  const withRecords = src.logRecords ? ` OR (TraceId, SpanId) GLOBAL IN (SELECT trace_id, span_id FROM ${LOG_RECORD_SPANS} WHERE in_traces)` : '';
  const candidates = `${src.where} AND ${candidateSql(src, withRecords)}`;
  // Each candidate span's trace and start; spans made from log records are all candidates (they hold only message events).
  const candidateStarts = `SELECT TraceId AS trace_id, toUnixTimestamp64Nano(Timestamp) AS start FROM ${src.table} WHERE ${candidates}${
    src.logRecords ? ` UNION ALL SELECT trace_id, start_ns FROM ${SPANS_FROM_RECORDS}` : ''}`;
  const [count] = await session.all(`SELECT count() AS n FROM (${candidateStarts})`, 'counting other libraries\' spans');
  const candidateSpans = Number(count?.n ?? 0);
  if (candidateSpans === 0) return { calls: 0, noEvidenceCalls: 0, unreadableArgsCalls: 0 };
  const rows = await ForeignRowsClickHouse.open(session);
  const { spansPerBucket, ...classifierOptions } = options;
  const classifier = TraceClassifier.start({ hashKey, policy, candidateSpans, ...classifierOptions }, (batch) => rows.append(batch));
  const buckets = spansPerBucket ? Math.ceil(candidateSpans / spansPerBucket) : passesFor(candidateSpans);
  // The next bucket is read while this one is classified, and rows are inserted as they come,
  // ClickHouse working while the workers do: the reads and inserts are queued on the session.
  const read = (bucket: number) => {
    const traces = rows.queued(() => readBucket(session, src, candidates, buckets, bucket, rows));
    traces.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    return traces;
  };
  let next: Promise<CandidateTrace[]> | undefined;
  try {
    for (const sql of runIdSteps(src, candidateStarts)) await session.run(sql, 'reading the runs of other libraries\' calls');
    next = read(0);
    for (let bucket = 0; bucket < buckets; bucket++) {
      const traces = await next!;
      if (bucket + 1 < buckets) next = read(bucket + 1);
      for (let i = 0; i < traces.length; i++) {
        await classifier.add(traces[i]!);
        traces[i] = EMPTY_TRACE; // its texts are the classifier's now
        rows.insert();
      }
    }
    await classifier.flush();
    await rows.finish();
  } finally {
    await classifier.close();
    await rows.drop().catch(() => undefined);
  }
  return rows.stats;
}

/**
 * Whether a row is a candidate span, as DuckDB's `CANDIDATE_SQL`: not argspan's own, and holding a
 * key of an emitter's tool-span signature or one evidence is read from, a tool span's name, or an
 * event the evidence reads (`more`: further conditions, any of which makes one).
 */
function candidateSql(src: TraceSource, more = ''): string {
  const keys = `[${CANDIDATE_KEYS.map(chString).join(', ')}]`;
  const prefixes = EVIDENCE_PREFIXES.map((p) => `startsWith(k, ${chString(p)})`).join(' OR ');
  return `(${src.scopeName} IS NULL OR ${src.scopeName} <> ${chString(INSTRUMENTATION_SCOPE)})
      AND (hasAny(mapKeys(SpanAttributes), ${keys}) OR SpanName IN (${CANDIDATE_SPAN_NAMES.map(chString).join(', ')}) OR arrayExists(k -> ${prefixes}, mapKeys(SpanAttributes)) OR hasAny(Events.Name, ${EVIDENCE_EVENTS})${more})`;
}

/**
 * How many spans have a copy not analysed (named in `dropped_copies`, see `span-copies.ts`) that
 * may hold a tool call or argument the kept copy does not, as DuckDB's `CALL_COPIES_SQL`: a copy
 * that is a candidate span and differs from the kept one in its name, attributes (as sorted
 * `key`␂`value` texts) or the events the evidence reads. Only when some copies differ (`src.droppedCopies`).
 */
export async function countCallCopies(session: ChSession, src: TraceSource): Promise<number> {
  const events = `arrayFilter(e -> has(${EVIDENCE_EVENTS}, e.1), arrayZip(Events.Name, Events.Attributes))`;
  const read = `cityHash64(SpanName, ${ATTRS_TEXT}, arrayMap(e -> e.1, ${events}), arrayMap(e -> mapKeys(e.2), ${events}), arrayMap(e -> mapValues(e.2), ${events}))`;
  const [row] = await session.all(
    `SELECT toString(count()) AS n FROM (
      SELECT anyIf(read, NOT dropped) AS kept, groupArrayIf(read, dropped AND candidate) AS others
      FROM (
        SELECT TraceId, SpanId, (TraceId, SpanId, ${contentHashSql(src)}) GLOBAL IN (SELECT TraceId, SpanId, content FROM ${DROPPED_COPIES}) AS dropped,
          ${candidateSql(src)} AS candidate, ${read} AS read
        FROM ${src.table} WHERE ${src.where} AND (TraceId, SpanId) GLOBAL IN (SELECT TraceId, SpanId FROM ${DROPPED_COPIES}))
      GROUP BY TraceId, SpanId)
    WHERE arrayExists(x -> x <> kept, others)`,
    'counting differing copies of spans that may hold tool calls',
  );
  return Number(row?.n ?? 0);
}

/**
 * The candidate spans of the traces in `bucket` (of `buckets`: by a hash of the trace's evidence
 * window, so a window's traces are read together, else of its id), a trace at a time: each line of
 * the result is a trace, its id, its run id (as JSON; empty for none) and window, its first
 * candidate span's start and its spans' JSON texts, tab separated (JSON text holds no raw tab or
 * newline). Grouped, not sorted: the classifier orders a trace's spans itself, and sorting the
 * texts cost more than writing them. The traces are ordered and numbered (by `rows`) here as
 * DuckDB's `numberTraces` does: a window's traces one after another, by start, then id.
 */
async function readBucket(session: ChSession, src: TraceSource, candidates: string, buckets: number, bucket: number, rows: ForeignRowsClickHouse): Promise<CandidateTrace[]> {
  const inBucket = (traceId: string) =>
    buckets > 1
      ? `(${traceId} GLOBAL IN (SELECT trace_id FROM foreign_trace_windows WHERE cityHash64(run_id, window_no) % ${buckets} = ${bucket})
        OR (cityHash64(${traceId}) % ${buckets} = ${bucket} AND ${traceId} GLOBAL NOT IN (SELECT trace_id FROM foreign_trace_windows)))`
      : '1';
  // The bucket's GenAI log records: events of their spans in the traces table, and spans of their own.
  const records = src.logRecords
    ? `LEFT JOIN (SELECT trace_id, span_id, events AS log_events FROM ${LOG_RECORD_SPANS} WHERE in_traces AND ${inBucket('trace_id')}) g
        ON g.trace_id = TraceId AND g.span_id = SpanId`
    : '';
  const spansFromRecords = src.logRecords
    ? `UNION ALL
      SELECT trace_id, start_ns, ${spanFromRecordsJsonSql()} FROM ${SPANS_FROM_RECORDS} WHERE ${inBucket('trace_id')}`
    : '';
  const read: { id: string; run: string | null; window: number; start: bigint; texts: string[] }[] = [];
  await session.eachLine(
    `SELECT toJSONString(TraceId), if(isNull(any(w.run_id)), '', toJSONString(assumeNotNull(any(w.run_id)))), toString(any(w.window_no)), toString(min(start)),
      arrayStringConcat(groupArray(span), '\\t')
    FROM (
      SELECT TraceId, toUnixTimestamp64Nano(Timestamp) AS start, ${spanJsonSql(src)} AS span
      FROM ${src.table} ${records}
      WHERE ${candidates} AND ${inBucket('TraceId')}
      ${onceSql(src)}
      ${spansFromRecords}) s
    LEFT JOIN foreign_trace_windows w ON w.trace_id = s.TraceId
    GROUP BY TraceId`,
    'reading other libraries\' spans',
    (line) => {
      const [idText, runText, window, start, ...texts] = line.split('\t');
      read.push({ id: JSON.parse(idText!) as string, run: runText === '' ? null : (JSON.parse(runText!) as string), window: Number(window), start: BigInt(start!), texts });
    },
  );
  read.sort((x, y) => compareRuns(x.run, y.run) || x.window - y.window || (x.start < y.start ? -1 : x.start > y.start ? 1 : 0) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const traces: CandidateTrace[] = [];
  const sameWindow = (a: (typeof read)[number] | undefined, b: (typeof read)[number]) => a !== undefined && b.run !== null && a.run === b.run && a.window === b.window;
  for (let i = 0; i < read.length; i++) {
    const t = read[i]!;
    const trace: CandidateTrace = { no: rows.trace(t.id), id: t.id, texts: t.texts };
    if (sameWindow(read[i - 1], t)) trace.window = traces[i - 1]!.window!;
    else if (sameWindow(read[i + 1], t)) trace.window = trace.no;
    traces.push(trace);
  }
  return traces;
}

/** Runs in DuckDB's order: none first, then by id (code units; only which traces share a run matters). */
function compareRuns(x: string | null, y: string | null): number {
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  return x < y ? -1 : 1;
}

/** A span's fields as the JSON text the classifier reads (`SpanJson`): each one SQL giving its JSON. */
interface SpanJsonFields {
  id: string;
  parent: string;
  name: string;
  /** Start and end, ns, as SQL integers. */
  start: string;
  end: string;
  scope: string;
  keys: string;
  values: string;
  arrays: readonly string[];
  events: string;
}

function spanJson(f: SpanJsonFields): string {
  return `concat('{"s":', ${f.id}, ',"p":', ${f.parent}, ',"n":', ${f.name},
    ',"b":"', toString(${f.start}), '","e":"', toString(${f.end}),
    '","c":', ${f.scope}, ',"f":null,"k":', ${f.keys}, ',"v":', ${f.values},
    ',"a":[', ${f.arrays.length ? f.arrays.join(", ',', ") : "''"}, '],"x":', ${f.events}, '}')`;
}

/** A list of events (`Array(Tuple(name, attributes map))` in SQL) as the classifier's `{n, k, v}` objects. */
const eventObjects = (events: string) =>
  `arrayMap(e -> CAST((e.1, mapKeys(e.2), mapValues(e.2)), 'Tuple(n String, k Array(String), v Array(String))'), ${events})`;

/** GenAI log records (the `events` of {@link LOG_RECORD_SPANS}) as (name, attributes) pairs. */
const recordedEvents = (events: string) => `arrayMap(r -> (r.name, r.attributes), ${events})`;

const json = (v: string) => `toJSONString(${v})`;
const nullable = (v: string) => `ifNull(toJSONString(${v}), 'null')`;

/**
 * A candidate span as the JSON text the classifier reads (`SpanJson`, as DuckDB's `spanJsonSql`
 * writes it), written by ClickHouse: the span crosses into JavaScript as one string, not as a row
 * of attribute arrays to decode and encode again. The exporter keeps array attributes as their
 * JSON text: those the evidence reads become their elements' text (strings unquoted), or null
 * when the value is not a JSON array. Every event attribute is text there (DuckDB passes string
 * values only); so is every span attribute, so no argument is held as another type (`nonText`):
 * an int or array the application recorded as a call's arguments arrives as its text. The span's GenAI log records (`log_events`, joined when the run has some) follow
 * its own events, as in DuckDB.
 */
function spanJsonSql(src: TraceSource): string {
  const arrays = EVIDENCE_ARRAY_KEYS.map((key) => {
    const v = `SpanAttributes[${chString(key)}]`;
    return `if(mapContains(SpanAttributes, ${chString(key)}) AND startsWith(${v}, '[') AND isValidJSON(${v}) AND JSONType(${v}) = 'Array',
      toJSONString(arrayMap(x -> if(JSONType(x) = 'String', JSONExtractString(x), x), JSONExtractArrayRaw(${v}))), 'null')`;
  });
  // The events the evidence reads (messages, Claude Code's tool output); a span without any writes null.
  const own = `arrayFilter(e -> has(${EVIDENCE_EVENTS}, e.1), arrayZip(Events.Name, Events.Attributes))`;
  const events = src.logRecords
    ? `if(hasAny(Events.Name, ${EVIDENCE_EVENTS}) OR notEmpty(log_events), toJSONString(arrayConcat(${eventObjects(own)}, ${eventObjects(recordedEvents('log_events'))})), 'null')`
    : `if(hasAny(Events.Name, ${EVIDENCE_EVENTS}), toJSONString(${eventObjects(own)}), 'null')`;
  return spanJson({
    id: json('SpanId'),
    parent: nullable("nullIf(ParentSpanId, '')"),
    name: json('SpanName'),
    start: 'toUnixTimestamp64Nano(Timestamp)',
    end: 'toUnixTimestamp64Nano(Timestamp) + toInt64(Duration)',
    scope: nullable(src.scopeName),
    keys: json('mapKeys(SpanAttributes)'),
    values: json('mapValues(SpanAttributes)'),
    arrays,
    events,
  });
}

/**
 * A span made from log records (a row of {@link SPANS_FROM_RECORDS}) as the classifier's JSON text, as DuckDB stages it: GenAI
 * records' span without attributes, its records its events; a coding agent's record, its event's name and the record's attributes.
 */
function spanFromRecordsJsonSql(): string {
  return spanJson({
    id: json('span_id'),
    parent: "'null'",
    name: json(`if(name = '', ${chString(LOG_RECORD_SPAN_NAME)}, name)`),
    start: 'start_ns',
    end: 'end_ns',
    scope: nullable('scope_name'),
    keys: json('mapKeys(attributes)'),
    values: json('mapValues(attributes)'),
    arrays: EVIDENCE_ARRAY_KEYS.map(() => "'null'"),
    events: `if(empty(events), 'null', toJSONString(${eventObjects(recordedEvents('events'))}))`,
  });
}
