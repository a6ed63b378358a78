import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { zstdRawFrame } from '../../../test/support/zstd-raw.js';
import type { Compression } from './detect-format.js';
import { InputError } from './input-error.js';
import { readDecompressed, ValueShapesSeen, valueShapesOf } from './scan-trace-file.js';

/** The shapes `text` shows when fed in two chunks split at `at`. */
function splitAt(text: string, at: number) {
  const bytes = Buffer.from(text);
  const seen = new ValueShapesSeen();
  seen.push(bytes.subarray(0, at));
  seen.push(bytes.subarray(at));
  return seen.found();
}

const attr = (value: unknown) => JSON.stringify({ attributes: [{ key: 'k', value }] });

describe('the value forms a trace file may hold, seen in its bytes before DuckDB reads it', () => {
  it.each([
    ['a map', attr({ kvlistValue: { values: [] } }), { protobufNames: false, structured: true }],
    ['an array inside an array', attr({ arrayValue: { values: [{ arrayValue: { values: [] } }] } }), { protobufNames: false, structured: true }],
    ['an array inside an array, second element', attr({ arrayValue: { values: [{ stringValue: 'a' }, { arrayValue: { values: [] } }] } }), { protobufNames: false, structured: true }],
    ['an array inside an array, pretty-printed', JSON.stringify(JSON.parse(attr({ arrayValue: { values: [{ arrayValue: { values: [] } }] } })), null, 2), { protobufNames: false, structured: true }],
    ['an array inside an array, after another field of its element', attr({ arrayValue: { values: [{ stringValue: null, arrayValue: { values: [] } }] } }), { protobufNames: false, structured: true }],
    ['a protobuf field name', attr({ string_value: 'x' }), { protobufNames: true, structured: false }],
    ['a field name spelled with an escaped letter', attr({ stringValue: 'x' }).replace('"stringValue"', '"\\u0073tringValue"'), { protobufNames: true, structured: true }],
    ['an escaped underscore', attr({ stringValue: 'x' }).replace('"stringValue"', '"string\\u005fValue"'), { protobufNames: true, structured: true }],
    ['the escapes JSON writers do write (Go: <, >, &; Python: what is not ASCII)', attr({ stringValue: '\\u003c\\u003e\\u0026\\u00e9\\u0000' }), { protobufNames: false, structured: false }],
    ['an array of strings (an attribute\'s own array)', attr({ arrayValue: { values: [{ stringValue: 'a' }] } }), { protobufNames: false, structured: false }],
    ['an array of strings, pretty-printed', JSON.stringify(JSON.parse(attr({ arrayValue: { values: [{ stringValue: 'a' }] } })), null, 2), { protobufNames: false, structured: false }],
    ['a nested array\'s key inside a JSON string value (escaped)', attr({ stringValue: JSON.stringify({ v: [{ arrayValue: 1 }] }) }), { protobufNames: false, structured: false }],
  ])('%s', (_name, text, shapes) => {
    expect(valueShapesOf(text)).toEqual(shapes);
    // Wherever the bytes are cut in two, across the key or the bytes before it, the answer is the same.
    for (let at = 0; at <= Buffer.byteLength(text); at++) expect(splitAt(text, at)).toEqual(shapes);
  });
});

describe('readDecompressed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'argspan-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const text = Buffer.from('{"resourceSpans":[]}\n'.repeat(400_000)); // 8.4 MB
  const files: [Compression, string, Buffer][] = [
    ['none', 'plain.jsonl', text],
    ['gzip', 'a.jsonl.gz', gzipSync(text)],
    ['zstd', 'a.jsonl.zst', zstdRawFrame(text)],
  ];
  for (const [compression, name, bytes] of files) writeFileSync(join(dir, name), bytes);

  it.each(files)('%s: stops where the reader says, with no error; else feeds every byte', async (compression, name) => {
    let fed = 0;
    await readDecompressed(join(dir, name), compression, (chunk) => ((fed += chunk.length), fed < 1 << 20));
    expect(fed).toBeGreaterThanOrEqual(1 << 20);
    expect(fed).toBeLessThan(4 << 20);
    let all = 0;
    await readDecompressed(join(dir, name), compression, (chunk) => void (all += chunk.length));
    expect(all).toBe(text.length);
  });

  it('a gzip file cut off is an error naming the file, after the bytes before the cut were fed', async () => {
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, gzipSync(text).subarray(0, 20_000));
    let fed = 0;
    const read = readDecompressed(cut, 'gzip', (chunk) => void (fed += chunk.length));
    await expect(read).rejects.toBeInstanceOf(InputError);
    await expect(read).rejects.toMatchObject({ problems: [{ file: cut, reason: 'gzip data is truncated' }] });
    expect(fed).toBeGreaterThan(0);
  });
});
