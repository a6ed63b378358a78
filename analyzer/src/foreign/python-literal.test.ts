import { describe, expect, it } from 'vitest';
import { parsePythonLiteral } from './python-literal.js';

describe('parsePythonLiteral', () => {
  it('reads a dict as Python\'s repr writes it: quotes, escapes, None/True/False, numbers, nesting, tuples and sets as lists', () => {
    expect(parsePythonLiteral("{'city': 'Tokyo', 'units': None, 'days': 3, 'ratio': -0.5e-2, 'ok': True, 'tags': ('a', \"it's\"), 'ids': {1, 2}, 'nested': [{'k': False}], 1: 'one'}")).toEqual({
      city: 'Tokyo', units: null, days: 3, ratio: -0.005, ok: true, tags: ['a', "it's"], ids: [1, 2], nested: [{ k: false }], '1': 'one',
    });
    expect(parsePythonLiteral("{'path': 'C:\\\\app\\\\.env', 'note': 'line\\nnext \\x41\\u00e9\\U0001F600 \\'q\\''}")).toEqual({ path: 'C:\\app\\.env', note: "line\nnext Aé😀 'q'" });
    expect(parsePythonLiteral('[]')).toEqual([]);
    expect(parsePythonLiteral('{}')).toEqual({});
    expect(parsePythonLiteral("{'a': 1,}")).toEqual({ a: 1 });
  });

  it('is undefined for text that is not one literal whole: cut off, an object\'s repr, trailing text, prose', () => {
    for (const text of ["{'city': 'Tok", "{'when': datetime.date(2026, 1, 2)}", "{'a': 1} and more", 'Tokyo', "'Tokyo'", "{'a' 1}", "{'a': 1, 2}", '{1, 2: 3}']) {
      expect(parsePythonLiteral(text), text).toBeUndefined();
    }
  });

  it('reads no deeper than its limit (a hostile repr does not exhaust the stack)', () => {
    expect(parsePythonLiteral('['.repeat(100_000) + ']'.repeat(100_000))).toBeUndefined();
    expect(parsePythonLiteral('['.repeat(100) + ']'.repeat(100))).toBeDefined();
  });
});
