import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { FileSpanExporter } from './file-exporter.js';

/**
 * An exporter that never loses a batch to an unreachable collector: a batch the primary (OTLP)
 * exporter fails to send is written by the embedded file exporter instead, and the first spill
 * says where, once (`ARGSPAN_SPANS_SPILLED` warning). `argspan analyze` reads the spilled files
 * like any other export. The batch only fails if the spill fails too.
 */
export class SpillingSpanExporter implements SpanExporter {
  private spillFile: FileSpanExporter | undefined;
  private warned = false;
  private spilledSpans = 0;

  constructor(
    private readonly primary: SpanExporter,
    private readonly makeSpill: () => FileSpanExporter,
  ) {}

  /** Spans written to the spill directory instead of the primary exporter. */
  get spilled(): number {
    return this.spilledSpans;
  }

  /** The spill directory, once something was spilled. */
  get spillDirectory(): string | undefined {
    return this.spillFile?.directory;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.primary.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) return resultCallback(result);
      let spill: FileSpanExporter;
      try {
        spill = this.spillFile ??= this.makeSpill();
      } catch (err) {
        return resultCallback({ code: ExportResultCode.FAILED, error: err instanceof Error ? err : new Error('spill exporter could not start') });
      }
      spill.export(spans, (spilled) => {
        if (spilled.code === ExportResultCode.SUCCESS) {
          this.spilledSpans += spans.length;
          if (!this.warned) {
            this.warned = true;
            process.emitWarning(`the trace exporter failed (${result.error?.message ?? 'export failed'}); spans are written to ${spill.directory} instead`, {
              code: 'ARGSPAN_SPANS_SPILLED',
            });
          }
        }
        resultCallback(spilled);
      });
    });
  }

  async forceFlush(): Promise<void> {
    await this.primary.forceFlush?.();
  }

  async shutdown(): Promise<void> {
    await Promise.allSettled([this.primary.shutdown(), this.spillFile?.shutdown()]);
  }
}
