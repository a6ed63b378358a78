import { INSTRUMENTATION_SCOPE } from '@argspan/conventions';
import type { ClassifyOptions } from '@argspan/core';
import { EVIDENCE_ARRAY_KEYS, EVIDENCE_PREFIXES } from '../foreign/evidence.js';
import { CANDIDATE_KEYS, CANDIDATE_SPAN_NAMES, type ForeignLoadStats } from '../foreign/load-foreign.js';
import { MESSAGE_EVENT_NAMES } from '../foreign/event-evidence.js';
import { TraceClassifier, type TraceClassifierOptions } from '../foreign/trace-classifier.js';
import type { CandidateTrace } from '../foreign/trace-source.js';
import type { ChSession } from './client.js';
import { ForeignRowsClickHouse, runIdSteps } from './foreign-rows.js';
import { chString } from './sql.js';
import type { TraceSource } from './source.js';

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

/** How the calls are classified (threads) and read (tests set the spans per pass to make several). */
type ForeignLoadOptions = Pick<TraceClassifierOptions, 'threads' | 'minThreadedSpans'> & { spansPerBucket?: number };

/** The names of the span events that record messages, as a ClickHouse array. */
const MESSAGE_EVENTS = `[${MESSAGE_EVENT_NAMES.map(chString).join(', ')}]`;

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
  const keys = `[${CANDIDATE_KEYS.map(chString).join(', ')}]`;
  const prefixes = EVIDENCE_PREFIXES.map((p) => `startsWith(k, ${chString(p)})`).join(' OR ');
  const candidates = `${src.where} AND (${src.scopeName} IS NULL OR ${src.scopeName} <> ${chString(INSTRUMENTATION_SCOPE)})
      AND (hasAny(mapKeys(SpanAttributes), ${keys}) OR SpanName IN (${CANDIDATE_SPAN_NAMES.map(chString).join(', ')}) OR arrayExists(k -> ${prefixes}, mapKeys(SpanAttributes)) OR hasAny(Events.Name, ${MESSAGE_EVENTS}))`;
  const [count] = await session.all(`SELECT count() AS n FROM ${src.table} WHERE ${candidates}`, 'counting other libraries\' spans');
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
    for (const sql of runIdSteps(src, candidates)) await session.run(sql, 'reading the runs of other libraries\' calls');
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
 * The candidate spans of the traces in `bucket` (of `buckets`: by a hash of the trace's evidence
 * window, so a window's traces are read together, else of its id), a trace at a time: each line of
 * the result is a trace, its id, its run id (as JSON; empty for none) and window, its first
 * candidate span's start and its spans' JSON texts, tab separated (JSON text holds no raw tab or
 * newline). Grouped, not sorted: the classifier orders a trace's spans itself, and sorting the
 * texts cost more than writing them. The traces are ordered and numbered (by `rows`) here as
 * DuckDB's `numberTraces` does: a window's traces one after another, by start, then id.
 */
async function readBucket(session: ChSession, src: TraceSource, candidates: string, buckets: number, bucket: number, rows: ForeignRowsClickHouse): Promise<CandidateTrace[]> {
  const inBucket =
    buckets > 1
      ? `(TraceId GLOBAL IN (SELECT trace_id FROM foreign_trace_windows WHERE cityHash64(run_id, window_no) % ${buckets} = ${bucket})
        OR (cityHash64(TraceId) % ${buckets} = ${bucket} AND TraceId GLOBAL NOT IN (SELECT trace_id FROM foreign_trace_windows)))`
      : '1';
  const read: { id: string; run: string | null; window: number; start: bigint; texts: string[] }[] = [];
  await session.eachLine(
    `SELECT toJSONString(TraceId), if(isNull(any(w.run_id)), '', toJSONString(assumeNotNull(any(w.run_id)))), toString(any(w.window_no)), toString(min(start)),
      arrayStringConcat(groupArray(span), '\\t')
    FROM (
      SELECT TraceId, toUnixTimestamp64Nano(Timestamp) AS start, ${spanJsonSql(src)} AS span
      FROM ${src.table}
      WHERE ${candidates} AND ${inBucket}
      LIMIT 1 BY TraceId, SpanId) s
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

/**
 * A candidate span as the JSON text the classifier reads (`SpanJson`, as DuckDB's `spanJsonSql`
 * writes it), written by ClickHouse: the span crosses into JavaScript as one string, not as a row
 * of attribute arrays to decode and encode again. The exporter keeps array attributes as their
 * JSON text: those the evidence reads become their elements' text (strings unquoted), or null
 * when the value is not a JSON array. Every event attribute is text there (DuckDB passes string values only).
 */
function spanJsonSql(src: TraceSource): string {
  const arrays = EVIDENCE_ARRAY_KEYS.map((key) => {
    const v = `SpanAttributes[${chString(key)}]`;
    return `if(mapContains(SpanAttributes, ${chString(key)}) AND startsWith(${v}, '[') AND isValidJSON(${v}) AND JSONType(${v}) = 'Array',
      toJSONString(arrayMap(x -> if(JSONType(x) = 'String', JSONExtractString(x), x), JSONExtractArrayRaw(${v}))), 'null')`;
  });
  // The events that record messages, as {n, k, v} objects (DuckDB's struct); a span without any writes null.
  const events = `if(hasAny(Events.Name, ${MESSAGE_EVENTS}), toJSONString(arrayMap(e -> CAST((e.1, mapKeys(e.2), mapValues(e.2)), 'Tuple(n String, k Array(String), v Array(String))'),
      arrayFilter(e -> has(${MESSAGE_EVENTS}, e.1), arrayZip(Events.Name, Events.Attributes)))), 'null')`;
  const json = (v: string) => `toJSONString(${v})`;
  const nullable = (v: string) => `ifNull(toJSONString(${v}), 'null')`;
  return `concat('{"s":', ${json('SpanId')}, ',"p":', ${nullable("nullIf(ParentSpanId, '')")}, ',"n":', ${json('SpanName')},
    ',"b":"', toString(toUnixTimestamp64Nano(Timestamp)), '","e":"', toString(toUnixTimestamp64Nano(Timestamp) + toInt64(Duration)),
    '","c":', ${nullable(src.scopeName)}, ',"f":null,"k":', ${json('mapKeys(SpanAttributes)')}, ',"v":', ${json('mapValues(SpanAttributes)')},
    ',"a":[', ${arrays.length ? arrays.join(", ',', ") : "''"}, '],"x":', ${events}, '}')`;
}
