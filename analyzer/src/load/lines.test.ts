import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachLine, LineSplitter, LineWriter, readLinesOfFile, StopReading } from './lines.js';
import { InputError } from './input-error.js';
import { zstdRawFrame } from '../../../test/support/zstd-raw.js';

/** The lines a splitter gives for `text` fed in pieces cut at `cuts`, and the lines it named too long. */
function split(text: string, cuts: number[], maxLineBytes?: number): { lines: [number, string][]; tooLong: number[] } {
  const lines: [number, string][] = [];
  const tooLong: number[] = [];
  const splitter = new LineSplitter((raw, line) => lines.push([line, raw.toString('latin1')]), maxLineBytes, (line) => tooLong.push(line));
  const bytes = Buffer.from(text, 'latin1');
  let at = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b)) {
    // A reader reuses its buffer: each piece is overwritten once handed on.
    const piece = Buffer.from(bytes.subarray(at, cut));
    splitter.push(piece);
    piece.fill(0x21);
    at = cut;
  }
  splitter.push(bytes.subarray(at));
  splitter.end();
  return { lines, tooLong };
}

/** What the lines of `text` are: split at `\n`, a `\r` before it dropped, no line after a final newline. */
function expected(text: string): [number, string][] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (text.endsWith('\n')) parts.pop();
  return parts.map((p, i) => [i + 1, p.endsWith('\r') ? p.slice(0, -1) : p]);
}

const texts = fc.array(fc.constantFrom('a', 'bc', '\n', '\r', '\r\n', '{"x":1}', ' '), { maxLength: 40 }).map((parts) => parts.join(''));

describe('LineSplitter', () => {
  it('gives the same lines however the text is cut into chunks, each chunk reused after it is handed on', () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(60), { maxLength: 8 }), (text, cuts) => {
        expect(split(text, cuts).lines).toEqual(expected(text));
      }),
    );
  });

  it('names a line longer than the limit by its number and never holds it; the lines around it are read', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 12 }), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(100), { maxLength: 8 }), (lines, cuts) => {
        const text = lines.join('\n');
        const got = split(text, cuts, 5);
        expect(got.lines).toEqual(expected(text).filter(([, l]) => l.length <= 5));
        expect(got.tooLong).toEqual(expected(text).flatMap(([n, l]) => (l.length > 5 ? [n] : [])));
      }),
    );
  });

  it('forEachLine is the splitter over one buffer', () => {
    const seen: string[] = [];
    forEachLine(Buffer.from('a\r\n\nb'), (raw, line) => seen.push(`${line}:${raw.toString()}`));
    expect(seen).toEqual(['1:a', '2:', '3:b']);
  });
});

describe('LineWriter', () => {
  it('writes lines at their numbers, the others left empty, from buffers reused after the call', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-lines-')), 'out.jsonl');
    const writer = new LineWriter(file);
    expect(writer.opened).toBe(false);
    const reused = Buffer.from('one');
    writer.write(2, reused);
    reused.write('XXX');
    writer.write(5, 'five');
    writer.write(6, Buffer.alloc(1 << 20, 0x61));
    writer.close();
    writer.close();
    expect(writer.opened).toBe(true);
    const lines = readFileSync(file, 'latin1').split('\n');
    expect(lines.slice(0, 5)).toEqual(['', 'one', '', '', 'five']);
    expect(lines[5]).toHaveLength(1 << 20);
  });
});

describe('readLinesOfFile', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'argspan-lines-'));

  it('streams a file\'s lines, gzip-compressed or not, without the byte order mark, and stops when told', async () => {
    const text = '\ufeff{"a":1}\r\n{"b":2}\n\n{"c":3}';
    const files = [['plain.jsonl', Buffer.from(text), 'none'], ['zipped.jsonl.gz', gzipSync(text), 'gzip'], ['zstd.jsonl.zst', zstdRawFrame(Buffer.from(text)), 'zstd']] as const;
    for (const [name, bytes, compression] of files) {
      const file = join(dir(), name);
      writeFileSync(file, bytes);
      const lines: string[] = [];
      await readLinesOfFile(file, compression, (raw, line) => lines.push(`${line}:${raw.toString()}`));
      expect(lines, compression).toEqual(['1:{"a":1}', '2:{"b":2}', '3:', '4:{"c":3}']);
      const first: string[] = [];
      await readLinesOfFile(file, compression, (raw) => {
        first.push(raw.toString());
        throw new StopReading();
      });
      expect(first, compression).toEqual(['{"a":1}']);
    }
  });

  it('corrupt gzip data is an InputError naming the file', async () => {
    const file = join(dir(), 'bad.jsonl.gz');
    writeFileSync(file, gzipSync('{"a":1}\n'.repeat(1000)).subarray(0, 40));
    const err = await readLinesOfFile(file, 'gzip', () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problems).toEqual([{ file, reason: expect.stringMatching(/^gzip data is (truncated|corrupt)$/) }]);
  });
});
