import { INSTRUMENTATION_SCOPE } from '@argspan/conventions';
import type { ClassifyOptions } from '@argspan/core';
import { EVIDENCE_ARRAY_KEYS, EVIDENCE_PREFIXES } from '../foreign/evidence.js';
import { CANDIDATE_KEYS, type ForeignLoadStats } from '../foreign/load-foreign.js';
import { spanJsonText } from '../foreign/span-json.js';
import { TraceClassifier, type TraceClassifierOptions } from '../foreign/trace-classifier.js';
import type { CandidateTrace } from '../foreign/trace-source.js';
import type { ChRow, ChSession } from './client.js';
import { ForeignRowsClickHouse } from './foreign-rows.js';
import { chString } from './sql.js';
import type { TraceSource } from './source.js';

/** Candidate spans read per pass (their texts are held until the pass is classified). */
const SPANS_PER_BUCKET = 200_000;
const EMPTY_TRACE: CandidateTrace = { no: -1, id: '', texts: [] };

/**
 * Other libraries' tool calls, as DuckDB's `loadForeignCalls` reads them: the labelling is
 * JavaScript (`@argspan/core`'s classifier over the recorded argument blobs, with the prompts,
 * results and schemas of the trace as evidence, in worker threads when there are enough spans),
 * so ClickHouse selects only the candidate spans — those holding an emitter's signature key or
 * evidence — with their attribute maps, sorted by trace, and the calls, argument leaves (labels,
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
  options: Pick<TraceClassifierOptions, 'threads' | 'minThreadedSpans'> = {},
): Promise<ForeignLoadStats> {
  const keys = `[${CANDIDATE_KEYS.map(chString).join(', ')}]`;
  const prefixes = EVIDENCE_PREFIXES.map((p) => `startsWith(k, ${chString(p)})`).join(' OR ');
  const candidates = `${src.where} AND (${src.scopeName} IS NULL OR ${src.scopeName} <> ${chString(INSTRUMENTATION_SCOPE)})
      AND (hasAny(mapKeys(SpanAttributes), ${keys}) OR arrayExists(k -> ${prefixes}, mapKeys(SpanAttributes)))`;
  // The traces are read in buckets (by a hash of the trace id) small enough to hold their spans.
  const [count] = await session.all(`SELECT count() AS n FROM ${src.table} WHERE ${candidates}`, 'counting other libraries\' spans');
  const candidateSpans = Number(count?.n ?? 0);
  if (candidateSpans === 0) return { calls: 0, noEvidenceCalls: 0 };
  const rows = await ForeignRowsClickHouse.open(session);
  const classifier = TraceClassifier.start({ hashKey, policy, candidateSpans, ...options }, (batch) => rows.append(batch));
  try {
    const buckets = Math.max(1, Math.ceil(candidateSpans / SPANS_PER_BUCKET));
    for (let bucket = 0; bucket < buckets; bucket++) {
      const traces: CandidateTrace[] = [];
      // A session runs one query at a time: a bucket's spans are read whole, then classified, its
      // rows inserted as they come.
      await session.each(
        `SELECT TraceId AS trace_id, SpanId AS span_id, nullIf(ParentSpanId, '') AS parent_span_id, SpanName AS name,
          toString(toUnixTimestamp64Nano(Timestamp)) AS start_ns, toString(toUnixTimestamp64Nano(Timestamp) + toInt64(Duration)) AS end_ns,
          ${src.scopeName} AS scope, mapKeys(SpanAttributes) AS ks, mapValues(SpanAttributes) AS vs
        FROM ${src.table}
        WHERE ${candidates}${buckets > 1 ? ` AND cityHash64(TraceId) % ${buckets} = ${bucket}` : ''}
        ORDER BY trace_id, toUnixTimestamp64Nano(Timestamp), span_id
        LIMIT 1 BY TraceId, SpanId`,
        'reading other libraries\' spans',
        (row) => {
          const id = String(row.trace_id);
          let trace = traces[traces.length - 1];
          if (trace?.id !== id) traces.push((trace = { no: rows.trace(id), id, texts: [] }));
          trace.texts.push(spanJson(row));
        },
      );
      for (let i = 0; i < traces.length; i++) {
        await classifier.add(traces[i]!);
        traces[i] = EMPTY_TRACE; // its texts are the classifier's now
        await rows.insert();
      }
      await classifier.flush();
    }
    await rows.finish();
  } finally {
    await classifier.close();
    await rows.drop().catch(() => undefined);
  }
  return rows.stats;
}

/** A span row as the JSON text the classifier reads (`span-json.ts`). */
function spanJson(row: ChRow): string {
  const ks = row.ks as string[];
  const vs = row.vs as string[];
  const arrays = EVIDENCE_ARRAY_KEYS.map((k) => {
    const i = ks.indexOf(k);
    return (i < 0 ? undefined : jsonStrings(vs[i])) ?? null;
  });
  return spanJsonText({
    s: String(row.span_id),
    p: row.parent_span_id === null ? null : String(row.parent_span_id),
    n: String(row.name),
    b: String(row.start_ns),
    e: String(row.end_ns),
    c: row.scope === null ? null : String(row.scope),
    f: null,
    k: ks,
    v: vs,
    a: arrays,
  });
}

/** The exporter's JSON text of an array attribute, as its elements' text; undefined when it is not one. */
function jsonStrings(v: unknown): string[] | undefined {
  if (typeof v !== 'string' || !v.startsWith('[')) return undefined;
  try {
    const list: unknown = JSON.parse(v);
    return Array.isArray(list) ? list.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : undefined;
  } catch {
    return undefined;
  }
}
