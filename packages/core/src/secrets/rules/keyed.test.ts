import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastWord } from './keyed.js';

/** The definition lastWord reads back from the end: split on separators and camelCase, the last non-empty word. */
const bySplit = (key: string): string => key.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w.length > 0).at(-1) ?? '';

describe('lastWord', () => {
  it('is the last word of snake, kebab, dotted and camelCase keys', () => {
    expect(lastWord('ALGOLIA_APP_ID')).toBe('ID');
    expect(lastWord('sentryAuthTokenFile')).toBe('File');
    expect(lastWord('dd.api-key__')).toBe('key');
    expect(lastWord('apiKEY')).toBe('KEY');
    expect(lastWord('v2Token')).toBe('Token');
    expect(lastWord('__')).toBe('');
  });

  it('splits keys as the split on separators and camelCase does (property)', () => {
    const unit = fc.constantFrom(...'aBz9_-.Q0x'.split(''), 'é');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 24 }), (key) => {
        expect(lastWord(key)).toBe(bySplit(key));
      }),
      { numRuns: 5000 },
    );
  });
});
