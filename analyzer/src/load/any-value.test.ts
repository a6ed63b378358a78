import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toAnyValue } from '../../../test/support/otlp-any-value.js';
import { anyValueJson } from './any-value.js';

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

  it('a key a map holds twice keeps both values (key#2), so a later one cannot hide a secret', () => {
    const kv = { kvlistValue: { values: [{ key: 'token', value: { stringValue: 'first' } }, { key: 'token', value: { stringValue: 'second' } }, { key: 'token', value: { stringValue: 'third' } }] } };
    expect(json(kv)).toEqual({ token: 'first', 'token#2': 'second', 'token#3': 'third' });
  });

  it('a malformed value with several fields set keeps every one of them', () => {
    expect(json({ stringValue: 'shown', kvlistValue: toAnyValue({ hidden: 'x' }).kvlistValue })).toEqual(['shown', { hidden: 'x' }]);
  });

  it('integers beyond 2^53 keep their digits; bytes stay base64; an empty value is null', () => {
    expect(json(toAnyValue([1]))).toEqual([1]);
    expect(json({ arrayValue: { values: [{ intValue: '9007199254740993' }, { bytesValue: 'AAEC' }, {}] } })).toEqual(['9007199254740993', 'AAEC', null]);
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

  it('text that is not JSON, or JSON that is not an AnyValue, is kept as it is', () => {
    expect(anyValueJson('{not json')).toBe('{not json');
    expect(anyValueJson('[1,2]')).toBe('[1,2]');
    expect(json({ kvlistValue: { values: [{ key: 'a' }, 'junk', { key: 7, value: { stringValue: 'x' } }] } })).toEqual({ a: null, '7': 'x' });
  });
});
