import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Compression } from './detect-format.js';
import { InputError } from './input-error.js';
import { JsonByteScanner, type ByteScanResult } from './json-byte-scan.js';
import { ZstdDataError, ZstdStream } from './zstd.js';

const READ_CHUNK = 1 << 20;

/**
 * Run the {@link JsonByteScanner} over a whole trace file, decompressed as DuckDB will read it
 * (gzip by Node's zlib, zstd by {@link ZstdStream}). Corrupt or truncated compressed data and
 * unreadable files are an {@link InputError} naming the file, never a partial result.
 */
export async function scanTraceFile(file: string, compression: Compression, mode: 'lines' | 'document'): Promise<ByteScanResult> {
  const scanner = new JsonByteScanner(mode);
  try {
    if (compression === 'gzip') {
      await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) scanner.push(chunk);
      });
    } else if (compression === 'zstd') {
      const stream = await ZstdStream.open((bytes) => scanner.push(bytes));
      try {
        await readChunks(file, (chunk) => stream.push(chunk));
        stream.end();
      } finally {
        stream.close();
      }
    } else {
      await readChunks(file, (chunk) => scanner.push(chunk));
    }
  } catch (err) {
    throw new InputError([{ file, reason: readFailure(err, compression) }]);
  }
  return scanner.end();
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
