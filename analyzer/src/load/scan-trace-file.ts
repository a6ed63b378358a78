import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Compression } from './detect-format.js';
import { InputError } from './input-error.js';
import { JsonByteScanner, type ByteScanResult } from './json-byte-scan.js';
import { ZstdDataError, ZstdStream } from './zstd.js';

const READ_CHUNK = 1 << 20;

export interface TraceFileScan extends ByteScanResult {
  /**
   * The bytes hold `_value"`, the end of a key such as `"string_value"`: an attribute value may
   * be written with `AnyValue`'s protobuf field names, so the file is read with them too
   * (`otlpTypes(true)`) and checked. Read so always, 200,000 spans staged a fifth slower.
   */
  protobufValueNames: boolean;
}

/**
 * Run the {@link JsonByteScanner} over a whole trace file, decompressed as DuckDB will read it
 * (gzip by Node's zlib, zstd by {@link ZstdStream}), and look for `_value"` on the way.
 * Corrupt or truncated compressed data and unreadable files are an {@link InputError} naming
 * the file, never a partial result.
 */
export async function scanTraceFile(file: string, compression: Compression, mode: 'lines' | 'document'): Promise<TraceFileScan> {
  const scanner = new JsonByteScanner(mode);
  const valueNames = new BytesSeen(PROTOBUF_VALUE_NAME_END);
  const push = (chunk: Uint8Array) => {
    scanner.push(chunk);
    valueNames.push(chunk);
  };
  try {
    if (compression === 'gzip') {
      await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) push(chunk);
      });
    } else if (compression === 'zstd') {
      const stream = await ZstdStream.open(push);
      try {
        await readChunks(file, (chunk) => stream.push(chunk));
        stream.end();
      } finally {
        stream.close();
      }
    } else {
      await readChunks(file, push);
    }
  } catch (err) {
    throw new InputError([{ file, reason: readFailure(err, compression) }]);
  }
  return { ...scanner.end(), protobufValueNames: valueNames.seen };
}

const PROTOBUF_VALUE_NAME_END = Buffer.from('_value"');

/** Whether a byte string occurs in a text fed in chunks, also across two of them. */
class BytesSeen {
  seen = false;
  /** The last bytes fed, one fewer than the needle has. */
  private tail = Buffer.alloc(0);

  constructor(private readonly needle: Buffer) {}

  push(chunk: Uint8Array): void {
    if (this.seen) return;
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const keep = this.needle.length - 1;
    const joined = Buffer.concat([this.tail, buf.subarray(0, keep)]);
    this.seen = joined.indexOf(this.needle) >= 0 || buf.indexOf(this.needle) >= 0;
    // Copied: a decoder may reuse the chunk's memory.
    this.tail = Buffer.from(buf.length >= keep ? buf.subarray(buf.length - keep) : Buffer.concat([this.tail, buf]).subarray(-keep));
  }
}

async function readChunks(file: string, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      onChunk(buf.subarray(0, bytesRead));
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
