/** Test support: an in-memory tracer provider and hand-built classifications. Not shipped. */
import { context, trace } from '@opentelemetry/api';
import type { Span, TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { CallClassification, Leaf, LeafClassification } from '@argspan/core';

let contextManagerSet = false;

/** A provider exporting synchronously into memory, plus the AsyncLocalStorage context manager. */
export function memoryTracing(): { provider: TracerProvider & BasicTracerProvider; exporter: InMemorySpanExporter; spans: () => ReadableSpan[] } {
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
  }
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, exporter, spans: () => exporter.getFinishedSpans() };
}

/** Run `fn` inside an active "turn" span of `provider`; resolves to fn's result and the turn span. */
export async function inTurn<T>(provider: TracerProvider, fn: () => Promise<T>): Promise<{ result: T; turn: Span }> {
  const turn = provider.getTracer('test-agent').startSpan('agent turn');
  try {
    const result = await context.with(trace.setSpan(context.active(), turn), fn);
    return { result, turn };
  } finally {
    turn.end();
  }
}

/** One leaf of a hand-built classification. */
export interface LeafSpec extends Partial<Omit<LeafClassification, 'key'>> {
  key: string;
  text: string;
}

/**
 * A classification built by hand (what a classifier returns; the instrumentation decides the
 * enforcement itself), for tests of the recording side.
 */
export function classification(
  tool: string,
  leaves: LeafSpec[],
  over: Partial<Omit<CallClassification, 'leaves' | 'flat' | 'tool' | 'enforcement'>> = {},
): Omit<CallClassification, 'enforcement'> {
  const flat: Leaf[] = leaves.map((l) => {
    const path = l.key.split('.');
    return {
      key: l.key,
      leaf: l.leaf ?? path[path.length - 1]!,
      path,
      text: l.text,
      kind: 'string',
      bytes: Buffer.byteLength(l.text),
      truncated: false,
    };
  });
  const labels: LeafClassification[] = leaves.map((l, i) => {
    const out: LeafClassification = {
      key: l.key,
      leaf: flat[i]!.leaf,
      residency: l.residency ?? 'tiny-public',
      provenance: l.provenance ?? 'user_explicit',
      rule: l.rule ?? 'tiny',
      denylisted: l.denylisted ?? false,
      bytes: flat[i]!.bytes,
    };
    if (l.sourceCallId !== undefined) out.sourceCallId = l.sourceCallId;
    return out;
  });
  return {
    tool,
    residency: 'tiny-public',
    verdict: 'local',
    reason: 'tiny-public: every leaf is small and public',
    gate: { action: 'allow', hits: [] },
    leaves: labels,
    flat,
    limits: [],
    droppedLeaves: 0,
    bytes: flat.reduce((n, l) => n + l.bytes, 0),
    strippedKeys: [],
    failedClosed: false,
    ...over,
  };
}

/** Attributes of the one finished span named `name` (fails when there is not exactly one). */
export function only(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}
