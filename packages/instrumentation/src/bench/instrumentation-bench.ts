/**
 * `npm run bench:instrumentation` — per-call overhead of a 9-leaf tool call, all in one process:
 *   (a) bare dispatch,
 *   (b) a naive reference: tool span + one child span per leaf with an HMAC value hash, no classification,
 *   (c) argspan: classify + gate + tool span + one child span per leaf (keyed hash, links, attributes).
 * Overhead = time per call minus (a). Prints the ratio c/b. Then a 100k-call burst through the
 * counting batch processor with an exporter that encodes OTLP/JSON: spans/s sustained and drops.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ArgAttributes, GenAiAttributes, OPERATION_EXECUTE_TOOL, argumentSpanName, toolCallSpanName } from '@argspan/conventions';
import { classifyCall } from '@argspan/core';
import { CountingBatchSpanProcessor, encodeOtlpJson } from '@argspan/setup';
import { ArgspanInstrumentation } from '../instrumentation.js';
import { ArgspanSession } from '../session.js';

const TOOL = 'calendar.create';
const USER_TEXT =
  'Schedule a meeting with Kenji (kenji@example.jp) in the Tokyo office, room 4F, next Tuesday at 10am titled Q3 sync, 45 minutes, agenda: roadmap review, remind me 10 and 30 minutes before';
/** Nine leaves, all asserted by the user: the call is allowed and dispatched. */
const ARGS = {
  title: 'Q3 sync',
  when: 'next Tuesday at 10am',
  attendee: { name: 'Kenji', email: 'kenji@example.jp' },
  location: 'Tokyo office, room 4F',
  duration_min: 45,
  notes: 'roadmap review',
  reminders: [10, 30],
};

/** Spans go to a processor that counts and discards: the bench measures the instrumentation, not an exporter. */
class NullExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.spans += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
}

/** Encodes every batch as OTLP/JSON (what the file exporter writes) and discards the bytes. */
class EncodingExporter implements SpanExporter {
  bytes = 0;
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.bytes += encodeOtlpJson(spans).length;
    done({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
}

const dispatch = async (_tool: string, _args: unknown): Promise<string> => 'evt-1';

/** A straightforward per-leaf-span instrumentation, without classification. */
function naiveReference(tracer: Tracer, key: Buffer) {
  const flatten = (v: unknown, path: string, out: [string, string][]): void => {
    if (Array.isArray(v)) v.forEach((x, i) => flatten(x, `${path}[${i}]`, out));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) flatten(x, path ? `${path}.${k}` : k, out);
    else out.push([path, String(v)]);
  };
  return (tool: string, args: unknown): Promise<string> =>
    tracer.startActiveSpan(toolCallSpanName(tool), async (span) => {
      span.setAttribute(GenAiAttributes.OPERATION_NAME, OPERATION_EXECUTE_TOOL);
      span.setAttribute(GenAiAttributes.TOOL_NAME, tool);
      const leaves: [string, string][] = [];
      flatten(args, '', leaves);
      for (const [k, v] of leaves) {
        const child = tracer.startSpan(argumentSpanName(k));
        child.setAttribute(ArgAttributes.KEY, k);
        child.setAttribute(ArgAttributes.VALUE_HASH, createHmac('sha256', key).update(v).digest('hex').slice(0, 32));
        child.setAttribute(ArgAttributes.BYTES, Buffer.byteLength(v));
        child.end();
      }
      try {
        return await dispatch(tool, args);
      } finally {
        span.end();
      }
    });
}

type Runner = () => Promise<unknown>;

async function perCallMicros(run: Runner, calls: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await run();
  return Number(process.hrtime.bigint() - t0) / 1000 / calls;
}

function quantile(xs: number[], p: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

async function main(): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const key = randomBytes(32);
  const calls = Number(process.env.BENCH_CALLS ?? 1000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 25);
  const burstCalls = Number(process.env.BENCH_BURST_CALLS ?? 100_000);

  const provider = new BasicTracerProvider({ spanProcessors: [new CountingBatchSpanProcessor(new NullExporter())] });
  const tracer = provider.getTracer('bench');
  const naive = naiveReference(tracer, key);
  const session = new ArgspanSession({ userText: USER_TEXT, maxContextEntries: 4 });
  const argspan = new ArgspanInstrumentation({ tracerProvider: provider, hashKey: key, session }).wrapDispatch(dispatch);
  const noMemo = new ArgspanInstrumentation({
    tracerProvider: provider,
    hashKey: key,
    hashMemoSize: 0,
    session: new ArgspanSession({ userText: USER_TEXT, maxContextEntries: 4 }),
  }).wrapDispatch(dispatch);

  // Sanity: argspan allows this call (it is dispatched, not refused or asked).
  if ((await argspan(TOOL, ARGS)) !== 'evt-1') throw new Error('bench call was not dispatched');

  const classifyOnlyCtx = new ArgspanSession({ userText: USER_TEXT }).callContext(undefined);
  // Recording only: the same classification every call, precomputed (no classification cost).
  const precomputed = classifyCall({ tool: TOOL, args: ARGS, callId: 'p' }, classifyOnlyCtx);
  const recordOnly = new ArgspanInstrumentation({
    tracerProvider: provider,
    hashKey: key,
    classifier: () => precomputed,
    session: new ArgspanSession({ userText: USER_TEXT, maxContextEntries: 4 }),
  }).wrapDispatch(dispatch);
  const kinds = ['a', 'b', 'c', 'c0', 'k', 'r'] as const;
  const runners: Record<(typeof kinds)[number], Runner> = {
    k: async () => classifyCall({ tool: TOOL, args: ARGS, callId: 'k' }, classifyOnlyCtx),
    a: () => dispatch(TOOL, ARGS),
    b: () => naive(TOOL, ARGS),
    c: () => argspan(TOOL, ARGS),
    c0: () => noMemo(TOOL, ARGS),
    r: () => recordOnly(TOOL, ARGS),
  };
  const samples: Record<(typeof kinds)[number], number[]> = { a: [], b: [], c: [], c0: [], k: [], r: [] };
  for (const k of kinds) await perCallMicros(runners[k], Math.ceil(calls / 5)); // warm-up
  // Kinds run interleaved in chunks of 100 calls, in an order that rotates every round, so load
  // from other processes and garbage left by one kind fall on all of them alike.
  const chunk = Math.min(100, calls);
  const ratios: { c: number[]; r: number[]; c0: number[] } = { c: [], r: [], c0: [] };
  for (let r = 0; r < rounds; r++) {
    const order = kinds.map((_, i) => kinds[(i + r) % kinds.length]!);
    const total: Record<string, number> = {};
    for (let done = 0; done < calls; done += chunk) {
      for (const k of order) total[k] = (total[k] ?? 0) + (await perCallMicros(runners[k], chunk)) * chunk;
    }
    for (const k of kinds) samples[k].push(total[k]! / calls);
    const base = samples.b.at(-1)! - samples.a.at(-1)!;
    for (const k of ['c', 'r', 'c0'] as const) ratios[k].push((samples[k].at(-1)! - samples.a.at(-1)!) / base);
    await provider.forceFlush();
  }
  const a = median(samples.a);
  const b = median(samples.b);
  const c = median(samples.c);
  const c0 = median(samples.c0);
  const k = median(samples.k);
  const rec = median(samples.r);
  const f = (x: number) => x.toFixed(2).padStart(8);
  console.log(`per-call time, 9-leaf ${TOOL} call (median of ${rounds} rounds x ${calls} calls, kinds interleaved in chunks of ${chunk}):`);
  console.log(`  (a) bare dispatch        ${f(a)} us/call`);
  console.log(`  (b) naive reference      ${f(b)} us/call   overhead ${f(b - a)} us`);
  console.log(`  (c) argspan              ${f(c)} us/call   overhead ${f(c - a)} us`);
  console.log(`  (c0) argspan, no memo    ${f(c0)} us/call   overhead ${f(c0 - a)} us   (every value HMAC'd afresh)`);
  console.log(`  of which classifyCall    ${f(k)} us/call   (core classification alone: ${((k / (c - a)) * 100).toFixed(0)}% of (c)'s overhead)`);
  console.log(`  (r) recording only       ${f(rec)} us/call   overhead ${f(rec - a)} us   (precomputed classification: spans, hashes, gate)`);
  // Ratios: the median of each round's ratio (both sides measured in the same minutes).
  const q = (xs: number[]) => `${median(xs).toFixed(2)}   (rounds: ${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)} interquartile)`;
  console.log(`  ratio c/b (overhead)     ${q(ratios.c)}   target <= 1.00`);
  console.log(`  ratio r/b (overhead)     ${q(ratios.r)}   argspan's recording against the naive reference`);
  console.log(`  ratio c0/b (overhead)    ${q(ratios.c0)}`);
  await provider.shutdown();

  // Burst: 100k calls back to back, each 1 tool span + 9 argument spans, OTLP/JSON encoded.
  const encoder = new EncodingExporter();
  const processor = new CountingBatchSpanProcessor(encoder, { warn: () => undefined });
  const burstProvider = new BasicTracerProvider({ spanProcessors: [processor] });
  const burst = new ArgspanInstrumentation({
    tracerProvider: burstProvider,
    hashKey: key,
    session: new ArgspanSession({ userText: USER_TEXT, maxContextEntries: 4 }),
  }).wrapDispatch(dispatch);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < burstCalls; i++) await burst(TOOL, ARGS);
  await burstProvider.forceFlush();
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const s = processor.stats();
  console.log(`burst: ${burstCalls} calls, ${s.ended} spans in ${secs.toFixed(2)} s (export = OTLP/JSON encoding, ${(encoder.bytes / 1e6).toFixed(0)} MB)`);
  console.log(`  sustained ${Math.round(s.exported / secs)} spans/s, ${Math.round(burstCalls / secs)} calls/s`);
  console.log(`  exported ${s.exported}, dropped ${s.dropped}, failed ${s.failed}, queued ${s.queued}`);
  await burstProvider.shutdown();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
