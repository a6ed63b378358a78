/**
 * secretlint 9.3.4's recommend preset in a worker thread, for the secret benchmark.
 *
 * lintSource runs exactly as shipped, profiler included, and the worker times each call itself,
 * so message passing is not charged to secretlint. What the worker keeps out of the measurement
 * is the profiler's bookkeeping between calls: secretlint marks every rule run with
 * `performance.mark`, and a PerformanceObserver callback appends each mark to a list it searches
 * linearly for every new mark, a list nothing ever empties. Tens of thousands of calls in one
 * process make that quadratic: in the main thread the callbacks pile up (the benchmark never
 * yields to the event loop) and the retained marks slow every garbage collection, the
 * detector's included; once the loop turns, the backlog takes hours. So after each call the
 * worker lets the callback run, outside the timing and before replying (nothing overlaps the
 * detector's timing), and then empties the profiler's lists and the performance timeline, as a
 * fresh secretlint process would have them.
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

/** One linted sample: the ranges secretlint reported and the milliseconds lintSource took. */
export interface LintResult {
  ranges: [number, number][];
  ms: number;
}

interface Request {
  id: number;
  text: string;
}

interface Reply extends LintResult {
  id: number;
}

/** A secretlint runner in a worker thread; `close()` terminates it. */
export interface SecretlintWorker {
  lint(text: string): Promise<LintResult>;
  close(): Promise<void>;
}

export function startSecretlintWorker(): SecretlintWorker {
  const worker = new Worker(new URL(import.meta.url));
  const pending = new Map<number, { resolve: (r: LintResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  let closed = false;
  const failAll = (e: Error): void => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (r: Reply) => {
    const p = pending.get(r.id);
    pending.delete(r.id);
    p?.resolve({ ranges: r.ranges, ms: r.ms });
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`secretlint worker exited with code ${code}`)));
  return {
    lint: (text) =>
      new Promise<LintResult>((resolve, reject) => {
        if (closed) return reject(new Error('the secretlint worker is closed'));
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, text } satisfies Request);
      }),
    close: async () => {
      closed = true;
      worker.removeAllListeners('exit');
      failAll(new Error('the secretlint worker is closed'));
      await worker.terminate();
    },
  };
}

async function serve(): Promise<void> {
  const core = (await import('@secretlint/core')) as unknown as {
    lintSource(o: { source: object; options: { config: object } }): Promise<{ messages: { range: [number, number] }[] }>;
  };
  const preset = (await import('@secretlint/secretlint-rule-preset-recommend')) as unknown as { creator: unknown };
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] };
  const { secretLintProfiler } = (await import('@secretlint/profiler')) as unknown as {
    secretLintProfiler: { entries: unknown[]; measures: unknown[]; executionPromises: unknown[] };
  };
  const { performance } = await import('node:perf_hooks');
  parentPort!.on('message', async ({ id, text }: Request) => {
    const start = process.hrtime.bigint();
    const r = await core.lintSource({
      source: { content: text, filePath: '/bench/sample.txt', ext: '.txt', contentType: 'text' },
      options: { config },
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    await new Promise((resolve) => setImmediate(resolve)); // the profiler's observer callback runs
    await Promise.all(secretLintProfiler.executionPromises);
    secretLintProfiler.entries.length = 0;
    secretLintProfiler.measures.length = 0;
    secretLintProfiler.executionPromises.length = 0;
    performance.clearMarks();
    performance.clearMeasures();
    parentPort!.postMessage({ id, ranges: r.messages.map((m) => m.range), ms } satisfies Reply);
  });
}

if (!isMainThread) await serve();
