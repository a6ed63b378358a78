import { describe, expect, it } from 'vitest';
import { flatten } from './flatten.js';
import { ProvenanceIndex, contextText, tagProvenance, tokenize } from './provenance.js';

const leafOf = (args: unknown, key: string) => flatten(args).leaves.find((l) => l.key === key)!;

describe('tokenize', () => {
  it('folds case and whitespace and canonicalises numbers', () => {
    expect(tokenize('  Q3   Roadmap\tSYNC ')).toEqual(['q3', 'roadmap', 'sync']);
    expect(tokenize('3.0 kg, 1,000 units, 007')).toEqual(['3', 'kg', '1000', 'units', '7']);
    expect(tokenize('to=US status')).toEqual(['to', 'us', 'status']);
  });
});

describe('tagProvenance', () => {
  const index = ProvenanceIndex.from({
    userText: 'Ship 3 parcels to Berlin; check the STATUS first. Mail Ana@Example.org',
    context: [
      { callId: 'c1', content: { city: 'Lisbon', zone: 'Europe/Lisbon' } },
      { callId: 'c2', content: 'Lisbon office code LIS-22' },
    ],
  });

  it('finds user text on token boundaries only', () => {
    expect(tagProvenance(leafOf({ to: 'US' }, 'to'), index, undefined).provenance).toBe('model_inferred');
    expect(tagProvenance(leafOf({ city: 'berlin' }, 'city'), index, undefined).provenance).toBe('user_explicit');
  });

  it('matches numbers by value', () => {
    expect(tagProvenance(leafOf({ n: 3.0 }, 'n'), index, undefined).provenance).toBe('user_explicit');
    expect(tagProvenance(leafOf({ n: '3.00' }, 'n'), index, undefined).provenance).toBe('user_explicit');
    expect(tagProvenance(leafOf({ n: 33 }, 'n'), index, undefined).provenance).toBe('model_inferred');
  });

  it('matches emails case-insensitively and whole', () => {
    expect(tagProvenance(leafOf({ email: 'ana@example.ORG' }, 'email'), index, undefined).provenance).toBe('user_explicit');
    expect(tagProvenance(leafOf({ email: 'ana@example.org.evil.io' }, 'email'), index, undefined).provenance).toBe('model_inferred');
  });

  it('records which tool result supplied a value, preferring the latest', () => {
    expect(tagProvenance(leafOf({ tz: 'Europe/Lisbon' }, 'tz'), index, undefined)).toEqual({ provenance: 'context_retrieved', sourceCallId: 'c1' });
    expect(tagProvenance(leafOf({ city: 'Lisbon' }, 'city'), index, undefined)).toEqual({ provenance: 'context_retrieved', sourceCallId: 'c2' });
  });

  it('never matches a text value shorter than two characters', () => {
    const idx = ProvenanceIndex.from({ userText: 'a note to a friend' });
    expect(tagProvenance(leafOf({ x: 'a' }, 'x'), idx, undefined).provenance).toBe('model_inferred');
  });

  it('checks schema defaults by full path, then path without indices, then leaf', () => {
    const defaults = { 'opts.mode': 'fast', tags: ['a1', 'b2'], unit: 'kg' };
    expect(tagProvenance(leafOf({ opts: { mode: 'fast' } }, 'opts.mode'), index, defaults)).toMatchObject({ provenance: 'schema_default', defaultKey: 'opts.mode' });
    expect(tagProvenance(leafOf({ tags: ['b2'] }, 'tags[0]'), index, defaults)).toMatchObject({ provenance: 'schema_default', defaultKey: 'tags' });
    expect(tagProvenance(leafOf({ w: { unit: 'kg' } }, 'w.unit'), index, defaults)).toMatchObject({ provenance: 'schema_default', defaultKey: 'unit' });
    expect(tagProvenance(leafOf({ opts: { mode: 'slow' } }, 'opts.mode'), index, defaults).provenance).toBe('model_inferred');
  });

  it('prefers user_explicit over a matching schema default', () => {
    expect(tagProvenance(leafOf({ city: 'Berlin' }, 'city'), index, { city: 'Berlin' }).provenance).toBe('user_explicit');
  });
});

describe('values the model rewrote from the user\'s words', () => {
  const index = ProvenanceIndex.from({
    userText: 'Text +1 (415) 555-0100 about the 1.299,00 EUR quote and 12,5 kg for our São_Paulo office',
    context: [{ callId: 'c1', content: 'ticket 8675309, total 4.500,00' }],
  });
  const provenance = (key: string, value: unknown) => tagProvenance(leafOf({ [key]: value }, key), index, undefined).provenance;

  it('a phone number with other separators, with or without its country code, is the user\'s', () => {
    expect(provenance('to', '+14155550100')).toBe('user_explicit');
    expect(provenance('to', '415-555-0100')).toBe('user_explicit');
    expect(provenance('to', '+1 415 555 0100')).toBe('user_explicit');
    // Other digits, or the user's inside a longer number, are not.
    expect(provenance('to', '+14155550199')).toBe('model_inferred');
    expect(provenance('to', '+141555501001')).toBe('model_inferred');
  });

  it('an amount written with a decimal comma is the same number', () => {
    expect(provenance('price', 1299)).toBe('user_explicit');
    expect(provenance('price', '1299.00')).toBe('user_explicit');
    expect(provenance('weight', 12.5)).toBe('user_explicit');
    expect(provenance('weight', 125)).toBe('model_inferred');
    // Only the user's words are read this way; a tool result's amount keeps its own matching.
    expect(provenance('total', 4500)).toBe('model_inferred');
    expect(provenance('ticket', 8675309)).toBe('context_retrieved');
  });

  it('Latin accents fold away: a model\'s accent-free spelling is the user\'s word', () => {
    expect(tokenize('América/São_Paulo')).toEqual(tokenize('America/Sao_Paulo'));
    expect(provenance('timezone', 'Sao_Paulo')).toBe('user_explicit');
    // Marks of other scripts are letters of their words, not accents: kept.
    expect(tokenize('नमस्ते')).not.toEqual(tokenize('नमसत'));
  });
});

describe('tokenize fast path', () => {
  it('property: equals the general path on any text', async () => {
    const fc = (await import('fast-check')).default;
    const { tokenizeForTest } = await import('./provenance.js');
    const ascii = fc.stringMatching(/^[ -~\t\n]{0,60}$/);
    const mixed = fc.string({ unit: 'grapheme', maxLength: 40 });
    const numbers = fc.array(fc.oneof(fc.double({ noNaN: true }).map(String), fc.integer().map(String), fc.constantFrom('1,000', '3.0', '007', 'v1.2', 'a.b.c', '..', '-', '+1e5')), { maxLength: 6 }).map((xs) => xs.join(' '));
    // Digits, commas and what may follow a thousands separator (`1,000`, `1,0000`, `1,000_`, `,000`).
    const separators = fc
      .array(fc.oneof(fc.integer({ min: 0, max: 99_999_999 }).map((n) => n.toLocaleString('en-US')), fc.constantFrom(',', '.', '_', 'a', 'Z', ' ', '-', '0', '000', ',000')), { maxLength: 6 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(ascii, mixed, numbers, separators), (t) => {
        expect(tokenize(t)).toEqual(tokenizeForTest.slow(t));
      }),
      { numRuns: 6000 },
    );
  });
});

describe('ProvenanceIndex source lookup', () => {
  // Short sources are scanned token by token, long ones looked up through a map of positions:
  // the same text padded past the threshold must answer every value the same way.
  it('property: a short source and the same source made long find the same values', async () => {
    const fc = (await import('fast-check')).default;
    const word = fc.constantFrom('ship', 'to', 'berlin', 'the', '3', '3.0', 'eu-west-1', 'Q3', 'roadmap', 'to', 'ana@example.org', 'x');
    const text = fc.array(word, { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' '));
    const padding = Array.from({ length: 200 }, (_, i) => `pad${i}`).join(' ');
    fc.assert(
      fc.property(text, fc.array(word, { minLength: 1, maxLength: 3 }), (source, value) => {
        const v = value.join(' ');
        fc.pre(v.length <= source.length); // a value longer than every source is answered before any lookup
        const short = ProvenanceIndex.from({ userText: source }).find(v)?.source;
        const long = ProvenanceIndex.from({ userText: `${padding} ${source} ${padding}` }).find(v)?.source;
        expect(long).toBe(short);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('contextText', () => {
  it('holds a result\'s object keys before their values, at any depth', () => {
    expect(contextText({ 'priya.k@corp-mail.io': { role: 'owner' }, n: [1, true] })).toBe('priya.k@corp-mail.io\nrole\nowner\nn\n1\ntrue');
    let deep: unknown = { secret: 'correct-horse-battery' };
    for (let i = 0; i < 100; i++) deep = { d: deep };
    expect(contextText(deep).endsWith('secret\ncorrect-horse-battery')).toBe(true);
    const cyclic: Record<string, unknown> = { a: 'x' };
    cyclic.self = cyclic;
    expect(contextText(cyclic)).toBe('a\nx\nself');
  });
  it('finds a value copied from an earlier result\'s key as retrieved', () => {
    const index = ProvenanceIndex.from({ context: [{ callId: 'c1', content: { 'priya.k@corp-mail.io': { role: 'owner' } } }] });
    expect(index.find('priya.k@corp-mail.io')).toEqual({ source: 'context', callId: 'c1' });
  });
});
