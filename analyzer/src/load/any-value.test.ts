import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toAnyValue } from '../../../test/support/otlp-any-value.js';
import { WrongTypedAnyValue, anyValueJson } from './any-value.js';

const json = (v: unknown) => JSON.parse(anyValueJson(JSON.stringify(v))) as unknown;

describe('anyValueJson: an OTLP/JSON AnyValue as the plain JSON an emitter would have written as a string', () => {
  it('a map of arguments, nested maps and arrays', () => {
    const args = { city: 'New York', days: 3, metric: true, ratio: 0.5, tags: ['a', 'b'], config: { path: '/app/.env', retries: [1, 2] } };
    expect(json(toAnyValue(args))).toEqual(args);
  });

  it('any JSON value comes back as itself (keys such as "__proto__" included)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        // -0 has no JSON text of its own.
        const value = JSON.parse(JSON.stringify(v)) as unknown;
        expect(json(toAnyValue(value))).toEqual(value);
      }),
      { numRuns: 500 },
    );
  });

  it('reads DuckDB\'s to_json of the value struct: null fields are absent', () => {
    const text = JSON.stringify({ stringValue: null, intValue: null, doubleValue: null, boolValue: null, bytesValue: null, arrayValue: null, kvlistValue: toAnyValue({ a: 1 }).kvlistValue });
    expect(anyValueJson(text)).toBe('{"a":1}');
  });

  it('a key a map holds twice is written twice, as a JSON-string emitter would: a parser reads the last, a scan of the text reads every one', () => {
    const kv = { kvlistValue: { values: ['first', 'second', 'third'].map((v) => ({ key: 'token', value: { stringValue: v } })) } };
    const text = anyValueJson(JSON.stringify(kv));
    expect(text).toBe('{"token":"first","token":"second","token":"third"}');
    expect(JSON.parse(text)).toEqual({ token: 'third' });
  });

  it('50,000 repeats of one key are all written', () => {
    const kv = { kvlistValue: { values: Array.from({ length: 50_000 }, () => ({ key: 'a', value: { intValue: '1' } })) } };
    expect(anyValueJson(JSON.stringify(kv)).length).toBe(2 + 50_000 * 6 - 1);
  });

  it('a malformed value with several fields set keeps every one of them', () => {
    expect(json({ stringValue: 'shown', kvlistValue: toAnyValue({ hidden: 'x' }).kvlistValue })).toEqual(['shown', { hidden: 'x' }]);
    expect(json({ kvlistValue: { values: [] }, arrayValue: { values: [{ stringValue: 'also' }] } })).toEqual([{}, ['also']]);
  });

  it('reads the protobuf field names inside a map too', () => {
    expect(json({ kvlist_value: { values: [{ key: 'token', value: { string_value: 'x' } }, { key: 'n', value: { int_value: '2' } }] } })).toEqual({ token: 'x', n: 2 });
  });

  it('integers beyond 2^53 keep their digits; doubles may be quoted; bytes stay base64; an empty value is null', () => {
    expect(anyValueJson(JSON.stringify({ arrayValue: { values: [{ intValue: '9007199254740993' }, { doubleValue: '1.5' }, { doubleValue: 'NaN' }, { bytesValue: 'AAEC' }, {}] } }))).toBe(
      '[9007199254740993,1.5,"NaN","AAEC",null]',
    );
  });

  it.each([
    ['not JSON', '{"kvlistValue":'],
    ['a map that is a string', JSON.stringify({ kvlistValue: 'ghp_x' })],
    ['a map whose values are not a list', JSON.stringify({ kvlistValue: { values: 'ghp_x' } })],
    ['a list element that is not an AnyValue', JSON.stringify({ arrayValue: { values: ['ghp_x'] } })],
    ['a key that is not a string', JSON.stringify({ kvlistValue: { values: [{ key: { k: 'ghp_x' }, value: {} }] } })],
    ['an integer holding an object', JSON.stringify({ kvlistValue: { values: [{ key: 'a', value: { intValue: { k: 'ghp_x' } } }] } })],
    ['a boolean holding text', JSON.stringify({ arrayValue: { values: [{ boolValue: 'ghp_x' }] } })],
    ['a double holding text', JSON.stringify({ arrayValue: { values: [{ doubleValue: 'ghp_x' }] } })],
  ])('%s is refused, as the typed read refuses it, with a message that quotes nothing', (_name, text) => {
    expect(() => anyValueJson(text)).toThrow(WrongTypedAnyValue);
    try {
      anyValueJson(text);
    } catch (err) {
      expect((err as Error).message).toBe('a value of the wrong type for its field');
    }
  });

  it('deeper than 64 levels, the rest is kept as its OTLP/JSON text, a string: nothing in it is lost', () => {
    let deep: unknown = { stringValue: 'ghp_deep' };
    for (let i = 0; i < 100; i++) deep = { arrayValue: { values: [deep] } };
    const text = anyValueJson(JSON.stringify(deep));
    expect(text).toContain('ghp_deep');
    let v = JSON.parse(text) as unknown;
    let depth = 0;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect(depth).toBe(64);
    expect(typeof v).toBe('string');
  });

  it('a key that is absent is the empty key; a value that is absent is null', () => {
    expect(json({ kvlistValue: { values: [{ value: { stringValue: 'x' } }, { key: 'b' }] } })).toEqual({ '': 'x', b: null });
  });
});
