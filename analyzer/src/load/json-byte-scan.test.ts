import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonByteScanLoop, JsonByteScanner, MAX_JSON_NESTING, scanJsonBytes } from './json-byte-scan.js';

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

/** Byte strings that JSON structure, escapes and UTF-8 are made of, well-formed or not. */
const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('"', '\\', '\n', '[', ']', '{', '}', ':', ',', '\\"', '\\\\', '\\\\\\', '\\\\\\\\\\', '"\\"', '\\\n', '\\u00e9').map((s) => Buffer.from(s)) },
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom('a', 'k', '1', ' ', '-'), maxLength: 40 }).map((s) => Buffer.from(s)) },
  { weight: 2, arbitrary: fc.constantFrom('é', '€', '😀', '中文').map((s) => Buffer.from(s)) },
  // Bytes that are not UTF-8, or not on their own: continuation, overlong, surrogate, past U+10FFFF, a cut-off lead.
  { weight: 1, arbitrary: fc.constantFrom([0x80], [0xbf], [0xc0, 0xaf], [0xc3], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f], [0xff]).map((b) => Buffer.from(b)) },
);
const textArb = fc.array(fragment, { maxLength: 300, size: 'max' }).map((parts) => Buffer.concat(parts));

/** `text` fed to `scanner` in chunks of the given sizes (cycled). */
function feed(scanner: { push(buf: Uint8Array): void; end(): unknown }, text: Uint8Array, sizes: readonly number[]) {
  for (let i = 0, at = 0; at < text.length; i++) {
    scanner.push(text.subarray(at, at + sizes[i % sizes.length]!));
    at += sizes[i % sizes.length]!;
  }
  return scanner.end();
}

describe('JSON byte scan: WebAssembly and JavaScript loop', () => {
  it('find the same for any bytes, however cut into chunks, in both modes and at any depth limit (property)', () => {
    const sizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 60, max: 200 }), fc.constant(1 << 20)), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(textArb, fc.constantFrom<'lines' | 'document'>('lines', 'document'), fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant(MAX_JSON_NESTING)), sizes, (text, mode, maxDepth, cuts) => {
        expect(feed(new JsonByteScanner(mode, maxDepth), text, cuts)).toEqual(feed(new JsonByteScanLoop(mode, maxDepth), text, cuts));
      }),
      { seed: 20261204, numRuns: 3000 },
    );
  });

  it('follow an escape wherever a block of bytes ends: between the backslashes, or before the quote', () => {
    for (let pad = 0; pad < 140; pad++) {
      const a = 'a'.repeat(pad);
      const b = 'b'.repeat(70); // so that the next block is whole too
      for (const mode of ['lines', 'document'] as const) {
        // An escaped quote: the brackets after it are in the string.
        expect(scanJsonBytes(bytes(`{"s":"${a}\\"[[[[${b}"}\n`), mode, 1), `pad ${pad}`).toEqual({ lines: 1, tooDeep: [], invalidUtf8: [] });
        // An escaped backslash, then the closing quote: they are not.
        expect(scanJsonBytes(bytes(`{"s":"${a}\\\\"[[]] ${b.replaceAll('b', ' ')}}\n`), mode, 1), `pad ${pad}`).toEqual({ lines: 1, tooDeep: [1], invalidUtf8: [] });
        expect(scanJsonBytes(bytes(`{"s":"${a}\\\\\\"[[[[${b}"}\n`), mode, 1), `pad ${pad}`).toEqual({ lines: 1, tooDeep: [], invalidUtf8: [] });
        // An escaped quote, then the closing one: the brackets after that count.
        expect(scanJsonBytes(bytes(`{"s":"${a}\\"x"[[]] ${b.replaceAll('b', ' ')}}\n`), mode, 1), `pad ${pad}`).toEqual({ lines: 1, tooDeep: [1], invalidUtf8: [] });
      }
    }
  });

  it('find the same in texts longer than one WebAssembly call takes', () => {
    const text = Buffer.concat(fc.sample(textArb, { seed: 7, numRuns: 600 }));
    expect(text.length).toBeGreaterThan(3 << 16);
    for (const mode of ['lines', 'document'] as const) {
      for (const cuts of [[1 << 20], [65_537, 3], [100_003]]) {
        expect(feed(new JsonByteScanner(mode, 3), text, cuts)).toEqual(feed(new JsonByteScanLoop(mode, 3), text, cuts));
        expect(feed(new JsonByteScanner(mode), text, cuts)).toEqual(feed(new JsonByteScanLoop(mode), text, cuts));
      }
    }
  });
});
