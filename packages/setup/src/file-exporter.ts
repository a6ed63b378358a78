import { closeSync, fstatSync, ftruncateSync, openSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { encodeOtlpJson } from './otlp-json.js';
import { makeDirectoriesSync } from '@argspan/core/internal';

/** Options of {@link FileSpanExporter}. */
export interface FileSpanExporterOptions {
  /** Directory the `.jsonl` files go into (created if missing). @default 'traces' */
  directory?: string;
  /** A file is closed and a new one started before it would grow past this many bytes. @default 67108864 (64 MiB) */
  maxFileBytes?: number;
  /** Keep at most this many files written by this exporter, deleting its oldest; 0 keeps all. @default 0 */
  maxFiles?: number;
  /** File name prefix: files are `{prefix}-{UTC time}-{pid}-{n, 6 digits}.jsonl`, so names sort in write order. @default 'argspan' */
  prefix?: string;
}

/**
 * The embedded span exporter: needs no server. Each export appends one line holding one OTLP/JSON
 * `{"resourceSpans":…}` request — the format of the OpenTelemetry Collector's file exporter — to a
 * `.jsonl` file under `traces/`, rotating to a new file by size. A line is never split across
 * files; a batch too big for one file is split into smaller lines. Writes are synchronous, so a
 * successful export is on disk (in the OS's buffers) when the callback runs.
 */
export class FileSpanExporter implements SpanExporter {
  readonly directory: string;
  private readonly maxFileBytes: number;
  private readonly maxFiles: number;
  private readonly prefix: string;
  private fd: number | undefined;
  private size = 0;
  private seq = 0;
  private readonly written: string[] = [];
  private stopped = false;

  constructor(options: FileSpanExporterOptions = {}) {
    this.directory = options.directory ?? 'traces';
    this.maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
    this.maxFiles = options.maxFiles ?? 0;
    this.prefix = options.prefix ?? 'argspan';
    if (!(this.maxFileBytes >= 1024)) throw new RangeError(`FileSpanExporter: maxFileBytes must be >= 1024, got ${this.maxFileBytes}`);
    if (!Number.isInteger(this.maxFiles) || this.maxFiles < 0) {
      throw new RangeError(`FileSpanExporter: maxFiles must be an integer >= 0, got ${this.maxFiles}`);
    }
    if (!/^[A-Za-z0-9._-]+$/.test(this.prefix)) throw new RangeError(`FileSpanExporter: prefix "${this.prefix}" must be a plain file name`);
  }

  /** Files this exporter has written, oldest first (deleted ones excluded). */
  get files(): readonly string[] {
    return this.written;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.stopped) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('FileSpanExporter is shut down') });
      return;
    }
    try {
      if (spans.length > 0) this.writeBatch(spans);
      resultCallback({ code: ExportResultCode.SUCCESS });
    } catch (err) {
      resultCallback({ code: ExportResultCode.FAILED, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {
    this.stopped = true;
    this.close();
  }

  private writeBatch(spans: ReadableSpan[]): void {
    const line = encodeOtlpJson(spans) + '\n';
    const bytes = Buffer.byteLength(line);
    if (bytes > this.maxFileBytes && spans.length > 1) {
      const half = spans.length >> 1;
      this.writeBatch(spans.slice(0, half));
      this.writeBatch(spans.slice(half));
      return;
    }
    // (a file deleted under the exporter, its directory removed, would take the spans with it: a new one)
    if (this.fd === undefined || (this.size > 0 && this.size + bytes > this.maxFileBytes) || fstatSync(this.fd).nlink === 0) this.rotate();
    const buf = Buffer.from(line);
    let off = 0;
    try {
      // (at explicit positions: after a cut, the file's own position would still be past it)
      while (off < buf.length) off += writeSync(this.fd!, buf, off, buf.length - off, this.size + off);
    } catch (err) {
      // A full disk mid-line: the part written is cut off again, so the next batch does not run on
      // from half a line; where that fails too, the next batch starts a new file.
      if (off > 0) {
        try {
          ftruncateSync(this.fd!, this.size);
        } catch {
          this.close();
        }
      }
      throw err;
    }
    this.size += bytes;
  }

  private rotate(): void {
    this.close();
    makeDirectoriesSync(this.directory);
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '');
    let file: string;
    for (;;) {
      this.seq += 1;
      file = join(this.directory, `${this.prefix}-${stamp}-${process.pid}-${String(this.seq).padStart(6, '0')}.jsonl`);
      try {
        this.fd = openSync(file, 'wx', 0o644);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    this.size = 0;
    this.written.push(file);
    while (this.maxFiles > 0 && this.written.length > this.maxFiles) {
      const oldest = this.written.shift()!;
      try {
        unlinkSync(oldest);
      } catch {
        // already gone: nothing to keep
      }
    }
  }

  private close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}

/** The `.jsonl` span files in a directory, oldest first by name. */
export function listSpanFiles(directory: string): string[] {
  return readdirSync(directory)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(directory, f));
}
