import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlaceholder, shannonEntropy } from './value-filters.js';

/** The definitions, written plainly. */
function referenceEntropy(value: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < value.length; i++) counts.set(value.charCodeAt(i), (counts.get(value.charCodeAt(i)) ?? 0) + 1);
  let h = 0;
  for (const k of counts.values()) h -= (k / value.length) * Math.log2(k / value.length);
  return Math.max(0, h);
}

const PLACEHOLDER_REFERENCE = [
  /\$\{|\{\{|\}\}|\$\(|<[^>]{0,40}>|%[A-Z_]{2,}%|x{4,}|\*{3,}|\.{3}|•|example|changeme|change_me|placeholder|dummy|redacted|your[_-]|[_-]here\b|insert[_-]|replace[_-]?me|fake|sample|<.+|\bnull\b|undefined/i,
  /^\$[A-Za-z_]/,
  /([^\n\r\u2028\u2029])\1{5}/,
  /0123456|1234567|abcdefgh|ABCDEFGH/,
];
const referencePlaceholder = (value: string): boolean => PLACEHOLDER_REFERENCE.some((re) => re.test(value));

// Text that reaches every branch: ASCII, characters whose low seven bits alias ASCII ones
// (\u00e1 and 'a'), surrogates, marker characters, sequences and repeats.
const piece = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('a', 'á', 'ᅡ', '\ud83d\ude00', 'x', 'X', '*', '.', '$', '{', '}', '<', '>', '%', '_', '-', '•', '\n', '0123456', 'abcdefgh', 'EXAMPLE', 'here', 'null', 'Sample'),
);
const text = fc.array(piece, { maxLength: 30 }).map((p) => p.join(''));

describe('shannonEntropy', () => {
  it('matches the definition for any text, and keeps no state between calls', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(shannonEntropy(a)).toBeCloseTo(referenceEntropy(a), 9);
        expect(shannonEntropy(b)).toBeCloseTo(referenceEntropy(b), 9);
        expect(shannonEntropy(a)).toBeCloseTo(referenceEntropy(a), 9);
      }),
      { numRuns: 3000 },
    );
  });

  it('does not let a character alias another by its low bits', () => {
    expect(shannonEntropy('aá')).toBe(1);
    expect(shannonEntropy('aaaa')).toBe(0);
  });
});

describe('isPlaceholder', () => {
  it('matches its definition for any text', () => {
    fc.assert(
      fc.property(text, (v) => {
        expect(isPlaceholder(v)).toBe(referencePlaceholder(v));
      }),
      { numRuns: 3000 },
    );
  });
});
