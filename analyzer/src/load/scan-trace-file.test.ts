import { describe, expect, it } from 'vitest';
import { ValueShapesSeen, valueShapesOf } from './scan-trace-file.js';

/** The shapes `text` shows when fed in two chunks split at `at`. */
function splitAt(text: string, at: number) {
  const bytes = Buffer.from(text);
  const seen = new ValueShapesSeen();
  seen.push(bytes.subarray(0, at));
  seen.push(bytes.subarray(at));
  return seen.found();
}

const attr = (value: unknown) => JSON.stringify({ attributes: [{ key: 'k', value }] });

describe('the value forms a trace file may hold, seen in its bytes before DuckDB reads it', () => {
  it.each([
    ['a map', attr({ kvlistValue: { values: [] } }), { protobufNames: false, structured: true }],
    ['an array inside an array', attr({ arrayValue: { values: [{ arrayValue: { values: [] } }] } }), { protobufNames: false, structured: true }],
    ['an array inside an array, second element', attr({ arrayValue: { values: [{ stringValue: 'a' }, { arrayValue: { values: [] } }] } }), { protobufNames: false, structured: true }],
    ['an array inside an array, pretty-printed', JSON.stringify(JSON.parse(attr({ arrayValue: { values: [{ arrayValue: { values: [] } }] } })), null, 2), { protobufNames: false, structured: true }],
    ['an array inside an array, after another field of its element', attr({ arrayValue: { values: [{ stringValue: null, arrayValue: { values: [] } }] } }), { protobufNames: false, structured: true }],
    ['a protobuf field name', attr({ string_value: 'x' }), { protobufNames: true, structured: false }],
    ['a field name spelled with an escaped letter', attr({ stringValue: 'x' }).replace('"stringValue"', '"\\u0073tringValue"'), { protobufNames: true, structured: true }],
    ['an escaped underscore', attr({ stringValue: 'x' }).replace('"stringValue"', '"string\\u005fValue"'), { protobufNames: true, structured: true }],
    ['the escapes JSON writers do write (Go: <, >, &; Python: what is not ASCII)', attr({ stringValue: '\\u003c\\u003e\\u0026\\u00e9\\u0000' }), { protobufNames: false, structured: false }],
    ['an array of strings (an attribute\'s own array)', attr({ arrayValue: { values: [{ stringValue: 'a' }] } }), { protobufNames: false, structured: false }],
    ['an array of strings, pretty-printed', JSON.stringify(JSON.parse(attr({ arrayValue: { values: [{ stringValue: 'a' }] } })), null, 2), { protobufNames: false, structured: false }],
    ['a nested array\'s key inside a JSON string value (escaped)', attr({ stringValue: JSON.stringify({ v: [{ arrayValue: 1 }] }) }), { protobufNames: false, structured: false }],
  ])('%s', (_name, text, shapes) => {
    expect(valueShapesOf(text)).toEqual(shapes);
    // Wherever the bytes are cut in two, across the key or the bytes before it, the answer is the same.
    for (let at = 0; at <= Buffer.byteLength(text); at++) expect(splitAt(text, at)).toEqual(shapes);
  });
});
