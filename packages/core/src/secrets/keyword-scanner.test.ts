import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordScanner, base64RunEnd, glueKeywordPositions, runKeywordPositions } from './keyword-scanner.js';
import { placeholderShape } from './placeholders.js';
import { HIDING_OPENERS } from './decoders.js';
import { entropyFromSum, shannonEntropy } from './value-filters.js';

/** Every (keyword, start) pair by brute force, case-insensitively. */
function naive(keywords: string[], text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  keywords.forEach((k, id) => {
    for (let i = lower.indexOf(k); i >= 0; i = lower.indexOf(k, i + 1)) out.push(`${id}@${i}`);
  });
  return out.sort();
}

function pairs(hits: number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < hits.length; i += 2) out.push(`${hits[i]}@${hits[i + 1]}`);
  return out.sort();
}

describe('KeywordScanner', () => {
  it('finds overlapping keywords case-insensitively, with their start offsets', () => {
    const s = new KeywordScanner(['pass', 'password', 'sword', 'ghp_'], 16);
    const { hits } = s.scan('my PassWord and GHP_ x');
    expect(pairs(hits)).toEqual(['0@3', '1@3', '2@6', '3@16'].sort());
  });

  it('matches a brute-force search on random texts (property)', () => {
    const alphabet = fc.constantFrom(...'abAB_-:/.x é1f'.split(''));
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: alphabet, minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.string({ unit: alphabet, maxLength: 400 }),
        (kws, text) => {
          const keywords = [...new Set(kws.map((k) => k.toLowerCase()))].filter((k) => !/[^\x00-\x7f]/.test(k));
          fc.pre(keywords.length > 0);
          const wasm = new KeywordScanner(keywords, 16);
          const js = new KeywordScanner(keywords, 16, false);
          expect(pairs(wasm.scan(text).hits)).toEqual(naive(keywords, text));
          expect(wasm.scan(text)).toEqual(js.scan(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds run keywords where a run of 16 or more token characters begins (after //, -, a glued escape), after - / + inside it, and anywhere in a run of mixed case and digits', () => {
    const s = new KeywordScanner(['ghp_', 'token'], 16, true, [true, false], [true, false]);
    const token = 'ghp_Zq8Wm2Lp5Tx9Kd4Vb7Nc3Rf6Yh1Gj0Ab';
    const at = (text: string) => pairs(s.scan(text).hits).filter((h) => h.startsWith('0@'));
    expect(at(`x ${token}`)).toEqual(['0@2']);
    expect(at(`git clone https://${token}@github.com`)).toEqual(['0@18']);
    expect(at(`{"env":"A=1\\n${token}"}`)).toEqual(['0@13']);
    expect(at(`{"env":"A=1\\u000a${token}"}`)).toEqual(['0@17']);
    expect(at(`{"env":"\\t/${token}"}`)).toEqual(['0@11']);
    expect(at('ghp_short x')).toEqual([]); // the run is shorter than 16
    // inside the run: after - / + (a token's left boundary accepts them), wherever they stand
    expect(at(`obs-${token}`)).toEqual(['0@4']);
    expect(at(`refs/heads/${token}`)).toEqual(['0@11']);
    expect(at(`abcdefghijklmnopqrstuvw-ghp_short`)).toEqual(['0@24']);
    // glued to a word: a glue keyword, in a run of small letters, capitals and digits (as a random
    // token makes it), for the rules with a proof to judge; not in a run of words, and not a
    // run keyword that is no glue keyword
    expect(pairs(new KeywordScanner(['ghp_'], 16, true, [true]).scan(`abcdefghp_${token.slice(4)}`).hits)).toEqual([]);
    expect(at(`abcdefghp_${token.slice(4)}`)).toEqual(['0@6']);
    expect(at(`deploy_${token}`)).toEqual(['0@7']);
    expect(at('abcdefghp_lowercase_words_only_here')).toEqual([]);
    expect(pairs(s.scan(`my token ${token}`).hits)).toContain('1@3'); // the other keyword, anywhere
  });

  it('orders many run-keyword hits appended out of order by start, as the scan finds them, WebAssembly and JavaScript alike', () => {
    // (one run holding two prefixes again and again: the hits of one come after all of the other's)
    const s = new KeywordScanner(['akia', 'ghp_', 'gh'], 16, true, [true, true, false], [false, true, false]);
    const text = 'xAKIAQ3EGRWZ7NPL4XBMV_ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5_'.repeat(200);
    const { hits } = s.scan(text);
    expect(hits.length / 2).toBeGreaterThan(400);
    for (let i = 2; i < hits.length; i += 2) {
      const [prev, at] = [hits[i - 1]!, hits[i + 1]!];
      expect(at > prev || (at === prev && ['akia', 'ghp_', 'gh'][hits[i]!]!.length >= ['akia', 'ghp_', 'gh'][hits[i - 2]!]!.length), `hit ${i / 2}`).toBe(true);
    }
    expect(new KeywordScanner(['akia', 'ghp_', 'gh'], 16, false, [true, true, false], [false, true, false]).scan(text).hits).toEqual(hits);
  });

  it('run keywords: WebAssembly, JavaScript and their definition agree on any text (property)', () => {
    const unit = fc.oneof(
      fc.constantFrom(...'aB9_-/+.:= \\\n"u0'.split('')),
      fc.constantFrom('ghp_', 'GHP_', 'sk_live_', 'SK', 'xoxb-', 'tok', 'token', 'é', '\\n', '\\u000a', '//'),
      fc.string({ unit: fc.constantFrom(...'AbCdEf0123456789xyz'.split('')), minLength: 8, maxLength: 30 }),
    );
    // (a two-character run keyword too: Twilio's `SK`)
    const keywords = ['ghp_', 'sk_live_', 'xoxb-', 'sk', 'token', 'tok'];
    const run = [true, true, true, true, false, false];
    const glue = [true, false, false, false, false, false];
    const wasm = new KeywordScanner(keywords, 16, true, run, glue);
    const js = new KeywordScanner(keywords, 16, false, run, glue);
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        // Definition: other keywords anywhere; run keywords at runKeywordPositions of every run of 16 or more.
        const expected = naive(keywords, text).filter((h) => !run[Number(h.split('@')[0])]);
        const isRun = (c: number) => /[A-Za-z0-9+/_-]/.test(String.fromCharCode(c));
        for (let i = 0; i < text.length; i++) {
          if (!isRun(text.charCodeAt(i)) || (i > 0 && isRun(text.charCodeAt(i - 1)))) continue;
          const end = base64RunEnd(text, i);
          if (end - i < 16) continue;
          for (const p of runKeywordPositions(text, i, end)) {
            keywords.forEach((k, id) => {
              if (run[id] && text.slice(p, p + k.length).toLowerCase() === k) expected.push(`${id}@${p}`);
            });
          }
          // and glue keywords at every other position of a run of mixed case and digits
          for (const p of glueKeywordPositions(text, i, end)) {
            keywords.forEach((k, id) => {
              if (glue[id] && text.slice(p, p + k.length).toLowerCase() === k) expected.push(`${id}@${p}`);
            });
          }
        }
        expect(pairs(wasm.scan(text).hits)).toEqual(expected.sort());
        expect(wasm.scan(text)).toEqual(js.scan(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('reports base64-alphabet runs of at least the minimum length, and % / backslash / `D:` presence', () => {
    const s = new KeywordScanner(['x'], 8);
    const text = 'short abcdeFgh1234 a/B+c_d-e9=f zabcdeFgh1234 abcdefgh1234 %41 \\"';
    const r = s.scan(text);
    const runs: string[] = [];
    for (let i = 0; i < r.runs.length; i += 2) runs.push(text.slice(r.runs[i], r.runs[i + 1]));
    // Not: too short, starting with z (cannot start base64 of ASCII), no uppercase.
    expect(runs).toEqual(['abcdeFgh1234', 'a/B+c_d-e9']);
    expect(r.percent).toBe(true);
    expect(r.backslash).toBe(true);
    expect(s.scan('plain').percent).toBe(false);
    expect(r.marker).toBe(false);
    for (const useWasm of [true, false]) {
      const scanner = new KeywordScanner(['x'], 16, useWasm);
      expect(scanner.scan('npm [REDACTED:npm-access-token]=v').marker).toBe(true);
      expect(scanner.scan('D :d: [redacted:x] D').marker).toBe(false);
      // the pair across a WebAssembly chunk's end (65,536 characters)
      expect(scanner.scan(`${'a'.repeat(65_535)}D:`).marker).toBe(true);
      expect(scanner.scan(`${'a'.repeat(65_535)}D`).marker).toBe(false);
    }
  });

  it('says whether a character that may hide text occurs, whatever the texts scanned before it (property)', () => {
    // A text outside ASCII leaves its code units in the WebAssembly memory: a shorter ASCII text
    // scanned after it must not read them (the narrowing's last step reads up to 15 code units past its end).
    const unit = fc.constantFrom('a', 'Z', '0', ' ', '\n', '\u007f', '\u00ad', '\u00e9', '\u200b', '\u2019', '\u8041', '\ufeff', '\uff47', '\uff0c', '\udb40', '\udc67', '\ud834');
    const text = fc.oneof(
      fc.string({ unit, maxLength: 80 }),
      fc.tuple(fc.integer({ min: 65_500, max: 65_600 }), fc.string({ unit, maxLength: 40 })).map(([n, tail]) => 'x'.repeat(n) + tail),
    );
    const wasm = new KeywordScanner(['ghp_'], 16);
    const js = new KeywordScanner(['ghp_'], 16, false);
    expect(wasm.usesWasm).toBe(true);
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (texts) => {
        for (const t of texts) {
          const hiding = [...Array(t.length).keys()].some((i) => HIDING_OPENERS[t.charCodeAt(i)] === 1);
          expect(wasm.scan(t).hidden).toBe(hiding);
          expect(js.scan(t).hidden).toBe(hiding);
        }
      }),
      { numRuns: 150 },
    );
    expect(wasm.scan('\u2019quoted\u2019 caf\u00e9 \u65e5\u672c\uff0c').hidden).toBe(false);
    expect(wasm.scan('ab\u200bcd').hidden).toBe(true);
  });

  it('reports runs that may be hex of text (after an optional 0x), not hashes, ids or numbers, WebAssembly and JavaScript alike', () => {
    const hexOf = (s: string) => Buffer.from(s).toString('hex');
    const encoded = hexOf('DB_PASSWORD=Tq9vLm2zR8wKp4\n');
    const text = [
      encoded,
      `0x${hexOf('token=ghp_abcdefghijklmnop')}`,
      hexOf('Basic Y2k6K0VJb19HQXVp').toUpperCase(),
      '9fceb02d0ae598e95dc970b74767f19372d61af8', // a commit id: starts 8-f
      '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', // a hash that starts 0-7
      '550e8400e29b41d4a716446655440000', // an id
      '20261205181000123456789012345678', // digits
      hexOf('short text'), // under 16 bytes
    ].join(' ');
    for (const useWasm of [true, false]) {
      const r = new KeywordScanner(['x'], 16, useWasm).scan(text);
      const runs: string[] = [];
      for (let i = 0; i < r.runs.length; i += 2) runs.push(text.slice(r.runs[i], r.runs[i + 1]));
      expect(runs).toEqual([encoded, `0x${hexOf('token=ghp_abcdefghijklmnop')}`, hexOf('Basic Y2k6K0VJb19HQXVp').toUpperCase()]);
    }
  });

  it('runs in WebAssembly, with the same results as the JavaScript loop across chunk boundaries', () => {
    const kws = ['ghp_', 'password', 'sk', '://'];
    const wasm = new KeywordScanner(kws, 16);
    const js = new KeywordScanner(kws, 16, false);
    expect(wasm.usesWasm).toBe(true);
    expect(js.usesWasm).toBe(false);
    // 200 K characters: four 64 K chunks, with keywords and runs straddling the boundaries.
    const unit = 'x password=abcdefghijklmnopQRSTUVWXYZ0123 é ghp_ %41 \\\\ SK :// Ab1';
    const text = unit.repeat(Math.ceil(200_000 / unit.length)).slice(0, 200_000) + 'abcdefghijklmnopqrstuvwxyz';
    const r = js.scan(text);
    expect(r.runs.length).toBeGreaterThan(0);
    expect(r.hits.length).toBeGreaterThan(0);
    expect(wasm.scan(text)).toEqual(r);
    expect(wasm.scan('')).toEqual(js.scan(''));
  });

  it('WebAssembly and JavaScript agree with brute force on any ASCII keywords and any UTF-16 text (property)', () => {
    // Characters that narrow to keyword bytes if the WebAssembly scan got the narrowing wrong:
    // U+0142 (low byte 'B'), U+8041 (saturates to 0), U+0161 (low byte 'a'), and é (U+00E9).
    const text = fc.string({
      unit: fc.constantFrom(...'aAbB_-:/.=+%\\ 1z9QXD\n'.split(''), '\u0142', '\u8041', '\u0161', 'é', 'ghp_', 'Bearer '),
      maxLength: 700,
    });
    const keyword = fc.string({ unit: fc.constantFrom(...'abAB_-:/.= 19zQ'.split('')), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(keyword, { minLength: 1, maxLength: 12 }), text, (kws, t) => {
        const keywords = [...new Set(kws.map((k) => k.toLowerCase()))];
        const wasm = new KeywordScanner(keywords, 16);
        const js = new KeywordScanner(keywords, 16, false);
        expect(wasm.usesWasm).toBe(true);
        expect(pairs(wasm.scan(t).hits)).toEqual(naive(keywords, t));
        expect(wasm.scan(t)).toEqual(js.scan(t));
      }),
      { numRuns: 300 },
    );
  });

  it('finds base64 runs that cross 16-character blocks and chunks exactly as the JavaScript loop does (property)', () => {
    // Runs with one or two character classes missing, next to text that has them, test that a
    // run's classes are counted within the run only.
    const piece = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'aZ09+/_-Kf'.split('')), minLength: 1, maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'abQZ_-'.split('')), minLength: 1, maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'ab09'.split('')), minLength: 1, maxLength: 40 }),
      // hex of text, and hex-like digits (runs that start 0-7 are checked apart)
      fc.string({ unit: fc.constantFrom(...'Az =\n~'.split('')), minLength: 1, maxLength: 30 }).map((s) => Buffer.from(s).toString('hex')),
      fc.string({ unit: fc.constantFrom(...'2367aF0d'.split('')), minLength: 1, maxLength: 40 }),
      fc.constantFrom(' ', '.', '=', '==', '\u0142', 'é', '"', ' 7', '.Q', ':a', '0x'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.integer({ min: 0, max: 70_000 }), (parts, pad) => {
        // The padding moves the runs across the 64 K chunk boundary.
        const t = ' '.repeat(pad) + parts.join('');
        const wasm = new KeywordScanner(['zz'], 16);
        const js = new KeywordScanner(['zz'], 16, false);
        expect(wasm.scan(t)).toEqual(js.scan(t));
      }),
      { numRuns: 300 },
    );
  });

  it('falls back to the JavaScript loop when a chunk has more hits than the WebAssembly buffer holds', () => {
    const kws = ['a', 'aa', 'aaa'];
    const wasm = new KeywordScanner(kws, 16);
    const text = 'a'.repeat(70_000);
    const { hits } = wasm.scan(text);
    expect(hits.length / 2).toBe(3 * text.length - 3);
    expect(wasm.scan(text)).toEqual(new KeywordScanner(kws, 16, false).scan(text));
  });

  it('profiles a range of the last scanned text exactly as the string functions measure it (property)', () => {
    const unit = fc.oneof(
      fc.constantFrom(...'aAxX01239$*{}.%<\n\r'.split('')),
      fc.constantFrom('\u00e9', '\u00ff', '\u0000', '\u0142', '\u2022', '\u2028', 'abcdefg', 'xxxx', 'zzzzzz'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 3 }),
    );
    const scanner = new KeywordScanner(['token'], 16);
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 120 }), fc.nat(), fc.nat(), (text, a, b) => {
        scanner.scan(text);
        const start = text.length === 0 ? 0 : a % text.length;
        const end = start + (text.length === 0 ? 0 : b % (text.length - start + 1));
        const value = text.slice(start, end);
        const sum = scanner.profileOf(text, start, end);
        const latin1 = !/[^\x01-\xfe]/.test(value); // 0x00 and 0xff are what narrowing makes of wider characters
        if (!latin1 || value.length === 0) {
          expect(sum).toBe(-1);
          return;
        }
        expect(entropyFromSum(value.length, sum)).toBe(shannonEntropy(value));
        expect(scanner.profileShape).toBe(placeholderShape(value));
      }),
      { numRuns: 2000 },
    );
    // Not the last text scanned: the caller measures the string itself.
    scanner.scan('token');
    expect(scanner.profileOf('other', 0, 5)).toBe(-1);
    expect(new KeywordScanner(['token'], 16, false).profileOf('token', 0, 5)).toBe(-1);
  });

  it('rejects non-ASCII and empty keywords', () => {
    expect(() => new KeywordScanner(['é'], 8)).toThrow(/not ASCII/);
    expect(() => new KeywordScanner([''], 8)).toThrow(/empty keyword/);
  });
});
