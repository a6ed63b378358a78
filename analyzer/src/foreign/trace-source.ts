import type { DuckDBIntegerVector, DuckDBResult, DuckDBVarCharVector } from '@duckdb/node-api';
import type { Db } from '../db.js';
import { MESSAGE_EVENT_NAMES } from './event-evidence.js';
import { EVIDENCE_ARRAY_KEYS } from './evidence.js';
import { spanJsonSql } from './span-json.js';

/** One trace's candidate spans: its number (`foreign_traces.trace_no`), id and the spans' JSON texts (see `span-json.ts`). */
export interface CandidateTrace {
  no: number;
  id: string;
  texts: string[];
}

/**
 * Number the traces that hold candidate spans (`candidates`: an SQL condition on `span_structs`)
 * in the temporary table `foreign_traces` (trace_no, trace_id, spans: its candidate spans), which
 * the foreign tables name traces by; the caller drops it when done. Returns the candidate spans.
 */
export async function numberTraces(db: Db, candidates: string): Promise<number> {
  await db.run(`CREATE OR REPLACE TEMP TABLE foreign_traces AS
    SELECT (row_number() OVER () - 1)::INTEGER AS trace_no, trace_id, spans
    FROM (SELECT trace_id, count(*)::INTEGER AS spans FROM span_structs WHERE ${candidates} GROUP BY trace_id)`);
  return Number((await db.one('SELECT coalesce(sum(spans), 0) AS n FROM foreign_traces')).n);
}

/**
 * The candidate spans of the traces {@link numberTraces} numbered, a whole trace at a time.
 *
 * Spans are read in the table's own order, which keeps a trace's spans close together in the
 * files exporters write (they export spans as they end): a trace is handed on as soon as all of
 * its candidate spans (counted first) are in. Sorting every span's attributes by trace instead
 * cost more than classifying them, and spilled to disk beyond the memory limit. When the spans of
 * unfinished traces outgrow `maxHeldSpans` (traces spread across a file, or across files), those
 * traces are let go and read again at the end, sorted by trace: every trace is read whole, in
 * bounded memory, whatever the order of the input.
 */
export async function* candidateTraces(db: Db, candidates: string, maxHeldSpans: number): AsyncGenerator<CandidateTrace> {
  const traceIds: string[] = [];
  const expected: number[] = [];
  for await (const chunk of chunks(await db.conn.stream('SELECT trace_id, spans FROM foreign_traces ORDER BY trace_no'))) {
    const ids = chunk.getColumnVector(0) as DuckDBVarCharVector;
    const counts = chunk.getColumnVector(1) as DuckDBIntegerVector;
    for (let i = 0; i < chunk.rowCount; i++) {
      traceIds.push(ids.getItem(i)!);
      expected.push(counts.getItem(i)!);
    }
  }
  const held = new Map<number, string[]>();
  let heldSpans = 0;
  const leftOver: number[] = [];
  const isLeftOver = new Uint8Array(traceIds.length);
  for await (const [nos, texts] of spans(db, candidates, '')) {
    for (let i = 0; i < nos.length; i++) {
      const no = nos[i]!;
      if (isLeftOver[no]) continue;
      let trace = held.get(no);
      if (!trace) held.set(no, (trace = []));
      trace.push(texts[i]!);
      heldSpans++;
      if (trace.length === expected[no]) {
        held.delete(no);
        heldSpans -= trace.length;
        yield { no, id: traceIds[no]!, texts: trace };
      } else if (heldSpans > maxHeldSpans) {
        for (const t of held.keys()) {
          isLeftOver[t] = 1;
          leftOver.push(t);
        }
        held.clear();
        heldSpans = 0;
      }
    }
  }
  if (held.size > 0) throw new Error(`internal error: ${held.size} traces ended short of their counted spans`);
  if (leftOver.length === 0) return;
  // Sorted by trace: one trace is held at a time.
  await db.run(`CREATE OR REPLACE TEMP TABLE foreign_left_over AS SELECT unnest([${leftOver.join(',')}]::INTEGER[]) AS trace_no`);
  try {
    let trace: CandidateTrace | undefined;
    for await (const [nos, texts] of spans(db, candidates, 'AND t.trace_no IN (SELECT trace_no FROM foreign_left_over) ORDER BY t.trace_no')) {
      for (let i = 0; i < nos.length; i++) {
        const no = nos[i]!;
        if (trace?.no !== no) {
          if (trace) yield trace;
          trace = { no, id: traceIds[no]!, texts: [] };
        }
        trace.texts.push(texts[i]!);
      }
    }
    if (trace) yield trace;
  } finally {
    await db.run('DROP TABLE IF EXISTS foreign_left_over');
  }
}

/** The candidate spans as (trace numbers, JSON texts), a chunk at a time; `more` is added to the query. */
async function* spans(db: Db, candidates: string, more: string): AsyncGenerator<[number[], string[]]> {
  const result = await db.conn.stream(`SELECT t.trace_no, ${spanJsonSql(EVIDENCE_ARRAY_KEYS, MESSAGE_EVENT_NAMES)}
    FROM span_structs JOIN foreign_traces t USING (trace_id) WHERE ${candidates} ${more}`);
  for await (const chunk of chunks(result)) {
    const nos = chunk.getColumnVector(0) as DuckDBIntegerVector;
    const texts = chunk.getColumnVector(1) as DuckDBVarCharVector;
    const n: number[] = [];
    const t: string[] = [];
    for (let i = 0; i < chunk.rowCount; i++) {
      n.push(nos.getItem(i)!);
      t.push(texts.getItem(i)!);
    }
    yield [n, t];
  }
}

/** A result's chunks, the next one fetched while the current one is used. */
async function* chunks(result: DuckDBResult) {
  let next = result.fetchChunk();
  for (let chunk = await next; chunk && chunk.rowCount > 0; chunk = await next) {
    next = result.fetchChunk();
    yield chunk;
  }
}
