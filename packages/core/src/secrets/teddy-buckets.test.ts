import { describe, expect, it } from 'vitest';
import { BUILTIN_RULES } from './builtin-rules.js';
import { CREDENTIAL_KEY_WORDS } from './key-names.js';
import { SET_CHARS, TEDDY_BUCKETS, TEDDY_CHARS, assignBuckets, teddyTables } from './teddy-buckets.js';

/**
 * The prefixes the detector puts in the Teddy tables: keywords of rules that are not token
 * prefixes (those are looked for where runs begin) and a token prefix rule's keywordsAnywhere,
 * and the credential words of key-named rules.
 */
const builtinPrefixes = [
  ...new Set([...BUILTIN_RULES.flatMap((r) => (r.tokenPrefix !== true ? r.keywords : (r.keywordsAnywhere ?? []))), ...CREDENTIAL_KEY_WORDS].map((k) => k.toLowerCase().slice(0, TEDDY_CHARS))),
].sort(); // (sorted, as the scanner assigns them)

/** Buckets that accept `s` at the start, by the tables (the WebAssembly filter's logic). */
function accepted(tables: Uint8Array, s: string): number {
  let set = 0;
  let offset = 0;
  SET_CHARS.forEach((chars, t) => {
    let m = 0xff;
    for (let j = 0; j < chars; j++) {
      const c = (j < s.length ? s.charCodeAt(j) : 0) | 0x20;
      const at = offset + j * 32;
      m &= tables[at + (c & 15)]! & tables[at + 16 + (c >> 4)]!;
    }
    set |= m << (t * 8);
    offset += chars * 32;
  });
  return set;
}

describe('Teddy buckets', () => {
  it('puts every prefix in one of the buckets, the same way every time', () => {
    const a = assignBuckets(builtinPrefixes);
    expect(a).toHaveLength(builtinPrefixes.length);
    expect(a.every((b) => Number.isInteger(b) && b >= 0 && b < TEDDY_BUCKETS)).toBe(true);
    expect(assignBuckets(builtinPrefixes)).toEqual(a);
    expect(new Set(a).size).toBe(TEDDY_BUCKETS); // ~80 prefixes use every bucket
  });

  it('tables accept every prefix in its own bucket, in either case (no false negatives)', () => {
    const tables = teddyTables(builtinPrefixes);
    const buckets = assignBuckets(builtinPrefixes);
    builtinPrefixes.forEach((p, i) => {
      const bit = 1 << buckets[i]!;
      expect(accepted(tables, p) & bit, p).toBe(bit);
      expect(accepted(tables, p.toUpperCase()) & bit, p).toBe(bit);
      // A shorter prefix accepts any following character.
      if (p.length < TEDDY_CHARS) expect(accepted(tables, `${p}~~~`) & bit, p).toBe(bit);
    });
  });

  it('keeps common words of ordinary text out of every bucket', () => {
    const tables = teddyTables(builtinPrefixes);
    const words = ['the ', 'and ', 'for ', 'ion ', 'ing ', 'ent ', 'cons', 'resu', 'retu', 'func', 'var ', 'let ', 'mess', 'page'];
    const passed = words.filter((w) => accepted(tables, w) !== 0);
    expect(passed.length).toBeLessThanOrEqual(2);
  });
});
