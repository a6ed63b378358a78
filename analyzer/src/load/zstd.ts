import { ZSTDDecoder } from 'zstddec/stream';

/**
 * Streaming zstd decompression in JavaScript. Node 20's zlib has no zstd, so this drives the
 * reference zstd library compiled to WebAssembly (the `zstddec` package) through its streaming
 * API: memory stays bounded by zstd's own window limit (128 MiB; larger windows are refused, as
 * DuckDB's zstd refuses them), and every error code is checked, so corrupt or truncated data
 * is an error, never a loop or a silent short read.
 */

/** The exports of zstddec's WebAssembly module used here. */
interface ZstdExports {
  memory: { buffer: ArrayBuffer };
  malloc(bytes: number): number;
  free(ptr: number): void;
  ZSTD_createDCtx(): number;
  ZSTD_freeDCtx(dctx: number): number;
  ZSTD_DStreamOutSize(): number;
  ZSTD_decompressStream(dctx: number, output: number, input: number): number;
}

/** Corrupt, truncated or unsupported zstd data. */
export class ZstdDataError extends Error {
  constructor(readonly kind: 'corrupt' | 'truncated') {
    super(kind === 'corrupt' ? 'zstd data is corrupt or uses a window larger than 128 MiB' : 'zstd data is truncated');
    this.name = 'ZstdDataError';
  }
}

let exportsReady: Promise<ZstdExports> | undefined;

/** zstddec keeps its WebAssembly instance private; its documented `_init` hook hands it over. */
function zstdExports(): Promise<ZstdExports> {
  exportsReady ??= new Promise<ZstdExports>((resolve, reject) => {
    let captured: ZstdExports | undefined;
    class CapturingDecoder extends ZSTDDecoder {
      override _init(result: Parameters<ZSTDDecoder['_init']>[0]): void {
        captured = (result as unknown as { instance: { exports: ZstdExports } }).instance.exports;
        super._init(result);
      }
    }
    new CapturingDecoder().init().then(() => (captured ? resolve(captured) : reject(new Error('zstd WebAssembly module was initialised elsewhere'))), reject);
  });
  return exportsReady;
}

/** Input chunk size fed to zstd per call (its recommended input size is 128 KiB). */
const IN_CHUNK = 1 << 17;

/**
 * One zstd stream (any number of concatenated frames). `push` each compressed chunk; decompressed
 * bytes go to `onData` (a view valid only during the call); `end` checks the stream is complete.
 */
export class ZstdStream {
  private readonly dctx: number;
  private readonly outSize: number;
  private readonly outPtr: number;
  private readonly inPtr: number;
  /** Two ZSTD_inBuffer / ZSTD_outBuffer structs (pointer, size, pos: three 32-bit words each). */
  private readonly bufs: number;
  /** zstd's last hint: 0 when a frame is complete. */
  private pending = 0;
  private closed = false;

  private constructor(
    private readonly zstd: ZstdExports,
    private readonly onData: (bytes: Uint8Array) => void,
  ) {
    this.dctx = zstd.ZSTD_createDCtx();
    this.outSize = zstd.ZSTD_DStreamOutSize();
    this.outPtr = zstd.malloc(this.outSize);
    this.inPtr = zstd.malloc(IN_CHUNK);
    this.bufs = zstd.malloc(24);
  }

  static async open(onData: (bytes: Uint8Array) => void): Promise<ZstdStream> {
    return new ZstdStream(await zstdExports(), onData);
  }

  push(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length; at += IN_CHUNK) this.pushSmall(chunk.subarray(at, Math.min(chunk.length, at + IN_CHUNK)));
  }

  private pushSmall(chunk: Uint8Array): void {
    const z = this.zstd;
    const input = this.bufs;
    const output = this.bufs + 12;
    new Uint8Array(z.memory.buffer).set(chunk, this.inPtr);
    let view = new DataView(z.memory.buffer);
    view.setUint32(input, this.inPtr, true);
    view.setUint32(input + 4, chunk.length, true);
    view.setUint32(input + 8, 0, true);
    for (;;) {
      view.setUint32(output, this.outPtr, true);
      view.setUint32(output + 4, this.outSize, true);
      view.setUint32(output + 8, 0, true);
      const ret = z.ZSTD_decompressStream(this.dctx, output, input) >>> 0;
      // zstd's error codes are the top values of size_t (ZSTD_isError); memory may have grown meanwhile.
      if (ret > 0xffffff00) throw new ZstdDataError('corrupt');
      this.pending = ret;
      view = new DataView(z.memory.buffer);
      const produced = view.getUint32(output + 8, true);
      if (produced > 0) this.onData(new Uint8Array(z.memory.buffer, this.outPtr, produced));
      // Done with this chunk once it is consumed and zstd has nothing more buffered to flush.
      if (view.getUint32(input + 8, true) >= chunk.length && produced < this.outSize) return;
    }
  }

  /** Throws {@link ZstdDataError} when the stream stops inside a frame. Frees the decoder either way. */
  end(): void {
    this.close();
    if (this.pending !== 0) throw new ZstdDataError('truncated');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.zstd.ZSTD_freeDCtx(this.dctx);
    this.zstd.free(this.outPtr);
    this.zstd.free(this.inPtr);
    this.zstd.free(this.bufs);
  }
}

/**
 * Decompress one small zstd buffer (a framed collector message), refusing output beyond
 * `maxBytes` so a decompression bomb cannot exhaust memory.
 */
export async function decompressZstd(data: Uint8Array, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  const stream = await ZstdStream.open((bytes) => {
    size += bytes.length;
    if (size > maxBytes) throw new RangeError(`decompressed message exceeds ${maxBytes} bytes`);
    parts.push(Buffer.from(bytes));
  });
  try {
    stream.push(data);
    stream.end();
  } finally {
    stream.close();
  }
  return Buffer.concat(parts, size);
}
