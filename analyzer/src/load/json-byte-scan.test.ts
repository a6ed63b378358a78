import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonByteScanner, MAX_JSON_NESTING, scanJsonBytes } from './json-byte-scan.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');
const nest = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

/** The same text fed in chunks cut at the given sizes (cycled). */
function scanChunked(text: Uint8Array, mode: 'lines' | 'document', sizes: readonly number[]) {
  const scanner = new JsonByteScanner(mode);
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length]!);
    scanner.push(text.subarray(at, at + n));
    at += n;
  }
  return scanner.end();
}

describe('JSON byte scan: nesting', () => {
  it(`accepts ${MAX_JSON_NESTING} levels and flags one more, by line`, () => {
    const text = bytes(`{"a":${nest(MAX_JSON_NESTING - 1)}}\n{"a":${nest(MAX_JSON_NESTING)}}\n{"b":1}\n`);
    expect(scanJsonBytes(text, 'lines')).toEqual({ lines: 3, tooDeep: [2], invalidUtf8: [] });
  });

  it('does not count brackets inside strings, and follows escapes', () => {
    const quoted = `{"s":"${'['.repeat(5000)}","t":"\\"${'{'.repeat(5000)}\\\\"}`;
    expect(scanJsonBytes(bytes(quoted), 'lines').tooDeep).toEqual([]);
    // An escaped backslash ends the string: the brackets after it count.
    expect(scanJsonBytes(bytes(`{"s":"\\\\",${'['.repeat(2000)}`), 'lines').tooDeep).toEqual([1]);
  });

  it('starts every JSON line afresh: an unclosed string or bracket does not carry over', () => {
    const text = bytes(`{"s":"open\n${'['.repeat(600)}\n${'['.repeat(600)}\n`);
    expect(scanJsonBytes(text, 'lines').tooDeep).toEqual([]);
    // A document is one value: its nesting goes on across lines, and the first deep line is named.
    expect(scanJsonBytes(bytes(`{\n${'[\n'.repeat(1200)}`), 'document').tooDeep).toEqual([1001]);
  });

  it('closing brackets cannot buy nesting credit', () => {
    expect(scanJsonBytes(bytes(`${']'.repeat(5000)}${'['.repeat(1001)}`), 'lines').tooDeep).toEqual([1]);
  });

  it('counts a last line without a newline', () => {
    expect(scanJsonBytes(bytes('{}\n{}'), 'lines').lines).toBe(2);
    expect(scanJsonBytes(bytes('{}\n{}\n'), 'lines').lines).toBe(2);
    expect(scanJsonBytes(bytes(''), 'lines').lines).toBe(0);
  });
});

describe('JSON byte scan: UTF-8', () => {
  it('names the lines with bytes that are not UTF-8, inside strings or out', () => {
    const text = Buffer.concat([bytes('{"s":"caf\u00e9 \u{1F600}"}\n{"s":"'), Buffer.from([0xff]), bytes('"}\n'), Buffer.from([0xc3]), bytes('\n{"ok":1}\n')]);
    expect(scanJsonBytes(text, 'lines')).toEqual({ lines: 4, tooDeep: [], invalidUtf8: [2, 3] });
  });

  it('rejects overlong forms, surrogates and code points past U+10FFFF, as the standard does', () => {
    for (const bad of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xe2, 0x82]]) {
      expect(scanJsonBytes(Buffer.from(bad), 'lines').invalidUtf8, bad.join(',')).toEqual([1]);
    }
  });

  it('agrees with Node\'s UTF-8 validator line by line, however the text is cut into chunks (property)', () => {
    const byteLine = fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(0x22, 0x5c, 0x5b)), { maxLength: 24 });
    fc.assert(
      fc.property(fc.array(byteLine, { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }), (lines, sizes) => {
        const text = Buffer.from(lines.flatMap((l) => [...l, 0x0a]));
        const expected = lines.flatMap((l, i) => (isUtf8(Buffer.from(l)) ? [] : [i + 1]));
        expect(scanChunked(text, 'lines', sizes).invalidUtf8).toEqual(expected);
        expect(scanJsonBytes(text, 'lines').invalidUtf8).toEqual(expected);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('finds the same deep lines whatever the chunk size', () => {
    const text = bytes(`{"a":"[[["}\n{"b":${nest(1500)}}\n{"c":"\\"${'['.repeat(1500)}"}\n{"d":${nest(1001)}}\n`);
    for (const sizes of [[1], [2, 3], [7], [4096]]) expect(scanChunked(text, 'lines', sizes).tooDeep).toEqual([2, 4]);
  });
});
