import { INSTRUMENTATION_SCOPE } from '@argspan/conventions';
import { availableParallelism } from 'node:os';
import { createValueHasher, type ClassifyOptions } from '@argspan/core';
import type { Db } from '../db.js';
import { sqlString } from '../load/duckdb-types.js';
import { phase, type PhaseListener } from '../phases.js';
import { classifyBatch } from './classify-batch.js';
import { ClassifierPool } from './classifier-pool.js';
import { EVIDENCE_KEYS, EVIDENCE_PREFIXES } from './evidence.js';
import { TOOL_SPAN_RECOGNIZERS } from './recognizers/index.js';
import { ValueHashes } from './row-batch.js';
import { ForeignRowTables } from './row-tables.js';
import { candidateTraces, numberTraces, type CandidateTrace } from './trace-source.js';

/** Attribute keys that make a span worth reading for foreign calls: an emitter's tool-span signature, or evidence. */
export const CANDIDATE_KEYS: readonly string[] = [...new Set([...TOOL_SPAN_RECOGNIZERS.flatMap((r) => r.keys), ...EVIDENCE_KEYS])];

/**
 * Spans worth reading for foreign calls: not argspan's own, and holding a key of an emitter's
 * tool-span signature or one evidence is read from (the ClickHouse engine selects the same).
 */
const CANDIDATE_SQL = `(scope_name IS NULL OR scope_name <> ${sqlString(INSTRUMENTATION_SCOPE)})
  AND (list_has_any(attr_keys, [${CANDIDATE_KEYS.map(sqlString).join(', ')}])
    OR list_bool_or(list_transform(attr_keys, lambda k: ${EVIDENCE_PREFIXES.map((p) => `starts_with(k, ${sqlString(p)})`).join(' OR ')})))`;

/** What {@link loadForeignCalls} found. */
export interface ForeignLoadStats {
  /** Foreign tool calls found (tool-execution spans and unexecuted model proposals). */
  calls: number;
  /** Of those, calls in traces that hold no user text: their unasserted values are `no_evidence`. */
  noEvidenceCalls: number;
}

/** Spans of unfinished traces held at most while reading in file order (see `candidateTraces`). */
const MAX_HELD_SPANS = 50_000;
/** Spans per batch classified at once (in a worker thread or inline). */
const BATCH_SPANS = 2_000;
/** Below this many candidate spans, classifying inline is faster than starting worker threads. */
const MIN_THREADED_SPANS = 20_000;
/** Worker threads at most: each holds about 60 MB, and beyond four the main thread (reading spans, writing rows) is the limit. */
const MAX_CLASSIFIER_THREADS = 4;

/** How {@link loadForeignCalls} reads and classifies. */
export interface ForeignLoadOptions {
  onPhase?: PhaseListener;
  /** Spans of unfinished traces held at most while reading in file order. @default 50000 */
  maxHeldSpans?: number;
  /** Threads that may classify (one classifies inline, in this thread). @default os.availableParallelism() */
  threads?: number;
  /** Fewer candidate spans than this are classified inline whatever `threads` says. @default 20000 */
  minThreadedSpans?: number;
}

/**
 * Read other libraries' GenAI traces for tool calls, label every argument leaf, and add them to
 * `tool_calls` and `tool_args` (emitter, labels, keyed hashes and byte counts — never a value), so
 * the same rules run over them as over argspan's own spans; and list in `argument_blobs` every
 * attribute that holds (a copy of) a call's arguments. Runs after argspan's tables exist.
 *
 * Traces are classified a batch at a time, in worker threads when there are enough of them and
 * the policy is plain data (a custom detector or dirty set cannot cross threads), while this
 * thread reads the spans and writes the rows; the tables are the same either way.
 */
export async function loadForeignCalls(db: Db, hashKey: Uint8Array, policy: ClassifyOptions, options: ForeignLoadOptions = {}): Promise<ForeignLoadStats> {
  const tables = await ForeignRowTables.open(db);
  try {
    const candidates = await phase(options.onPhase, 'foreign calls: candidate traces', () => numberTraces(db, CANDIDATE_SQL));
    if (candidates > 0) {
      const threads = classifierThreads(candidates, policy, options);
      const traces = candidateTraces(db, CANDIDATE_SQL, options.maxHeldSpans ?? MAX_HELD_SPANS);
      await phase(options.onPhase, 'foreign calls: read and classify', async () => {
        if (threads === 0) {
          const values = new ValueHashes(createValueHasher(hashKey));
          for await (const batch of batches(traces)) tables.append(classifyBatch(batch, policy, values));
          return;
        }
        const pool = new ClassifierPool(threads, { hashKey, policy }, (rows) => tables.append(rows));
        try {
          for await (const batch of batches(traces)) await pool.submit(batch);
          await pool.drain();
        } finally {
          await pool.close();
        }
      });
    }
    await phase(options.onPhase, 'foreign calls: tables', () => tables.finish());
    return tables.stats;
  } finally {
    tables.close();
    await db.run('DROP TABLE IF EXISTS foreign_traces');
  }
}

/** Worker threads to classify with: none (inline) for few spans, one thread, or a policy that is not plain data. */
function classifierThreads(candidateSpans: number, policy: ClassifyOptions, options: ForeignLoadOptions): number {
  const threads = Math.min(options.threads ?? availableParallelism(), MAX_CLASSIFIER_THREADS);
  const plain = policy.detector === undefined && policy.dirty === undefined && policy.committed === undefined;
  return threads >= 2 && plain && candidateSpans >= (options.minThreadedSpans ?? MIN_THREADED_SPANS) ? threads : 0;
}

/** Traces gathered into batches of about {@link BATCH_SPANS} spans. */
async function* batches(traces: AsyncIterable<CandidateTrace>): AsyncGenerator<CandidateTrace[]> {
  let batch: CandidateTrace[] = [];
  let spans = 0;
  for await (const trace of traces) {
    batch.push(trace);
    spans += trace.texts.length;
    if (spans >= BATCH_SPANS) {
      yield batch;
      batch = [];
      spans = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
