import { closeSync, openSync, writeSync } from 'node:fs';

/** Each line of `bytes` in order, 1-based, without its newline (nor a `\r` before it). */
export function forEachLine(bytes: Buffer, fn: (raw: Buffer, line: number) => void): void {
  let line = 0;
  for (let start = 0; start < bytes.length; ) {
    line += 1;
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    fn(bytes.subarray(start, end > start && bytes[end - 1] === 0x0d ? end - 1 : end), line);
    start = end + 1;
  }
}

/**
 * Write `bytes` to `target` line for line, each line as `rewrite` gives it (its own bytes, other
 * text, or `''` to leave it empty), so line numbers in `target` are those of `bytes`; written a
 * megabyte at a time.
 */
export function writeLinesAs(bytes: Buffer, target: string, rewrite: (raw: Buffer, line: number) => Buffer | string): void {
  const fd = openSync(target, 'w');
  try {
    const out: Buffer[] = [];
    let pending = 0;
    forEachLine(bytes, (raw, line) => {
      const written = rewrite(raw, line);
      const piece = typeof written === 'string' ? Buffer.from(written) : written;
      out.push(piece, NEWLINE);
      pending += piece.length + 1;
      if (pending >= WRITE_BATCH) {
        writeSync(fd, Buffer.concat(out));
        out.length = 0;
        pending = 0;
      }
    });
    writeSync(fd, Buffer.concat(out));
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = Buffer.from('\n');
const WRITE_BATCH = 1 << 20;
