import { setImmediate as tick } from 'node:timers/promises';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { CountingBatchSpanProcessor } from './counting-processor.js';

/** An exporter that records every span it is handed, then answers success or failure. */
class RecordingExporter implements SpanExporter {
  readonly received = new Set<string>();
  constructor(private readonly fail = false) {}
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    for (const s of spans) this.received.add(s.spanContext().spanId);
    done(this.fail ? { code: ExportResultCode.FAILED, error: new Error('collector down') } : { code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
}

function setup(exporter: SpanExporter, options: ConstructorParameters<typeof CountingBatchSpanProcessor>[1] = {}) {
  const warnings: string[] = [];
  const processor = new CountingBatchSpanProcessor(exporter, { warn: (m) => warnings.push(m), ...options });
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return { processor, provider, tracer: provider.getTracer('burst'), warnings };
}

const BURST = 100_000;

describe('CountingBatchSpanProcessor', () => {
  it('counts every span of a synchronous 100k burst: exported + dropped = ended, drops exact', async () => {
    const exporter = new RecordingExporter();
    const { processor, provider, tracer, warnings } = setup(exporter, { maxQueueSize: 8192, maxExportBatchSize: 1024 });
    const ids: string[] = [];
    for (let i = 0; i < BURST; i++) {
      const s = tracer.startSpan('burst');
      ids.push(s.spanContext().spanId);
      s.end();
    }
    await provider.forceFlush();
    const stats = processor.stats();
    expect(stats.ended).toBe(BURST);
    expect(stats.queued).toBe(0);
    expect(stats.failed).toBe(0);
    expect(stats.exported).toBe(exporter.received.size);
    // A synchronous burst never yields to the exporter, so this queue must overflow — and every
    // span that did not reach the exporter is in the drop count, exactly.
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.dropped).toBe(ids.filter((id) => !exporter.received.has(id)).length);
    expect(stats.exported + stats.dropped).toBe(BURST);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.at(-1)).toContain(`${stats.dropped} dropped`);
    await provider.shutdown();
  });

  it('loses nothing in a 100k burst when the queue is sized for it (default 65536) and the loop yields', async () => {
    const exporter = new RecordingExporter();
    const { processor, provider, tracer, warnings } = setup(exporter);
    for (let i = 0; i < BURST; i++) {
      tracer.startSpan('burst').end();
      if (i % 10_000 === 9_999) await tick();
    }
    await provider.forceFlush();
    expect(processor.stats()).toEqual({ ended: BURST, exported: BURST, dropped: 0, failed: 0, queued: 0 });
    expect(exporter.received.size).toBe(BURST);
    expect(warnings).toEqual([]);
    await provider.shutdown();
  });

  it('counts export failures and spans ended after shutdown, and warns', async () => {
    const { processor, provider, tracer, warnings } = setup(new RecordingExporter(true));
    for (let i = 0; i < 10; i++) tracer.startSpan('x').end();
    await provider.forceFlush().catch(() => undefined);
    expect(processor.stats()).toMatchObject({ ended: 10, failed: 10, exported: 0, dropped: 0, queued: 0 });
    await processor.shutdown().catch(() => undefined);
    processor.onEnd(tracer.startSpan('late') as unknown as ReadableSpan);
    expect(processor.stats()).toMatchObject({ ended: 11, dropped: 1 });
    expect(warnings.join('\n')).toContain('failed to export');
  });

  it('keeps ended = exported + dropped + failed + queued while an export is in flight', async () => {
    let finish: (() => void) | undefined;
    const slow: SpanExporter = {
      export: (_spans, done) => void (finish = () => done({ code: ExportResultCode.SUCCESS })),
      shutdown: async () => undefined,
    };
    const { processor, provider, tracer } = setup(slow);
    for (let i = 0; i < 10; i++) tracer.startSpan('x').end();
    const flushed = provider.forceFlush();
    for (let i = 0; i < 20 && finish === undefined; i++) await tick();
    expect(finish).toBeDefined();
    expect(processor.stats()).toEqual({ ended: 10, exported: 0, dropped: 0, failed: 0, queued: 10 });
    finish!();
    await flushed;
    expect(processor.stats()).toEqual({ ended: 10, exported: 10, dropped: 0, failed: 0, queued: 0 });
  });
});
