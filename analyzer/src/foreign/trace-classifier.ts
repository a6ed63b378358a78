import { availableParallelism } from 'node:os';
import { createValueHasher, type ClassifyOptions } from '@argspan/core';
import { classifyBatch } from './classify-batch.js';
import { ClassifierPool } from './classifier-pool.js';
import { ValueHashes, type RowBatch } from './row-batch.js';
import type { CandidateTrace } from './trace-source.js';

/** Spans per batch classified at once (in a worker thread or inline). */
const BATCH_SPANS = 2_000;
/** Below this many candidate spans, classifying inline is faster than starting worker threads. */
const MIN_THREADED_SPANS = 20_000;
/** Worker threads at most: each holds about 60 MB, and beyond four the main thread (reading spans, writing rows) is the limit. */
const MAX_CLASSIFIER_THREADS = 4;

/** How a {@link TraceClassifier} classifies. */
export interface TraceClassifierOptions {
  /** The key argument values are hashed with. */
  hashKey: Uint8Array;
  /** The policy calls are judged by. */
  policy: ClassifyOptions;
  /** Candidate spans expected in all (decides whether worker threads are worth starting). */
  candidateSpans: number;
  /** Threads that may classify (one classifies inline, in this thread). @default os.availableParallelism() */
  threads?: number;
  /** Fewer candidate spans than this are classified inline whatever `threads` says. @default 20000 */
  minThreadedSpans?: number;
  /** Spans per batch (tests make many small batches, ending inside runs). @default 2000 */
  batchSpans?: number;
}

/**
 * Classifies the foreign calls of candidate traces as they are added, a batch at a time: in worker
 * threads when there are enough spans and the policy is plain data (a custom detector or dirty set
 * cannot cross threads), else inline. Each batch's rows go to `onRows` in the order the traces were
 * added, whichever thread classified them, so both ways give the same rows. Both engines use it.
 */
export class TraceClassifier {
  private batch: CandidateTrace[] = [];
  private spans = 0;
  /** The evidence window of the last trace added (see `CandidateTrace`): a batch ends between windows. */
  private lastWindow: number | undefined;

  private constructor(
    private readonly classify: { inline: ValueHashes; policy: ClassifyOptions } | ClassifierPool,
    private readonly onRows: (rows: RowBatch) => void,
    private readonly batchSpans: number,
  ) {}

  static start(options: TraceClassifierOptions, onRows: (rows: RowBatch) => void): TraceClassifier {
    const threads = classifierThreads(options);
    const classify =
      threads === 0
        ? { inline: new ValueHashes(createValueHasher(options.hashKey)), policy: options.policy }
        : new ClassifierPool(threads, { hashKey: options.hashKey, policy: options.policy }, onRows);
    return new TraceClassifier(classify, onRows, options.batchSpans ?? BATCH_SPANS);
  }

  /** Whether batches are classified in worker threads, whose heaps are memory outside DuckDB's. */
  get threaded(): boolean {
    return this.classify instanceof ClassifierPool;
  }

  /**
   * Add a trace (all its candidate spans; a run's traces one after another, in order); a full batch
   * is classified, or sent to a worker, waiting while the workers are busy. A batch holds the whole
   * of each evidence window it has (a run's turns read together: at most 32 traces), so any
   * thread may classify it.
   */
  async add(trace: CandidateTrace): Promise<void> {
    const window = trace.window;
    if (this.spans >= this.batchSpans && (window === undefined || window !== this.lastWindow)) await this.send();
    this.batch.push(trace);
    this.spans += trace.texts.length;
    this.lastWindow = window;
  }

  /** Classify what is still batched and wait until every trace added so far has its rows written. */
  async flush(): Promise<void> {
    if (this.batch.length > 0) await this.send();
    if (this.classify instanceof ClassifierPool) await this.classify.drain();
  }

  /** Stop the worker threads, if any. */
  async close(): Promise<void> {
    if (this.classify instanceof ClassifierPool) await this.classify.close();
  }

  private async send(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.spans = 0;
    if (this.classify instanceof ClassifierPool) await this.classify.submit(batch);
    else this.onRows(classifyBatch(batch, this.classify.policy, this.classify.inline));
  }
}

/** Worker threads to classify with: none (inline) for few spans, one thread, or a policy that is not plain data. */
function classifierThreads(options: TraceClassifierOptions): number {
  const threads = Math.min(options.threads ?? availableParallelism(), MAX_CLASSIFIER_THREADS);
  const { policy } = options;
  const plain = policy.detector === undefined && policy.dirty === undefined && policy.committed === undefined;
  return threads >= 2 && plain && options.candidateSpans >= (options.minThreadedSpans ?? MIN_THREADED_SPANS) ? threads : 0;
}
