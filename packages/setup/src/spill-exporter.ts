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
  /** Batches the primary holds, each with how it completes (once). */
  private readonly inFlight = new Map<ReadableSpan[], (result: ExportResult) => void>();
  private primaryGivenUp = false;

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
    if (this.primaryGivenUp) return this.spill(spans, 'gave up at exit', resultCallback);
    let done = false;
    const finish = (result: ExportResult) => {
      if (done) return;
      done = true;
      this.inFlight.delete(spans);
      resultCallback(result);
    };
    this.inFlight.set(spans, finish);
    this.primary.export(spans, (result) => {
      if (done) return;
      this.inFlight.delete(spans);
      if (result.code === ExportResultCode.SUCCESS) return finish(result);
      this.spill(spans, exportFailure(result.error), finish);
    });
  }

  /**
   * Stop waiting for the primary (a process leaving on a signal, its collector not answering):
   * the batches it holds, and every batch after, are written to the spill directory instead. A
   * batch the collector takes after all is then in both places — better than in neither.
   */
  giveUpOnPrimary(): void {
    this.primaryGivenUp = true;
    for (const [spans, finish] of [...this.inFlight]) {
      this.inFlight.delete(spans);
      this.spill(spans, 'gave up at exit', finish);
    }
  }

  private spill(spans: ReadableSpan[], why: string, resultCallback: (result: ExportResult) => void): void {
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
          process.emitWarning(`the trace exporter failed (${why}); spans are written to ${spill.directory} instead`, {
            code: 'ARGSPAN_SPANS_SPILLED',
          });
        }
      }
      resultCallback(spilled);
    });
  }

  async forceFlush(): Promise<void> {
    if (this.primaryGivenUp) return;
    await this.primary.forceFlush?.();
  }

  async shutdown(): Promise<void> {
    // (a primary given up on is not waited for: its shutdown would wait for the collector again)
    if (!this.primaryGivenUp) await Promise.allSettled([this.primary.shutdown(), this.spillFile?.shutdown()]);
    else await this.spillFile?.shutdown();
  }
}

/**
 * Why an export failed, in words that hold nothing the collector or the network wrote: the HTTP
 * status, or the error code, or the error's class (a collector's reason phrase or body may quote
 * anything, a credential included).
 */
function exportFailure(error: Error | undefined): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number') return `HTTP ${code}`;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) return code;
  return error?.name && /^[A-Za-z]+$/.test(error.name) ? error.name : 'export failed';
}
