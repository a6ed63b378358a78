import type { ClassifyOptions } from '@argspan/core';
import { classifyForeignTrace } from './classify-trace.js';
import { EVIDENCE_ARRAY_KEYS } from './evidence.js';
import { RowBatchBuilder, type RowBatch, type ValueHashes } from './row-batch.js';
import { parseTraceSpans } from './span-json.js';
import type { CandidateTrace } from './trace-source.js';

/** Classify the foreign calls of a batch of traces (read from their span texts) into rows, hashing values with `values`. */
export function classifyBatch(traces: readonly CandidateTrace[], policy: ClassifyOptions, values: ValueHashes): RowBatch {
  const rows = new RowBatchBuilder(values);
  for (const trace of traces) classifyForeignTrace(parseTraceSpans(trace.id, trace.texts, EVIDENCE_ARRAY_KEYS), { policy }, rows.sink(trace.no));
  return rows.build();
}
