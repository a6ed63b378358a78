import { INSTRUMENTATION_SCOPE, gateHitKey } from '@argspan/conventions';
import type { ClassifyOptions, ValueHasher } from '@argspan/core';
import { classifyForeignTrace, type ForeignRowSink } from '../foreign/classify-trace.js';
import { EVIDENCE_ARRAY_KEYS, EVIDENCE_PREFIXES } from '../foreign/evidence.js';
import { CANDIDATE_KEYS, type ForeignLoadStats } from '../foreign/load-foreign.js';
import type { ForeignSpan } from '../foreign/types.js';
import type { ChRow, ChSession } from './client.js';
import { chString } from './sql.js';
import type { TraceSource } from './source.js';

/** Candidate spans read per pass: their labelled rows are held in memory until the pass is written. */
const SPANS_PER_BUCKET = 200_000;

/**
 * Other libraries' tool calls, as DuckDB's `loadForeignCalls` reads them: the labelling is
 * JavaScript (`@argspan/core`'s classifier over the recorded argument blobs, with the prompts,
 * results and schemas of the trace as evidence), so ClickHouse selects only the candidate spans —
 * those holding an emitter's signature key or evidence — with their attribute maps, sorted by
 * trace, and the calls, argument leaves (labels, keyed hashes, byte counts: never a value) and
 * blob locations are written back to `tool_calls`, `tool_args` and `argument_blobs` for the rules.
 * The exporter keeps every attribute as text: an array attribute the evidence reads
 * (`ai.prompt.tools`) is read back from the exporter's JSON.
 */
export async function loadForeignCallsClickHouse(session: ChSession, src: TraceSource, hasher: ValueHasher, policy: ClassifyOptions): Promise<ForeignLoadStats> {
  const stats: ForeignLoadStats = { calls: 0, noEvidenceCalls: 0 };
  const out = { tool_calls: [] as ChRow[], tool_args: [] as ChRow[], argument_blobs: [] as ChRow[] };
  let trace: ForeignSpan[] = [];
  let traceId = '';
  let calls: { tool: string; callId: string | null; turnSpanId: string | null; emitter: string; spanId: string }[] = [];
  const sink: ForeignRowSink = {
    call(c) {
      stats.calls++;
      if (c.noEvidence) stats.noEvidenceCalls++;
      out.tool_calls.push({
        trace_id: traceId, span_id: c.spanId, turn_span_id: c.turnSpanId, name: c.name, start_ns: String(c.startNs),
        end_ns: c.endNs === null ? null : String(c.endNs), operation: 'execute_tool', tool: c.tool, call_id: c.callId, emitter: c.emitter,
        residency: c.residency, args_count: String(c.argsCount), args_bytes: String(c.argsBytes), call_source: c.source,
        no_evidence: c.noEvidence, went_remote: false, left_machine: false, stopped_by_gate: false, dispatched: true,
      });
      calls.push({ tool: c.tool, callId: c.callId, turnSpanId: c.turnSpanId, emitter: c.emitter, spanId: c.spanId });
      return calls.length - 1;
    },
    arg(callNo, a, text) {
      const c = calls[callNo]!;
      out.tool_args.push({
        trace_id: traceId, span_id: c.spanId, call_span_id: c.spanId, key: a.key, leaf: a.leaf, provenance: a.provenance,
        residency: a.residency, rule: a.rule, value_hash: hasher.hash(text), bytes: String(a.bytes), denylisted: a.denylisted, tool: c.tool,
        call_id: c.callId, turn_span_id: c.turnSpanId, emitter: c.emitter, gate_hit_key: gateHitKey(c.tool, a.key),
        has_excerpt: false, dispatched: true, went_remote: false, left_machine: false,
      });
    },
    blob(b) {
      out.argument_blobs.push({ trace_id: traceId, span_id: b.spanId, attribute: b.attribute, call_span_id: b.callSpanId });
    },
  };
  const classify = () => {
    if (trace.length === 0) return;
    traceId = trace[0]!.traceId;
    calls = [];
    classifyForeignTrace(trace, { policy }, sink);
    trace = [];
  };
  const keys = `[${CANDIDATE_KEYS.map(chString).join(', ')}]`;
  const prefixes = EVIDENCE_PREFIXES.map((p) => `startsWith(k, ${chString(p)})`).join(' OR ');
  const candidates = `${src.where} AND (${src.scopeName} IS NULL OR ${src.scopeName} <> ${chString(INSTRUMENTATION_SCOPE)})
      AND (hasAny(mapKeys(SpanAttributes), ${keys}) OR arrayExists(k -> ${prefixes}, mapKeys(SpanAttributes)))`;
  // A session runs one query at a time, so the labelled rows are written after each read: the
  // traces are read in buckets (by a hash of the trace id) small enough to hold their rows.
  const [count] = await session.all(`SELECT count() AS n FROM ${src.table} WHERE ${candidates}`, 'counting other libraries\' spans');
  const buckets = Math.max(1, Math.ceil(Number(count?.n ?? 0) / SPANS_PER_BUCKET));
  for (let bucket = 0; bucket < buckets; bucket++) {
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
        const span = foreignSpan(row);
        if (trace.length > 0 && trace[0]!.traceId !== span.traceId) classify();
        trace.push(span);
      },
    );
    classify();
    for (const [table, rows] of Object.entries(out)) await session.insert(table, rows.splice(0), 'writing other libraries\' tool calls');
  }
  return stats;
}

function foreignSpan(row: ChRow): ForeignSpan {
  const ks = row.ks as string[];
  const vs = row.vs as string[];
  const attrs = new Map<string, string | readonly string[]>();
  for (let i = 0; i < ks.length; i++) attrs.set(ks[i]!, vs[i]!);
  for (const k of EVIDENCE_ARRAY_KEYS) {
    const list = jsonStrings(attrs.get(k));
    if (list) attrs.set(k, list);
  }
  const startNs = BigInt(String(row.start_ns));
  return {
    traceId: String(row.trace_id),
    spanId: String(row.span_id),
    parentSpanId: row.parent_span_id === null ? null : String(row.parent_span_id),
    name: String(row.name),
    startNs,
    endNs: BigInt(String(row.end_ns)),
    recordedEndNs: BigInt(String(row.end_ns)),
    scope: row.scope === null ? null : String(row.scope),
    fileId: null,
    attrs,
  };
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
