import type { ClassifyOptions } from '@argspan/core';
import { classifyForeignTrace } from './classify-trace.js';
import { EVIDENCE_ARRAY_KEYS, RunEvidence } from './evidence.js';
import { RowBatchBuilder, type RowBatch, type ValueHashes } from './row-batch.js';
import { parseTraceSpans } from './span-json.js';
import type { CandidateTrace } from './trace-source.js';

/**
 * Traces of a run read with one evidence at most: the run's 1st to 32nd traces, its 33rd to 64th,
 * and so on (each trace's calls judged with what the earlier ones of its window told). Bounds what
 * a run that never ends (an app's one session id for all its users) costs each lookup, and keeps a
 * window in one batch, which any thread may classify.
 */
export const RUN_WINDOW_TRACES = 32;

/** The first trace number of `trace`'s evidence window, or undefined for a trace read on its own. */
export function evidenceWindow(trace: CandidateTrace): number | undefined {
  return trace.run === undefined ? undefined : trace.run + Math.floor((trace.no - trace.run) / RUN_WINDOW_TRACES) * RUN_WINDOW_TRACES;
}

/**
 * Classify the foreign calls of a batch of traces (read from their span texts) into rows, hashing
 * values with `values`; the traces of an evidence window (one after another, in order) with the
 * evidence of the ones before them.
 */
export function classifyBatch(traces: readonly CandidateTrace[], policy: ClassifyOptions, values: ValueHashes): RowBatch {
  const rows = new RowBatchBuilder(values);
  let window: number | undefined;
  let evidence: RunEvidence | undefined;
  for (const trace of traces) {
    const of = evidenceWindow(trace);
    if (of === undefined) evidence = undefined;
    else if (of !== window || evidence === undefined || evidence.full) evidence = new RunEvidence();
    window = of;
    classifyForeignTrace(parseTraceSpans(trace.id, trace.texts, EVIDENCE_ARRAY_KEYS), { policy }, rows.sink(trace.no), evidence);
  }
  return rows.build();
}
