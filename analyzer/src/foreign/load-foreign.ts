import { JSDuckDBValueConverter, type DuckDBAppender } from '@duckdb/node-api';
import { GenAiAttributes, INSTRUMENTATION_SCOPE } from '@argspan/conventions';
import type { ClassifyOptions, ValueHasher } from '@argspan/core';
import type { Db } from '../db.js';
import { sqlString } from '../load/duckdb-types.js';
import { classifyForeignTrace, type ForeignArgRow, type ForeignCallRow } from './classify-trace.js';
import { TOOL_SPAN_RECOGNIZERS } from './recognizers/index.js';
import type { ForeignSpan } from './types.js';

/**
 * Attribute keys that make a span worth reading for foreign calls: each emitter's tool-span
 * signature, and everything evidence is read from (messages, prompts, tool definitions, run inputs).
 */
export const SIGNATURE_KEYS: readonly string[] = [
  ...new Set([
    ...TOOL_SPAN_RECOGNIZERS.flatMap((r) => r.keys),
    GenAiAttributes.INPUT_MESSAGES,
    GenAiAttributes.OUTPUT_MESSAGES,
    GenAiAttributes.SYSTEM_INSTRUCTIONS,
    GenAiAttributes.TOOL_DEFINITIONS,
    'pydantic_ai.all_messages',
    'ai.prompt',
    'ai.prompt.messages',
    'ai.response.toolCalls',
  ]),
];
/** Families of flattened keys read as evidence (OpenInference messages and tool schemas). */
export const SIGNATURE_PREFIXES = ['llm.input_messages.', 'llm.output_messages.', 'llm.tools.'] as const;
/** Array-valued attributes evidence reads (the Vercel AI SDK's tools, one JSON string each). */
export const ARRAY_KEYS = ['ai.prompt.tools'] as const;

/**
 * Spans of other libraries holding a signature key, with their string attributes (parallel key and
 * value lists; non-string values are NULL) and the array attributes evidence reads, trace by trace.
 */
const FOREIGN_SPANS_SQL = `
SELECT trace_id, span_id, parent_span_id, "name", start_ns, end_ns, scope_name, attr_keys, attr_str,
  ${ARRAY_KEYS.map((k) => `arr_values(attr_arr[list_position(attr_keys, ${sqlString(k)})]) AS ${sqlIdent(k)}`).join(', ')}
FROM span_structs
WHERE (scope_name IS NULL OR scope_name <> ${sqlString(INSTRUMENTATION_SCOPE)})
  AND (list_has_any(attr_keys, [${SIGNATURE_KEYS.map(sqlString).join(', ')}])
    OR list_bool_or(list_transform(attr_keys, lambda k: ${SIGNATURE_PREFIXES.map((p) => `starts_with(k, ${sqlString(p)})`).join(' OR ')})))
ORDER BY trace_id, start_ns, span_id`;

function sqlIdent(key: string): string {
  return `"${key.replace(/[^A-Za-z0-9_]/g, '_')}"`;
}

/** What {@link loadForeignCalls} found. */
export interface ForeignLoadStats {
  /** Foreign tool calls found (tool-execution spans and unexecuted model proposals). */
  calls: number;
  /** Of those, calls in traces that hold no user text: their unasserted values are `no_evidence`. */
  noEvidenceCalls: number;
}

/**
 * Read other libraries' GenAI traces for tool calls, label every argument leaf, and append them to
 * `tool_calls` and `tool_args` (emitter, labels, keyed hashes and byte counts — never a value), so
 * the same rules run over them as over argspan's own spans; and list in `argument_blobs` every
 * attribute that holds (a copy of) a call's arguments. Runs after argspan's tables exist.
 */
export async function loadForeignCalls(db: Db, hasher: ValueHasher, policy: ClassifyOptions): Promise<ForeignLoadStats> {
  await db.run(`CREATE TEMP TABLE foreign_calls (trace_id VARCHAR, span_id VARCHAR, turn_span_id VARCHAR, tool VARCHAR, call_id VARCHAR,
    emitter VARCHAR, residency VARCHAR, args_count BIGINT, args_bytes BIGINT, call_source VARCHAR, no_evidence BOOLEAN, start_ns BIGINT);
  CREATE TEMP TABLE foreign_args (trace_id VARCHAR, span_id VARCHAR, call_span_id VARCHAR, "key" VARCHAR, leaf VARCHAR, provenance VARCHAR,
    residency VARCHAR, rule VARCHAR, value_hash VARCHAR, bytes BIGINT, denylisted BOOLEAN, tool VARCHAR, call_id VARCHAR, turn_span_id VARCHAR,
    emitter VARCHAR);
  CREATE TABLE argument_blobs (trace_id VARCHAR, span_id VARCHAR, attribute VARCHAR, call_span_id VARCHAR);`);
  const callsOut = await db.conn.createAppender('foreign_calls');
  const argsOut = await db.conn.createAppender('foreign_args');
  const blobsOut = await db.conn.createAppender('argument_blobs');
  const stats: ForeignLoadStats = { calls: 0, noEvidenceCalls: 0 };
  let trace: ForeignSpan[] = [];
  const flush = () => {
    if (trace.length === 0) return;
    const { calls, args, blobs } = classifyForeignTrace(trace, { hasher, policy });
    for (const c of calls) appendCall(callsOut, c, stats);
    for (const a of args) appendArg(argsOut, a);
    for (const b of blobs) {
      for (const v of [b.traceId, b.spanId, b.attribute, b.callSpanId]) appendText(blobsOut, v);
      blobsOut.endRow();
    }
    trace = [];
  };
  const result = await db.conn.stream(FOREIGN_SPANS_SQL);
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (const row of chunk.convertRows(JSDuckDBValueConverter)) {
      const span = foreignSpan(row);
      if (trace.length > 0 && trace[0]!.traceId !== span.traceId) flush();
      trace.push(span);
    }
  }
  flush();
  callsOut.closeSync();
  argsOut.closeSync();
  blobsOut.closeSync();
  await db.run(`
    INSERT INTO tool_calls BY NAME
      SELECT f.trace_id, f.span_id, f.turn_span_id, s."name", f.start_ns, s.end_ns, s.file_id, 'execute_tool' AS operation, f.tool, f.call_id,
        f.emitter, f.residency, f.args_count, f.args_bytes, f.call_source, f.no_evidence,
        false AS went_remote, false AS left_machine, false AS stopped_by_gate, true AS dispatched
      FROM foreign_calls f LEFT JOIN span_structs s ON s.trace_id = f.trace_id AND s.span_id = f.span_id;
    INSERT INTO tool_args BY NAME
      SELECT f.*, gate_hit_key(f.tool, f."key") AS gate_hit_key, s.file_id, false AS has_excerpt, true AS dispatched, false AS went_remote, false AS left_machine
      FROM foreign_args f LEFT JOIN span_structs s ON s.trace_id = f.trace_id AND s.span_id = f.span_id;
    DROP TABLE foreign_calls; DROP TABLE foreign_args;`);
  return stats;
}

function foreignSpan(row: readonly unknown[]): ForeignSpan {
  const [traceId, spanId, parentSpanId, name, startNs, endNs, scope, ks, vs, ...arrays] = row as [
    string, string, string | null, string, bigint | null, bigint | null, string | null, string[] | null, (string | null)[] | null, ...(string[] | null)[],
  ];
  const attrs = new Map<string, string | readonly string[]>();
  if (ks && vs) for (let i = 0; i < ks.length; i++) if (vs[i] !== null && vs[i] !== undefined) attrs.set(ks[i]!, vs[i]!);
  ARRAY_KEYS.forEach((k, i) => {
    const a = arrays[i];
    if (a) attrs.set(k, a);
  });
  return { traceId, spanId, parentSpanId, name, startNs: startNs ?? 0n, endNs: endNs ?? startNs ?? 0n, scope, attrs };
}

function appendCall(out: DuckDBAppender, c: ForeignCallRow, stats: ForeignLoadStats): void {
  stats.calls++;
  if (c.noEvidence) stats.noEvidenceCalls++;
  for (const v of [c.traceId, c.spanId, c.turnSpanId, c.tool, c.callId, c.emitter, c.residency]) appendText(out, v);
  out.appendBigInt(BigInt(c.argsCount));
  out.appendBigInt(BigInt(c.argsBytes));
  appendText(out, c.source);
  out.appendBoolean(c.noEvidence);
  out.appendBigInt(c.startNs);
  out.endRow();
}

function appendArg(out: DuckDBAppender, a: ForeignArgRow): void {
  for (const v of [a.traceId, a.spanId, a.spanId, a.key, a.leaf, a.provenance, a.residency, a.rule, a.valueHash]) appendText(out, v);
  out.appendBigInt(BigInt(a.bytes));
  out.appendBoolean(a.denylisted);
  for (const v of [a.tool, a.callId, a.turnSpanId, a.emitter]) appendText(out, v);
  out.endRow();
}

function appendText(out: DuckDBAppender, v: string | null): void {
  if (v === null) out.appendNull();
  else out.appendVarchar(v);
}
