import type { DuckDBIntegerVector, DuckDBResult, DuckDBVarCharVector } from '@duckdb/node-api';
import type { Db } from '../db.js';
import { EVIDENCE_EVENT_NAMES } from './event-evidence.js';
import { EVIDENCE_ARRAY_KEYS } from './evidence.js';
import { TYPED_ARGUMENT_PREFIXES } from './recognizers/index.js';
import { spanJsonSql } from './span-json.js';
import { RUN_ID_KEYS } from './run-ids.js';
import { sqlString } from '../load/duckdb-types.js';

/**
 * One trace's candidate spans: its number (`foreign_traces.trace_no`), id and the spans' JSON texts
 * (see `span-json.ts`); and, for a trace that is one of several of a run (a conversation or session
 * recorded a trace per turn), `window`: the number of the first trace of its evidence window (see
 * {@link RUN_WINDOW_TRACES}). The traces of a window come one after another, in the order they
 * started, so each is classified with what the earlier ones told.
 */
export interface CandidateTrace {
  no: number;
  id: string;
  texts: string[];
  window?: number;
}

/**
 * A run's traces are read with one evidence at most this many at a time (its 1st to 32nd traces,
 * by start, its 33rd to 64th, …): each trace's calls are judged with what the earlier ones of its
 * window told. Bounds what a run that never ends (an app's one session id for all its users) costs
 * each lookup and holds in memory, and lets any thread classify any window.
 */
export const RUN_WINDOW_TRACES = 32;

/**
 * The run ids (see {@link RUN_ID_KEYS}) the spans of the candidate traces name — a string, or an
 * integer as its digits (`session.id = 42`, which the ClickHouse exporter writes as "42") — a row
 * per span that names one (`span_id` set), and a row per trace whose spans agree on one under some
 * key (`span_id` NULL), with `one_run`: whether they agree under every key they name one by. The
 * foreign tables name each call's run by them; the traces of a run are numbered together, but only
 * those of `one_run`: a trace whose spans name two conversations (or sessions) is read on its own,
 * its calls and words of no one run.
 */
const RUN_IDS_SQL = `
CREATE OR REPLACE TEMP TABLE foreign_run_ids AS
  WITH named AS (
    SELECT s.trace_id, s.span_id, k.rank, nullif(coalesce(s.attr_str[list_position(s.attr_keys, k."key")], s.attr_int[list_position(s.attr_keys, k."key")]), '') AS run_id
    FROM (SELECT trace_id, span_id, attr_keys, attr_str, attr_int FROM span_structs
        WHERE list_has_any(attr_keys, [${RUN_ID_KEYS.map(sqlString).join(', ')}]) AND trace_id IN (SELECT trace_id FROM foreign_candidate_traces)) s,
      (VALUES ${RUN_ID_KEYS.map((k, rank) => `(${rank}, ${sqlString(k)})`).join(', ')}) k(rank, "key")
    WHERE list_contains(s.attr_keys, k."key")
  )
  SELECT trace_id, span_id, arg_min(run_id, rank) AS run_id, NULL::BOOLEAN AS one_run FROM named WHERE run_id IS NOT NULL GROUP BY trace_id, span_id
  UNION ALL
  SELECT trace_id, NULL, arg_min(run_id, rank) FILTER (WHERE runs = 1), bool_and(runs = 1) FROM (
    SELECT trace_id, rank, any_value(run_id) AS run_id, count(DISTINCT run_id) AS runs FROM named WHERE run_id IS NOT NULL GROUP BY trace_id, rank)
  GROUP BY trace_id HAVING bool_or(runs = 1)`;

/**
 * Number the traces that hold candidate spans (`candidates`: an SQL condition on `span_structs`)
 * in the temporary table `foreign_traces` (trace_no, trace_id, spans: its candidate spans;
 * window_first, window_traces: the first trace number and the count of the traces of its evidence
 * window, when the trace is one of several of a run's window; a trace whose spans name two runs
 * under one key is in none), which the foreign tables name traces by, and the run ids of their spans in `foreign_run_ids`; the caller drops both when done. A
 * run's traces are numbered one after another, by the start of their first candidate span (then
 * id). Returns the candidate spans.
 */
export async function numberTraces(db: Db, candidates: string): Promise<number> {
  await db.run(`CREATE OR REPLACE TEMP TABLE foreign_candidate_traces AS
    SELECT trace_id, count(*)::INTEGER AS spans, min(start_ns) AS start_ns FROM span_structs WHERE ${candidates} GROUP BY trace_id`);
  try {
    await db.run(RUN_IDS_SQL);
    await db.run(`CREATE OR REPLACE TEMP TABLE foreign_traces AS
      SELECT trace_no, trace_id, spans,
        CASE WHEN run_id IS NOT NULL AND count(*) OVER w > 1 THEN min(trace_no) OVER w END AS window_first,
        CASE WHEN run_id IS NOT NULL AND count(*) OVER w > 1 THEN count(*) OVER w END::INTEGER AS window_traces
      FROM (
        SELECT (row_number() OVER (ORDER BY r.run_id NULLS FIRST, c.start_ns, c.trace_id) - 1)::INTEGER AS trace_no, c.trace_id, c.spans, r.run_id,
          (row_number() OVER (PARTITION BY r.run_id ORDER BY c.start_ns, c.trace_id) - 1) // ${RUN_WINDOW_TRACES} AS window_no
        FROM foreign_candidate_traces c LEFT JOIN foreign_run_ids r ON r.trace_id = c.trace_id AND r.span_id IS NULL AND r.one_run)
      WINDOW w AS (PARTITION BY run_id, window_no)`);
  } finally {
    await db.run('DROP TABLE IF EXISTS foreign_candidate_traces');
  }
  return Number((await db.one('SELECT coalesce(sum(spans), 0) AS n FROM foreign_traces')).n);
}

/**
 * The candidate spans of the traces {@link numberTraces} numbered, a whole trace at a time, and the
 * traces of an evidence window together, in their numbers' order.
 *
 * Spans are read in the table's own order, which keeps a trace's spans close together in the
 * files exporters write (they export spans as they end): a trace is handed on as soon as all of
 * its candidate spans (counted first) are in, and a window's traces when all of them are. Sorting
 * every span's attributes by trace instead cost more than classifying them, and spilled to disk
 * beyond the memory limit. When the spans held (of unfinished traces, and of finished traces of
 * unfinished windows) outgrow `maxHeldSpans` (traces spread across a file, or across files), those
 * traces, with every trace of their windows, are let go and read again at the end, sorted by trace
 * number: every trace is read whole, in bounded memory, whatever the order of the input.
 */
export async function* candidateTraces(db: Db, candidates: string, maxHeldSpans: number): AsyncGenerator<CandidateTrace> {
  const traceIds: string[] = [];
  const expected: number[] = [];
  /** Per trace: the first trace of its window and the window's traces, or -1 and 1 for a trace on its own. */
  const windowFirst: number[] = [];
  const windowTraces: number[] = [];
  for await (const chunk of chunks(await db.conn.stream('SELECT trace_id, spans, window_first, window_traces FROM foreign_traces ORDER BY trace_no'))) {
    const ids = chunk.getColumnVector(0) as DuckDBVarCharVector;
    const counts = chunk.getColumnVector(1) as DuckDBIntegerVector;
    const firsts = chunk.getColumnVector(2) as DuckDBIntegerVector;
    const sizes = chunk.getColumnVector(3) as DuckDBIntegerVector;
    for (let i = 0; i < chunk.rowCount; i++) {
      traceIds.push(ids.getItem(i)!);
      expected.push(counts.getItem(i)!);
      windowFirst.push(firsts.getItem(i) ?? -1);
      windowTraces.push(sizes.getItem(i) ?? 1);
    }
  }
  const trace = (no: number, texts: string[]): CandidateTrace => {
    const first = windowFirst[no]!;
    return first < 0 ? { no, id: traceIds[no]!, texts } : { no, id: traceIds[no]!, texts, window: first };
  };
  const held = new Map<number, string[]>();
  /** Finished traces of windows not yet finished, by the window's first trace. */
  const finishedOfWindow = new Map<number, CandidateTrace[]>();
  let heldSpans = 0;
  const leftOver: number[] = [];
  const isLeftOver = new Uint8Array(traceIds.length);
  const letGo = (no: number) => {
    const first = windowFirst[no]!;
    const [from, to] = first < 0 ? [no, no + 1] : [first, first + windowTraces[no]!];
    for (let t = from; t < to; t++) {
      if (isLeftOver[t]) continue;
      isLeftOver[t] = 1;
      leftOver.push(t);
    }
  };
  for await (const [nos, texts] of spans(db, candidates, '')) {
    for (let i = 0; i < nos.length; i++) {
      const no = nos[i]!;
      if (isLeftOver[no]) continue;
      let spansOf = held.get(no);
      if (!spansOf) held.set(no, (spansOf = []));
      spansOf.push(texts[i]!);
      heldSpans++;
      if (spansOf.length === expected[no]) {
        held.delete(no);
        const first = windowFirst[no]!;
        if (first < 0) {
          heldSpans -= spansOf.length;
          yield trace(no, spansOf);
          continue;
        }
        let finished = finishedOfWindow.get(first);
        if (!finished) finishedOfWindow.set(first, (finished = []));
        finished.push(trace(no, spansOf));
        if (finished.length === windowTraces[no]) {
          finishedOfWindow.delete(first);
          finished.sort((x, y) => x.no - y.no);
          for (const t of finished) {
            heldSpans -= t.texts.length;
            yield t;
          }
        }
      } else if (heldSpans > maxHeldSpans) {
        for (const t of held.keys()) letGo(t);
        for (const first of finishedOfWindow.keys()) letGo(first);
        held.clear();
        finishedOfWindow.clear();
        heldSpans = 0;
      }
    }
  }
  if (held.size > 0 || finishedOfWindow.size > 0) throw new Error(`internal error: ${held.size + finishedOfWindow.size} traces or windows ended short of their counted spans`);
  if (leftOver.length === 0) return;
  // Sorted by trace number: one trace is held at a time, a window's traces come one after another.
  leftOver.sort((x, y) => x - y);
  await db.run(`CREATE OR REPLACE TEMP TABLE foreign_left_over AS SELECT unnest([${leftOver.join(',')}]::INTEGER[]) AS trace_no`);
  try {
    let current: CandidateTrace | undefined;
    for await (const [nos, texts] of spans(db, candidates, 'AND t.trace_no IN (SELECT trace_no FROM foreign_left_over) ORDER BY t.trace_no')) {
      for (let i = 0; i < nos.length; i++) {
        const no = nos[i]!;
        if (current?.no !== no) {
          if (current) yield current;
          current = trace(no, []);
        }
        current.texts.push(texts[i]!);
      }
    }
    if (current) yield current;
  } finally {
    await db.run('DROP TABLE IF EXISTS foreign_left_over');
  }
}

/** The candidate spans as (trace numbers, JSON texts), a chunk at a time; `more` is added to the query. */
async function* spans(db: Db, candidates: string, more: string): AsyncGenerator<[number[], string[]]> {
  const result = await db.conn.stream(`SELECT t.trace_no, ${spanJsonSql(EVIDENCE_ARRAY_KEYS, EVIDENCE_EVENT_NAMES, TYPED_ARGUMENT_PREFIXES)}
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
