import type { ClassifyOptions } from '@argspan/core';
import { classifyForeignTrace } from './classify-trace.js';
import { EVENT_OUTPUT_KEYS } from './event-evidence.js';
import { EVIDENCE_ARRAY_KEYS, OUTPUT_KEYS, RunEvidence } from './evidence.js';
import { RowBatchBuilder, type RowBatch, type ValueHashes } from './row-batch.js';
import { ARGUMENT_KEYS } from './recognizers/index.js';
import { parseTraceSpans } from './span-json.js';
import type { CandidateTrace } from './trace-source.js';

/** The span attributes read as held as another type than text, where that is a call not read: arguments and model outputs. */
const NON_TEXT_KEYS: ReadonlySet<string> = new Set([...ARGUMENT_KEYS, ...OUTPUT_KEYS]);

/**
 * Classify the foreign calls of a batch of traces (read from their span texts) into rows, hashing
 * values with `values`; the traces of an evidence window (whole in the batch, one after another, in
 * order) with the evidence of the ones before them.
 */
export function classifyBatch(traces: readonly CandidateTrace[], policy: ClassifyOptions, values: ValueHashes): RowBatch {
  const rows = new RowBatchBuilder(values);
  let window: number | undefined;
  let evidence: RunEvidence | undefined;
  for (const trace of traces) {
    if (trace.window === undefined) evidence = undefined;
    else if (trace.window !== window || evidence === undefined || evidence.full) evidence = new RunEvidence();
    window = trace.window;
    classifyForeignTrace(parseTraceSpans(trace.id, trace.texts, EVIDENCE_ARRAY_KEYS, NON_TEXT_KEYS, EVENT_OUTPUT_KEYS), { policy }, rows.sink(trace.no), evidence);
  }
  return rows.build();
}
