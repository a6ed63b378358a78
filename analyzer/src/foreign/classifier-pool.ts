import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ClassifyOptions } from '@argspan/core';
import type { RowBatch } from './row-batch.js';
import type { CandidateTrace } from './trace-source.js';

/** What each worker is started with: the key values are hashed with, and the policy calls are judged by (plain data only). */
export interface WorkerSetup {
  hashKey: Uint8Array;
  policy: ClassifyOptions;
}

/** A batch of traces sent to a worker; `seq` orders the results. */
export interface BatchRequest {
  seq: number;
  traces: CandidateTrace[];
}

/** A worker's rows for the batch `seq`. */
export interface BatchResult {
  seq: number;
  rows: RowBatch;
}

/** Batches sent to a worker and not yet written, at most: enough to keep it busy, few enough to bound memory. */
const IN_FLIGHT_PER_WORKER = 2;
/**
 * A worker's young generation, MB: twice V8's default. A batch's rows and the traces being read
 * outlive the default's scavenges and were copied into the old generation; with this, 45% fewer
 * bytes are promoted and a third fewer scavenges run, for about 35 MB more per worker.
 */
const YOUNG_GENERATION_MB = 96;

/**
 * The worker's compiled file, beside this one. Under the test runner this module is the TypeScript
 * source, and the worker runs its compiled twin in dist/ (`npm test` builds first).
 */
const WORKER_FILE = ((here: string) => (here.endsWith('.ts') ? join(dirname(here), '..', '..', 'dist', 'foreign', 'classify-worker.js') : join(dirname(here), 'classify-worker.js')))(
  fileURLToPath(import.meta.url),
);

/**
 * Classifies batches of traces in worker threads (`classify-worker.ts`) and hands their rows to
 * `onRows` in the order the batches were submitted, whichever worker finished first, so the
 * tables come out the same as when classified in one thread. A worker that fails fails the load:
 * its error is reported by name only (a message may quote the data it was reading).
 */
export class ClassifierPool {
  private readonly workers: Worker[];
  private nextSeq = 0;
  private nextWritten = 0;
  private readonly finished = new Map<number, RowBatch>();
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private closing = false;

  constructor(
    count: number,
    setup: WorkerSetup,
    private readonly onRows: (rows: RowBatch) => void,
  ) {
    this.workers = Array.from({ length: count }, () => {
      const worker = new Worker(WORKER_FILE, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      worker.on('message', (result: BatchResult) => this.received(result));
      worker.on('error', (err: unknown) => this.fail(`failed (${err instanceof Error ? err.name : 'non-error thrown'})`));
      worker.on('exit', (code) => {
        if (!this.closing) this.fail(`exited with code ${code}`);
      });
      return worker;
    });
  }

  /** Send a batch to the next worker, first waiting while every worker has its share of batches unwritten. */
  async submit(traces: CandidateTrace[]): Promise<void> {
    await this.until(() => this.nextSeq - this.nextWritten < IN_FLIGHT_PER_WORKER * this.workers.length);
    const request: BatchRequest = { seq: this.nextSeq++, traces };
    this.workers[request.seq % this.workers.length]!.postMessage(request);
  }

  /** Wait until every batch submitted has been written. */
  async drain(): Promise<void> {
    await this.until(() => this.nextWritten === this.nextSeq);
  }

  /** Stop the workers. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private received(result: BatchResult): void {
    this.finished.set(result.seq, result.rows);
    try {
      for (let rows = this.finished.get(this.nextWritten); rows !== undefined; rows = this.finished.get(this.nextWritten)) {
        this.finished.delete(this.nextWritten++);
        this.onRows(rows);
      }
    } catch (err) {
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    }
    this.notify();
  }

  private fail(what: string): void {
    this.failure ??= new Error(`internal error: a foreign-call classifier thread ${what}`);
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async until(ready: () => boolean): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (ready()) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
