import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completePrefixOfCutJson, textOfCutString } from './cut-json.js';

describe('completePrefixOfCutJson', () => {
  it('keeps the complete members before the cut, closes what the cut left open, and says where the rest starts', () => {
    const text = '{"path": "/app/.env", "n": 12, "opts": {"force": true, "tags": ["a", "b"]}, "content": "A=1\\nB=';
    const part = completePrefixOfCutJson(text)!;
    expect(part.value).toEqual({ path: '/app/.env', n: 12, opts: { force: true, tags: ['a', 'b'] } });
    expect(text.slice(part.restAt)).toBe('"content": "A=1\\nB=');
    // (cut inside a nested object: its complete members kept too)
    expect(completePrefixOfCutJson('{"a": {"b": 1, "c": [1, 2')?.value).toEqual({ a: { b: 1, c: [1] } });
  });

  it('says where each container the cut left open opens, outermost first', () => {
    const text = '[{"role": "model", "parts": [{"functionCall": {"name": "write_file", "args": {"file_path": "a", "content": "x';
    const part = completePrefixOfCutJson(text)!;
    expect(part.openAt.map((at) => text.slice(at, at + 3))).toEqual(['[{"', '{"r', '[{"', '{"f', '{"n', '{"f']);
    // (closed containers are not among them; the list is as it was at the last complete value)
    expect(completePrefixOfCutJson('[{"a": [1, 2]}, {"b": 3, "c": "x')!.openAt).toEqual([0, 16]);
    expect(completePrefixOfCutJson('{"a": 1, "b": {"c"')!.openAt).toEqual([0]);
  });

  it('counts a number or literal whole only where a delimiter follows it, and a name without its value not at all', () => {
    expect(completePrefixOfCutJson('{"a": 1, "b": 12')?.value).toEqual({ a: 1 });
    expect(completePrefixOfCutJson('{"a": 1, "b": tru')?.value).toEqual({ a: 1 });
    expect(completePrefixOfCutJson('{"a": 1, "b"')?.value).toEqual({ a: 1 });
    expect(completePrefixOfCutJson('{"a": 1, "b": "x\\')?.value).toEqual({ a: 1 });
    // (an emitter's marker after the cut is not a value)
    expect(completePrefixOfCutJson('{"a": 1, "b": 2...[TRUNCATED: original length 99]')?.value).toEqual({ a: 1 });
  });

  it('nothing for a whole value, for text that is not an object or array, and for a cut before any member', () => {
    for (const text of ['{"a": 1}', '[1, 2]', '"abc', 'abc', '{"a": ', '{', '  [', '{"a" 1, "b": 2'])
      expect(completePrefixOfCutJson(text), text).toBeUndefined();
  });

  it('every cut of any JSON object gives members the object holds (each complete), and the text from its rest', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1 }), fc.nat(), (object, at) => {
        const text = JSON.stringify(object);
        const cut = text.slice(0, 1 + (at % (text.length - 1)));
        const part = completePrefixOfCutJson(cut);
        if (part === undefined) return;
        // the value is the object read so far: each of its keys the object's, with a complete value or a prefix of a container
        expect(Object.keys(part.value as object).every((k) => k in object)).toBe(true);
        const keys = Object.keys(part.value as object);
        for (const k of keys.slice(0, -1)) expect((part.value as Record<string, unknown>)[k]).toEqual(JSON.parse(JSON.stringify(object[k])));
        expect(cut.startsWith(cut.slice(0, part.restAt))).toBe(true);
        // each open container opens at a brace or bracket, each inside the one before it
        expect(part.openAt[0]).toBe(0);
        for (const [k, at] of part.openAt.entries()) {
          expect('{['.includes(cut[at]!)).toBe(true);
          if (k > 0) expect(at).toBeGreaterThan(part.openAt[k - 1]!);
        }
      }),
    );
  });
});

describe('textOfCutString', () => {
  it('reads a string cut before its closing quote as far as it is whole: an escape the cut went through dropped', () => {
    expect(textOfCutString('{"input": "{\\"path\\": \\"/app', 10)).toBe('{"path": "/app');
    expect(textOfCutString('"a\\u00', 0)).toBe('a');
    expect(textOfCutString('"a\\\\\\', 0)).toBe('a\\');
    // (a string that closes is not cut)
    expect(textOfCutString('"abc" ', 0)).toBeUndefined();
    expect(textOfCutString('abc', 0)).toBeUndefined();
  });

  it('gives a prefix of the string for any cut of its JSON text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(), (value, k) => {
        const text = JSON.stringify(value);
        const cut = text.slice(0, 1 + (k % (text.length - 1)));
        const read = textOfCutString(cut, 0);
        expect(read).toBeDefined();
        expect(value.startsWith(read!)).toBe(true);
      }),
    );
  });
});
