import { closeSync, openSync, writeSync } from 'node:fs';
import type { Compression } from './detect-format.js';
import { readDecompressed } from './scan-trace-file.js';

/**
 * Splits a text fed in chunks into lines, 1-based, each without its newline (nor a `\r` before
 * it). A line inside one chunk is handed on as a view of that chunk's memory, valid only during
 * the call (a reader may reuse its buffer); one across chunks is copied together. A line longer
 * than `maxLineBytes` is never held whole: `onTooLong` gets its number, and its bytes are
 * skipped to the next newline.
 */
export class LineSplitter {
  private line = 0;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private skipping = false;

  constructor(
    private readonly onLine: (raw: Buffer, line: number) => void,
    private readonly maxLineBytes = Number.POSITIVE_INFINITY,
    private readonly onTooLong: (line: number) => void = () => {},
  ) {}

  push(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
      this.lineEnds(buf.subarray(start, nl));
      start = nl + 1;
    }
    if (start < buf.length) this.hold(buf.subarray(start));
  }

  /** The last line (one with no newline after it), if any. */
  end(): void {
    if (this.heldBytes > 0 || this.skipping) this.lineEnds(Buffer.alloc(0));
  }

  private lineEnds(rest: Buffer): void {
    this.line += 1;
    if (this.skipping || this.heldBytes + rest.length > this.maxLineBytes) {
      if (!this.skipping) this.onTooLong(this.line);
      this.skipping = false;
      this.held = [];
      this.heldBytes = 0;
      return;
    }
    const raw = this.heldBytes === 0 ? rest : Buffer.concat([...this.held, rest]);
    this.held = [];
    this.heldBytes = 0;
    this.onLine(raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw, this.line);
  }

  private hold(part: Buffer): void {
    if (this.skipping) return;
    if (this.heldBytes + part.length > this.maxLineBytes) {
      this.skipping = true;
      this.onTooLong(this.line + 1);
      this.held = [];
      this.heldBytes = 0;
      return;
    }
    // Copied: the chunk's memory may be reused for the next one.
    this.held.push(Buffer.from(part));
    this.heldBytes += part.length;
  }
}

/** Each line of `bytes` in order, 1-based, without its newline (nor a `\r` before it). */
export function forEachLine(bytes: Buffer, fn: (raw: Buffer, line: number) => void): void {
  const lines = new LineSplitter(fn);
  lines.push(bytes);
  lines.end();
}

/**
 * Writes lines to a file by their numbers, every line not written left empty, so line numbers in
 * the file are those of the text they came from; a megabyte at a time. Opened at the first line
 * written: a writer that wrote none leaves no file.
 */
export class LineWriter {
  private fd: number | undefined;
  private closed = false;
  private written = 0;
  private readonly out: Buffer[] = [];
  private pending = 0;

  constructor(private readonly target: string) {}

  /** Whether any line was written. */
  get opened(): boolean {
    return this.fd !== undefined;
  }

  /** Create the file now (empty if no line is written). */
  open(): void {
    this.fd ??= openSync(this.target, 'w');
  }

  /** Write line `line` (after every line written before it). */
  write(line: number, text: Buffer | string): void {
    this.open();
    if (line > this.written + 1) this.add(Buffer.alloc(line - this.written - 1, 0x0a));
    this.add(typeof text === 'string' ? Buffer.from(text) : text);
    this.add(NEWLINE);
    this.written = line;
    if (this.pending >= WRITE_BATCH) this.flush();
  }

  /** Write what is pending and close the file (again: nothing). */
  close(): void {
    if (this.fd === undefined || this.closed) return;
    this.closed = true;
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }

  private add(piece: Buffer): void {
    if (piece.length >= WRITE_BATCH) {
      this.flush();
      writeSync(this.fd!, piece);
      return;
    }
    // Copied: a line may be a view of a buffer its reader reuses.
    this.out.push(Buffer.from(piece));
    this.pending += piece.length;
  }

  private flush(): void {
    if (this.fd === undefined || this.out.length === 0) return;
    writeSync(this.fd, Buffer.concat(this.out));
    this.out.length = 0;
    this.pending = 0;
  }
}

/**
 * Write `bytes` to `target` line for line, each line as `rewrite` gives it (its own bytes, other
 * text, or `''` to leave it empty), so line numbers in `target` are those of `bytes`.
 */
export function writeLinesAs(bytes: Buffer, target: string, rewrite: (raw: Buffer, line: number) => Buffer | string): void {
  const writer = new LineWriter(target);
  try {
    writer.open();
    forEachLine(bytes, (raw, line) => writer.write(line, rewrite(raw, line)));
  } finally {
    writer.close();
  }
}

const NEWLINE = Buffer.from('\n');
const WRITE_BATCH = 1 << 20;

/**
 * The longest line read as one JSON text in JavaScript's memory (a logs line, a snake_case trace
 * line): a collector's batch is megabytes; V8's longest string is just under 512 MiB. A longer
 * line is named ({@link LINE_TOO_LONG}), never held.
 */
export const MAX_HELD_LINE_BYTES = 256 * 1024 * 1024;
export const LINE_TOO_LONG = `line longer than ${MAX_HELD_LINE_BYTES} bytes`;

/**
 * Stream `file`'s lines (see {@link readLinesOfFile}) into `target` line for line, each as `rewrite`
 * gives it; a line longer than {@link MAX_HELD_LINE_BYTES} is left empty and goes to `onTooLong`.
 */
export async function rewriteLinesOfFile(
  file: string,
  compression: Compression,
  target: string,
  rewrite: (raw: Buffer, line: number) => Buffer | string,
  onTooLong: (line: number) => void,
): Promise<void> {
  const writer = new LineWriter(target);
  try {
    writer.open();
    await readLinesOfFile(file, compression, (raw, line) => writer.write(line, rewrite(raw, line)), { maxLineBytes: MAX_HELD_LINE_BYTES, onTooLong });
  } finally {
    writer.close();
  }
}

/** Thrown by a line handler of {@link readLinesOfFile} to stop reading: the lines so far are what it wanted. */
export class StopReading extends Error {}

/**
 * Each line of a file, decompressed, as {@link LineSplitter} splits it (the first without a UTF-8
 * byte order mark); the file is streamed, never held. A handler may throw {@link StopReading} to
 * stop early. Unreadable files and corrupt compressed data are an `InputError` naming the file.
 */
export async function readLinesOfFile(
  file: string,
  compression: Compression,
  onLine: (raw: Buffer, line: number) => void,
  { maxLineBytes, onTooLong }: { maxLineBytes?: number; onTooLong?: (line: number) => void } = {},
): Promise<void> {
  let stopped = false;
  const stopping = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      stopped = err instanceof StopReading;
      throw err;
    }
  };
  const lines = new LineSplitter((raw, line) => stopping(() => onLine(line === 1 ? raw.subarray(bomLength(raw)) : raw, line)), maxLineBytes, (line) => stopping(() => onTooLong?.(line)));
  try {
    await readDecompressed(file, compression, (chunk) => lines.push(chunk));
    lines.end();
  } catch (err) {
    // (a stream stopped midway may report that as its own error: an abort)
    if (!stopped) throw err;
  }
}

/** The length of the UTF-8 byte order mark `bytes` open with (Windows tools write one): 3, or 0. */
export function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
