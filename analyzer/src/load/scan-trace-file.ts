import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Compression } from './detect-format.js';
import type { ValueShapes } from './duckdb-types.js';
import { InputError } from './input-error.js';
import { JsonByteScanner, type ByteScanResult } from './json-byte-scan.js';
import { ZstdDataError, ZstdStream } from './zstd.js';

const READ_CHUNK = 1 << 20;

export interface TraceFileScan extends ByteScanResult {
  /**
   * The value forms the file is read with. `protobufNames` when the bytes hold `_value"`, the end
   * of a key such as `"string_value"`: read so always, 200,000 spans staged a fifth slower.
   * `structured` when they hold `kvlist` (of `"kvlistValue"`), or an `"arrayValue"` that is an element of a list
   * (after `[` or `,`, not a key's `:`): read so always, a tenth slower.
   */
  valueShapes: ValueShapes;
  /** Bytes of the longest line, its line break left out (`lines` mode; 0 for a document). */
  longestLine: number;
  /** The lines longer than the `maxLineBytes` given (1-based), with their bytes (`lines` mode). */
  tooLong: { line: number; bytes: number }[];
}

/**
 * Run the {@link JsonByteScanner} over a whole trace file, decompressed as DuckDB will read it
 * ({@link readDecompressed}), and look for the rarer value forms on the way. Corrupt or truncated
 * compressed data and unreadable files are an {@link InputError} naming the file, never a
 * partial result.
 */
export async function scanTraceFile(file: string, compression: Compression, mode: 'lines' | 'document', maxLineBytes = Infinity): Promise<TraceFileScan> {
  const scanner = new JsonByteScanner(mode);
  const shapes = new ValueShapesSeen();
  const longest = new LongestLine(maxLineBytes);
  await readDecompressed(file, compression, (chunk) => {
    scanner.push(chunk);
    shapes.push(chunk);
    if (mode === 'lines') longest.push(chunk);
  });
  return { ...scanner.end(), valueShapes: shapes.found(), longestLine: longest.longest, tooLong: longest.tooLong };
}

/**
 * The longest line of a text fed in chunks, in bytes, and the lines longer than `max`: DuckDB's
 * reader enforces its maximum object size only where a line overflows its buffer, so
 * `--max-line-bytes` is checked here — before DuckDB would hold such a line (a decompression bomb's
 * one line of a gigabyte) in memory.
 */
class LongestLine {
  longest = 0;
  readonly tooLong: { line: number; bytes: number }[] = [];
  private current = 0;
  private line = 1;

  constructor(private readonly max: number) {}

  push(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let at = 0;
    for (let nl = buf.indexOf(10, at); nl !== -1; nl = buf.indexOf(10, at)) {
      this.end(this.current + nl - at - (nl > at && buf[nl - 1] === 13 ? 1 : 0));
      this.current = 0;
      at = nl + 1;
    }
    this.current += buf.length - at;
    this.longest = Math.max(this.longest, this.current);
    // (a line still open: the last one, if no line break ends it)
    if (this.current > this.max) this.record(this.current);
  }

  private end(length: number): void {
    if (length > this.longest) this.longest = length;
    if (this.tooLong[this.tooLong.length - 1]?.line === this.line) this.tooLong.pop();
    if (length > this.max) this.record(length);
    this.line++;
  }

  private record(bytes: number): void {
    const last = this.tooLong[this.tooLong.length - 1];
    if (last?.line === this.line) last.bytes = bytes;
    else this.tooLong.push({ line: this.line, bytes });
  }
}

/**
 * Feed a file's bytes to `onChunk` a megabyte or so at a time, decompressed as DuckDB reads it
 * (gzip by Node's zlib, zstd by {@link ZstdStream}); a chunk's memory may be reused after the
 * call, and `onChunk` returning `false` stops the read there (the rest neither read nor checked).
 * Corrupt or truncated compressed data and unreadable files are an {@link InputError} naming the
 * file (the chunks before it were fed).
 */
export async function readDecompressed(file: string, compression: Compression, onChunk: (chunk: Uint8Array) => boolean | void): Promise<void> {
  let stopped = false;
  const feed = (chunk: Uint8Array) => {
    if (!stopped && onChunk(chunk) === false) stopped = true;
    return !stopped;
  };
  try {
    if (compression === 'gzip') {
      await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) if (!feed(chunk)) return;
      });
    } else if (compression === 'zstd') {
      const stream = await ZstdStream.open(feed);
      try {
        await readChunks(file, (chunk) => (stream.push(chunk), !stopped));
        if (!stopped) stream.end();
      } finally {
        stream.close();
      }
    } else {
      await readChunks(file, feed);
    }
  } catch (err) {
    // (a gzip pipeline ended early aborts its streams)
    if (stopped && (err as NodeJS.ErrnoException | undefined)?.code === 'ABORT_ERR') return;
    if (err instanceof InputError) throw err;
    throw new InputError([{ file, reason: readFailure(err, compression) }]);
  }
}

/** The {@link ValueShapes} a text fed in chunks shows (see {@link TraceFileScan}); `valueShapesOf` for a whole text. */
export class ValueShapesSeen {
  // Needles short and led by a rare byte: Buffer.indexOf finds those three times faster than `"arrayValue"`.
  private readonly protobufNames = new BytesSeen('_value"');
  private readonly maps = new BytesSeen('kvlist');
  private readonly nestedArrays = new BytesSeen('yValue"', nestedArrayKey, LOOK_BACK);
  // A field name can be spelled with escapes (`"\u006bvlistValue"`), which DuckDB reads as the name.
  private readonly escapedLetters = new BytesSeen('\\u00', escapedLetter, 0, 2);

  push(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.protobufNames.push(buf);
    this.maps.push(buf);
    this.nestedArrays.push(buf);
    this.escapedLetters.push(buf);
  }

  found(): ValueShapes {
    const escaped = this.escapedLetters.seen;
    return { protobufNames: this.protobufNames.seen || escaped, structured: this.maps.seen || this.nestedArrays.seen || escaped };
  }
}

/** The value forms a whole text shows. */
export function valueShapesOf(text: string): ValueShapes {
  const seen = new ValueShapesSeen();
  seen.push(Buffer.from(text));
  return seen.found();
}

/**
 * Whether the `\u00` at `at` escapes an ASCII letter or `_`. No JSON writer escapes those (Go's
 * escapes `<`, `>` and `&`; Python's, what is not ASCII), so such a file may spell a field name so
 * that the needles miss it: it is read with every value form.
 */
function escapedLetter(bytes: Buffer, at: number): boolean {
  const code = Number.parseInt(bytes.toString('latin1', at + 4, at + 6), 16);
  return code === 0x5f || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Bytes kept before a match of `"arrayValue"` to tell what precedes it. */
const LOOK_BACK = 64;
const [OPEN_BRACE, OPEN_BRACKET, COMMA] = ['{', '[', ','].map((c) => c.charCodeAt(0));
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** Whether the `yValue"` at `at` ends an `"arrayValue"` key that opens an element of a list (see {@link elementOfList}). */
function nestedArrayKey(bytes: Buffer, at: number): boolean {
  return at >= ARRA.length && bytes.toString('latin1', at - ARRA.length, at) === ARRA && elementOfList(bytes, at - ARRA.length);
}
const ARRA = '"arra';

/**
 * Whether the `"arrayValue"` key whose first byte is at `at` opens an element of a list (`[{` or
 * `,{` before it, spaces allowed), as an array nested in an array does, rather than an attribute's
 * value (`:{`), or follows another field of its value (`,`: an element, or a malformed value with
 * two fields). Unsure (more spaces than the bytes kept): yes, which only costs the slower read.
 */
function elementOfList(bytes: Buffer, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && isSpace(bytes[i]!)) i--;
  if (i < 0 || bytes[i] === COMMA) return true;
  if (bytes[i] !== OPEN_BRACE) return false;
  i--;
  while (i >= 0 && isSpace(bytes[i]!)) i--;
  return i < 0 || bytes[i] === OPEN_BRACKET || bytes[i] === COMMA;
}

/**
 * Whether a byte string occurs in a text fed in chunks, also across two of them; with `accept`,
 * only where it says so of the match, given `lookBack` bytes before it and `lookAhead` after it.
 */
class BytesSeen {
  seen = false;
  private readonly needle: Buffer;
  /** The last bytes fed: those of a match not yet judged, and `lookBack` more. */
  private tail = Buffer.alloc(0);

  constructor(
    needle: string,
    private readonly accept?: (bytes: Buffer, at: number) => boolean,
    private readonly lookBack = 0,
    private readonly lookAhead = 0,
  ) {
    this.needle = Buffer.from(needle);
  }

  push(buf: Buffer): void {
    if (this.seen) return;
    // A match is judged once the needle and the bytes after it are in.
    const m = this.needle.length + this.lookAhead;
    // Across the seam: the matches whose bytes start in the kept ones and end in this chunk.
    const seam = Buffer.concat([this.tail, buf.subarray(0, m - 1)]);
    for (let at = seam.indexOf(this.needle, Math.max(0, this.tail.length - m + 1)); at >= 0 && at + m <= seam.length; at = seam.indexOf(this.needle, at + 1)) {
      if (this.accepts(seam, at)) return;
    }
    for (let at = buf.indexOf(this.needle); at >= 0 && at + m <= buf.length; at = buf.indexOf(this.needle, at + 1)) {
      // Near the chunk's start the bytes before the match are partly the kept ones.
      const ok = at >= this.lookBack ? this.accepts(buf, at) : this.accepts(Buffer.concat([this.tail, buf.subarray(0, at + m)]), this.tail.length + at);
      if (ok) return;
    }
    const keep = m - 1 + this.lookBack;
    // Copied: a decoder may reuse the chunk's memory.
    this.tail = Buffer.from(buf.length >= keep ? buf.subarray(buf.length - keep) : Buffer.concat([this.tail, buf]).subarray(-keep));
  }

  private accepts(bytes: Buffer, at: number): boolean {
    this.seen = !this.accept || this.accept(bytes, at);
    return this.seen;
  }
}

async function readChunks(file: string, onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0 || !onChunk(buf.subarray(0, bytesRead))) return;
    }
  } finally {
    await handle.close();
  }
}

/** Why a file could not be read, in words that hold nothing from the file. */
function readFailure(err: unknown, compression: Compression): string {
  if (err instanceof ZstdDataError) return err.message;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (compression === 'gzip' && code === 'Z_BUF_ERROR') return 'gzip data is truncated';
  if (compression === 'gzip' && typeof code === 'string' && code.startsWith('Z_')) return 'gzip data is corrupt';
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return `file cannot be read (${code})`;
  throw err;
}
