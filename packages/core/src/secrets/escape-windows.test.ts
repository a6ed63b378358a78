import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeWindows, type GlueSites } from './escape-windows.js';
import { couldBeBase64OfText } from './keyword-scanner.js';

// The definition escapeWindows implements, as regexes over the whole text.
const reference = (text: string, hits: readonly number[], sites: GlueSites = {}): number[] => {
  const pairs: [number, number][] = [];
  for (let i = 0; i < hits.length; i += 2) pairs.push([hits[i]!, hits[i + 1]!]);
  const windows: [number, number][] = [];
  // Escapes near a hit, and strong escapes anywhere.
  for (const m of text.matchAll(/\\(?:["/]|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})/g)) {
    const p = m.index;
    let q = p - 1;
    while (q >= 0 && text.charCodeAt(q) === 92) q--;
    const code = m[0].length > 2 ? parseInt(m[0].slice(2), 16) : -1;
    const strong = (code >= 0x20 && code <= 0x7e) || (m[0] === '\\/' && text.charCodeAt(q) === 58);
    if (strong || pairs.some(([, h]) => h - 2 <= p && p <= h + 64)) windows.push([p - 512, p + 512]);
  }
  // Glued escapes: a letter or digit last, standing for neither, right before where a match can begin.
  for (const m of text.matchAll(/\\(?:[bfnrt]|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2}))/g)) {
    const hex = m[1] ?? m[2];
    if (hex !== undefined && /\w/.test(String.fromCharCode(parseInt(hex, 16)))) continue;
    const p = m.index;
    const q = p + m[0].length;
    const rest = text.slice(q);
    const run = /^[A-Za-z0-9+/_-]*/.exec(rest)![0];
    const atHit = pairs.some(([k, h]) => q === h || ((sites.before?.[k] ?? 0) > 0 && h - sites.before![k]! - 6 <= p && p < h));
    const toRun = /^[A-Za-f]/.test(run) && run.length >= (sites.minRun ?? 16) && couldBeBase64OfText(text, q, q + run.length);
    const toWord = /^\w/.test(rest);
    if (atHit || (sites.anywhere === true ? toWord : toRun)) windows.push([p - 512, q + /^[^\s"'<>`\\]*/.exec(rest)![0].length + 512]);
  }
  windows.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [s, e] of windows.map(([s, e]) => [Math.max(0, s), Math.min(text.length, e)] as const)) {
    if (merged.length > 0 && s <= merged.at(-1)!) merged[merged.length - 1] = Math.max(merged.at(-1)!, e);
    else merged.push(s, e);
  }
  return merged;
};

describe('escapeWindows', () => {
  it('finds the windows the regex definition finds, for any text, hits and sites', () => {
    const piece = fc.constantFrom(
      '\\', '\\\\', '"', '/', ':', 'u', '00e9', 'u0041', 'u007f', 'u001f', 'u0020', 'x', 'password', ' ', 'é', '\\u12', 'ab'.repeat(40),
      'n', 't', 'b', 'r', 'f', 'u000a', 'u000A', 'u005f', 'ghp_', '\n', 'x67', 'x0a', 'x1b', 'x2', 'x5F', 'QmFzaWMgWTJrNkswVkpiMTlIUVhWcFJIUks=', 'A1b2C3d4E5f6G7h8', 'nA1b2C3d4E5f6G7h8',
    );
    const sites = fc.record({ before: fc.constant([0, 64, 0]), anywhere: fc.boolean(), minRun: fc.constantFrom(16, 20) });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 120 }), fc.array(fc.tuple(fc.nat(2), fc.nat()), { maxLength: 12 }), sites, (pieces, rawHits, s) => {
        const text = pieces.join('');
        const hits = rawHits.flatMap(([k, h]) => [k, text.length === 0 ? 0 : h % text.length]);
        expect(escapeWindows(text, hits, s)).toEqual(reference(text, hits, s));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes an escape from two characters before a hit to 64 after it, and no further', () => {
    for (const offset of [-3, -2, 0, 64, 65]) {
      const h = 600;
      const text = `${'a'.repeat(h + offset)}\\"${'a'.repeat(900)}`;
      const near = offset >= -2 && offset <= 64;
      expect(escapeWindows(text, [0, h])).toEqual(near ? [h + offset - 512, h + offset + 512] : []);
      expect(escapeWindows(text, [0, h])).toEqual(reference(text, [0, h]));
    }
  });

  it('opens a window at an escape glued to a keyword hit, reaching 512 past the token after it', () => {
    for (const escape of ['\\n', '\\t', '\\r', '\\b', '\\f', '\\u000a', '\\u00A0', '\\\\n']) {
      const token = `ghp_${'Ab3'.repeat(400)}`; // longer than a window
      const text = `${'a '.repeat(400)}${escape}${token} ${'a '.repeat(600)}`;
      const p = text.lastIndexOf('\\');
      const hit = p + 2 + (escape.includes('u') ? 4 : 0);
      expect(escapeWindows(text, [0, hit])).toEqual([p - 512, hit + token.length + 512]);
    }
  });

  it('does not glue an escape that stands for a word character, or one that is not right before a match', () => {
    // \u0041 is strong (printable ASCII): the usual window, not one stretched past the token.
    const text = `${'a '.repeat(400)}\\u0041ghp_${'x'.repeat(1000)} ${'a '.repeat(400)}`;
    expect(escapeWindows(text, [0, text.indexOf('ghp_')])).toEqual([800 - 512, 800 + 512]);
    // Not at the hit: \n then a space.
    expect(escapeWindows(`${'a '.repeat(400)}\\n ghp_x`, [0, 803])).toEqual([]);
  });

  it('takes glued escapes up to `before` characters ahead of a hit of a rule not anchored at its keyword', () => {
    const text = `${'a '.repeat(400)}\\n${'0'.repeat(36)}NRAL ${'a '.repeat(400)}`;
    const hit = text.indexOf('NRAL');
    expect(escapeWindows(text, [0, hit])).toEqual([]);
    expect(escapeWindows(text, [0, hit], { before: [64] })).toEqual([800 - 512, hit + 4 + 512]);
    expect(escapeWindows(text, [0, hit], { before: [30] })).toEqual([]);
  });

  it('opens a window at an escape glued to a base64 run, or with a keyword-less rule to any word', () => {
    const run = Buffer.from('Basic Y2k6K0VJb19HQXVpRHRK and more').toString('base64');
    const text = `${'a '.repeat(400)}\\n${run}\\n ${'a '.repeat(400)}`;
    expect(escapeWindows(text, [])).toEqual([800 - 512, 802 + run.length + 512]);
    const word = `${'a '.repeat(400)}\\nTKT-123456 ${'a '.repeat(400)}`;
    expect(escapeWindows(word, [])).toEqual([]);
    expect(escapeWindows(word, [], { anywhere: true })).toEqual([800 - 512, 812 + 512]);
  });
});
