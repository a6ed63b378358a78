import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { zstdRawFrame } from '../../../test/support/zstd-raw.js';
import { ZstdDataError, ZstdStream, decompressZstd } from './zstd.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../fixtures/traces/formats/${name}`, import.meta.url)));

async function inflate(data: Uint8Array, chunk: number): Promise<Buffer> {
  const out: Buffer[] = [];
  const stream = await ZstdStream.open((b) => out.push(Buffer.from(b)));
  try {
    for (let at = 0; at < data.length; at += chunk) stream.push(data.subarray(at, at + chunk));
    stream.end();
  } finally {
    stream.close();
  }
  return Buffer.concat(out);
}

describe('zstd (WebAssembly, streaming)', () => {
  it('decompresses a zstd CLI file to the same bytes as its plain twin, in chunks of any size', async () => {
    const plain = fixture('otlp-lines.jsonl');
    for (const chunk of [1, 100, 1 << 20]) expect((await inflate(fixture('otlp-lines.jsonl.zst'), chunk)).equals(plain)).toBe(true);
  });

  it('reads raw-block frames (the tests\' own .zst writer), several frames in a row', async () => {
    const a = Buffer.from('x'.repeat(300_000));
    const b = Buffer.from('{"y":1}\n');
    expect((await inflate(Buffer.concat([zstdRawFrame(a), zstdRawFrame(b)]), 65536)).equals(Buffer.concat([a, b]))).toBe(true);
  });

  it('corrupt data and a stream cut short are errors, never a short read', async () => {
    const zst = fixture('otlp-lines.jsonl.zst');
    const flipped = Buffer.from(zst);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    await expect(inflate(flipped, 4096)).rejects.toThrow(ZstdDataError);
    await expect(inflate(zst.subarray(0, zst.length - 7), 4096)).rejects.toThrow(/truncated/);
    await expect(inflate(Buffer.from('not zstd at all'), 4096)).rejects.toThrow(/corrupt/);
  });

  it('caps the output of one message, so a decompression bomb cannot fill memory', async () => {
    const frame = zstdRawFrame(Buffer.alloc(1_000_000, 0x20));
    await expect(decompressZstd(frame, 10_000)).rejects.toThrow(RangeError);
    expect((await decompressZstd(frame, 1_000_000)).length).toBe(1_000_000);
  });
});
