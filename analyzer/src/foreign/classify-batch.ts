import type { ClassifyOptions } from '@argspan/core';
import { callsRanElsewhere, classifyForeignTrace } from './classify-trace.js';
import { EVENT_INPUT_KEYS, EVENT_OUTPUT_KEYS } from './event-evidence.js';
import { EVIDENCE_ARRAY_KEYS, INPUT_KEYS, isFlattenedInputText, OUTPUT_KEYS, RunEvidence } from './evidence.js';
import { RowBatchBuilder, type RowBatch, type ValueHashes } from './row-batch.js';
import { ARGUMENT_KEYS } from './recognizers/index.js';
import { AnthropicSdkAttributes } from './recognizers/genai-semconv.js';
import { parseTraceSpans } from './span-json.js';
import type { CandidateTrace } from './trace-source.js';

/**
 * The attributes read as held as another type than text: a span's arguments and model outputs (a
 * call not read), its inputs (what the model was told, not read), the flag of content its emitter
 * cut; an event's outputs and inputs.
 */
const NON_TEXT_KEYS = { keys: new Set([...ARGUMENT_KEYS, ...OUTPUT_KEYS, ...INPUT_KEYS, AnthropicSdkAttributes.CONTENT_TRUNCATED]), flattened: isFlattenedInputText };
const EVENT_NON_TEXT_KEYS: ReadonlySet<string> = new Set([...EVENT_OUTPUT_KEYS, ...EVENT_INPUT_KEYS]);

/**
 * Classify the foreign calls of a batch of traces (read from their span texts) into rows, hashing
 * values with `values`; the traces of an evidence window (whole in the batch, one after another, in
 * order) with the evidence of the ones before them.
 */
export function classifyBatch(traces: readonly CandidateTrace[], policy: ClassifyOptions, values: ValueHashes): RowBatch {
  const rows = new RowBatchBuilder(values);
  const spansOf = (trace: CandidateTrace) => parseTraceSpans(trace.id, trace.texts, EVIDENCE_ARRAY_KEYS, NON_TEXT_KEYS, EVENT_NON_TEXT_KEYS);
  for (let i = 0; i < traces.length; ) {
    const first = traces[i]!;
    if (first.window === undefined) {
      classifyForeignTrace(spansOf(first), { policy }, rows.sink(first.no), undefined);
      i++;
      continue;
    }
    // A window's traces, read together: a call may be proposed in one and run in another.
    let end = i + 1;
    while (end < traces.length && traces[end]!.window === first.window) end++;
    const spans = traces.slice(i, end).map(spansOf);
    const ranElsewhere = callsRanElsewhere(spans);
    let evidence = new RunEvidence();
    for (let k = 0; k < spans.length; k++) {
      if (evidence.full) evidence = new RunEvidence();
      classifyForeignTrace(spans[k]!, { policy }, rows.sink(traces[i + k]!.no), evidence, ranElsewhere[k]);
    }
    i = end;
  }
  return rows.build();
}
