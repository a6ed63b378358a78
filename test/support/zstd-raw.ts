/**
 * A valid zstd frame holding `data` as raw (stored, uncompressed) blocks: what a test needs to
 * write a `.zst` file without a zstd compressor (Node 20's zlib has none). The zstd format
 * (RFC 8878): magic, a frame header with the 8-byte content size and the single-segment flag,
 * then blocks of at most 128 KiB, each with a 3-byte header (last flag, type 0 = raw, size).
 */
export function zstdRawFrame(data: Uint8Array): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0])];
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(data.length));
  parts.push(size);
  const MAX_BLOCK = 128 * 1024;
  let at = 0;
  do {
    const n = Math.min(MAX_BLOCK, data.length - at);
    const last = at + n >= data.length ? 1 : 0;
    const header = (n << 3) | last;
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), Buffer.from(data.subarray(at, at + n)));
    at += n;
  } while (at < data.length);
  return Buffer.concat(parts);
}

/** The collector file exporter's framing: each message after its 4-byte big-endian length. */
export function framed(messages: readonly Uint8Array[]): Buffer {
  return Buffer.concat(
    messages.flatMap((m) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(m.length);
      return [len, Buffer.from(m)];
    }),
  );
}
