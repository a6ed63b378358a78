import { TraceFlags } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Span counts of a {@link CountingBatchSpanProcessor}. `ended = exported + dropped + failed + queued` at all times. */
export interface SpanLossStats {
  /** Sampled spans that ended while the processor was running. */
  ended: number;
  /** Spans the exporter reported as exported. */
  exported: number;
  /** Spans dropped without export: queue full, or ended after shutdown. */
  dropped: number;
  /** Spans handed to the exporter that it reported as failed. */
  failed: number;
  /** Spans waiting in the queue or in an export still in flight. */
  queued: number;
}

/** Options of {@link CountingBatchSpanProcessor}. */
export interface CountingBatchOptions {
  /** Spans held before new ones are dropped (and counted). Sized for bursts. @default 65536 */
  maxQueueSize?: number;
  /** Spans per export. @default 2048 */
  maxExportBatchSize?: number;
  /** Delay between scheduled exports in ms. @default 1000 */
  scheduledDelayMillis?: number;
  /** Export timeout in ms. @default 30000 */
  exportTimeoutMillis?: number;
  /** Where loss warnings go. @default console.warn */
  warn?: (message: string) => void;
  /** Least time between two loss warnings in ms (the totals are always in the next one). @default 5000 */
  warnIntervalMillis?: number;
}

/**
 * A BatchSpanProcessor that never loses a span silently. The SDK's processor drops spans past
 * its queue with only a diag message and swallows export failures; this one keeps its own count
 * of what is queued, refuses (and counts) a span before the inner queue would drop it, counts
 * every export success and failure, and warns on the console — throttled, with running totals —
 * whenever spans are lost. {@link stats} is readable at any time.
 */
export class CountingBatchSpanProcessor implements SpanProcessor {
  private readonly inner: BatchSpanProcessor;
  private readonly maxQueueSize: number;
  private readonly warn: (message: string) => void;
  private readonly warnInterval: number;
  private readonly counts: SpanLossStats = { ended: 0, exported: 0, dropped: 0, failed: 0, queued: 0 };
  /** Spans in the inner processor's queue (not yet handed to the exporter): what its limit counts. */
  private inQueue = 0;
  private lastWarnAt = -Infinity;
  private lostAtLastWarn = 0;
  private stopped = false;

  constructor(exporter: SpanExporter, options: CountingBatchOptions = {}) {
    this.maxQueueSize = options.maxQueueSize ?? 65_536;
    const maxExportBatchSize = Math.min(options.maxExportBatchSize ?? 2048, this.maxQueueSize);
    this.warn = options.warn ?? ((m) => console.warn(m));
    this.warnInterval = options.warnIntervalMillis ?? 5000;
    this.inner = new BatchSpanProcessor(this.countingExporter(exporter), {
      // One more than ours, so the inner queue never reaches its own (silent) limit.
      maxQueueSize: this.maxQueueSize + 1,
      maxExportBatchSize,
      scheduledDelayMillis: options.scheduledDelayMillis ?? 1000,
      exportTimeoutMillis: options.exportTimeoutMillis ?? 30_000,
    });
  }

  /** A snapshot of the counters. */
  stats(): SpanLossStats {
    return { ...this.counts };
  }

  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.counts.ended++;
    if (this.stopped || this.inQueue >= this.maxQueueSize) {
      this.counts.dropped++;
      this.maybeWarn();
      return;
    }
    this.counts.queued++;
    this.inQueue++;
    this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush().finally(() => this.maybeWarn(true));
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    try {
      await this.inner.shutdown();
    } finally {
      this.maybeWarn(true);
    }
  }

  private countingExporter(exporter: SpanExporter): SpanExporter {
    return {
      export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => {
        // Out of the inner queue now, but still `queued` while the export is in flight (the sum
        // holds at every moment): moved when it ends.
        this.inQueue -= spans.length;
        exporter.export(spans, (result) => {
          this.counts.queued -= spans.length;
          if (result.code === ExportResultCode.SUCCESS) this.counts.exported += spans.length;
          else {
            this.counts.failed += spans.length;
            this.maybeWarn();
          }
          done(result);
        });
      },
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
  }

  private maybeWarn(final = false): void {
    const lost = this.counts.dropped + this.counts.failed;
    if (lost === this.lostAtLastWarn) return;
    const now = performance.now();
    if (!final && now - this.lastWarnAt < this.warnInterval) return;
    this.lastWarnAt = now;
    this.lostAtLastWarn = lost;
    const { dropped, failed, ended } = this.counts;
    this.warn(
      `argspan: ${lost} of ${ended} spans lost so far (${dropped} dropped: queue full at ${this.maxQueueSize} or ended after shutdown; ` +
        `${failed} failed to export). Raise maxQueueSize or check the exporter.`,
    );
  }
}
