import { describe, expect, it } from 'vitest';
import { flatten, formatPath } from './flatten.js';

describe('formatPath', () => {
  it('writes identifiers dotted, indices in brackets and other keys quoted', () => {
    expect(formatPath(['attendee', 'email'])).toBe('attendee.email');
    expect(formatPath(['files', 2, 'path'])).toBe('files[2].path');
    expect(formatPath(['headers', 'x-api-key'])).toBe('headers["x-api-key"]');
    expect(formatPath(['a b', 'c"d'])).toBe('["a b"]["c\\"d"]');
    expect(formatPath([])).toBe('$');
  });
});

describe('flatten', () => {
  it('produces leaves with full paths and leaf names', () => {
    const r = flatten({ attendee: { email: 'a@b.co', name: 'A' }, files: [{ path: 'x' }, { path: 'y' }, { path: 'z' }] });
    expect(r.leaves.map((l) => [l.key, l.leaf])).toEqual([
      ['attendee.email', 'email'],
      ['attendee.name', 'name'],
      ['files[0].path', 'path'],
      ['files[1].path', 'path'],
      ['files[2].path', 'path'],
    ]);
    expect(r.limits).toEqual([]);
  });

  it('names array elements after their array', () => {
    const r = flatten({ to: ['a@x.io', 'b@x.io'] });
    expect(r.leaves.map((l) => [l.key, l.leaf])).toEqual([
      ['to[0]', 'to'],
      ['to[1]', 'to'],
    ]);
  });

  it('keeps empty containers visible so their keys are still inspected', () => {
    const r = flatten({ password: {}, list: [] });
    expect(r.leaves.map((l) => l.key)).toEqual(['password', 'list']);
  });

  it('reports a cycle instead of recursing forever', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const r = flatten(a);
    expect(r.limits).toContain('cycle');
    expect(r.leaves.find((l) => l.key === 'self')?.truncated).toBe(true);
  });

  it('visits a shared (non-cyclic) object twice', () => {
    const shared = { v: 'x' };
    expect(flatten({ a: shared, b: shared }).leaves.map((l) => l.key)).toEqual(['a.v', 'b.v']);
  });

  it('summarises nesting beyond maxDepth and reports it', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const r = flatten(deep, { maxDepth: 10 });
    expect(r.limits).toContain('depth');
    expect(r.leaves).toHaveLength(1);
    expect(r.leaves[0]!.truncated).toBe(true);
  });

  it('writes a summary too deep for JSON.stringify without recursion, so what it holds is read', () => {
    // As JSON.parse makes a JSON line of 10,000 levels: JSON.stringify's stack overflows on it.
    const text = `${'{"d":['.repeat(10_000)}{"token":"ghp_x","n":1.5,"ok":true,"none":null}${']}'.repeat(10_000)}`;
    const deep = JSON.parse(text) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const r = flatten(deep, { maxDepth: 10 });
    expect(r.leaves).toHaveLength(1);
    // the subtree's own JSON (text is compact JSON: the summary is a piece of it), cut at maxStringLength
    const summary = r.leaves[0]!.text;
    expect(summary.length).toBeGreaterThan(0);
    expect(text.includes(summary)).toBe(true);
    expect(flatten(deep, { maxDepth: 10, maxStringLength: 1 << 20 }).leaves[0]!.text).toContain('{"token":"ghp_x","n":1.5,"ok":true,"none":null}');
    expect(flatten(deep, { maxDepth: 10, maxStringLength: 100 }).leaves[0]!.text).toHaveLength(100);
  });

  it('counts leaves past maxLeaves without walking them', () => {
    const r = flatten({ big: new Array(10_000_000).fill(1) }, { maxLeaves: 1000 });
    expect(r.leaves).toHaveLength(1000);
    expect(r.droppedLeaves).toBe(10_000_000 - 1000);
    expect(r.limits).toContain('leaves');
  });

  it('truncates huge strings but counts all their bytes', () => {
    const r = flatten({ s: 'é'.repeat(100) }, { maxStringLength: 10 });
    expect(r.leaves[0]!.text).toHaveLength(10);
    expect(r.leaves[0]!.bytes).toBe(200);
    expect(r.leaves[0]!.truncated).toBe(true);
    expect(r.limits).toContain('string');
  });

  it('turns non-JSON values into leaves and reports them', () => {
    const r = flatten({
      buf: Buffer.from('hello'),
      date: new Date(Date.UTC(2026, 0, 2)),
      bad: new Date(Number.NaN),
      map: new Map([['k', 'v']]),
      set: new Set(['s']),
      big: 12345678901234567890n,
      undef: undefined,
      fn: () => 1,
      sym: Symbol('tag'),
      nan: Number.NaN,
    });
    const by = Object.fromEntries(r.leaves.map((l) => [l.key, l]));
    expect(by.buf).toMatchObject({ kind: 'binary', text: 'hello', bytes: 5 });
    expect(by.date).toMatchObject({ kind: 'date', text: '2026-01-02T00:00:00.000Z' });
    expect(by.bad).toMatchObject({ text: 'Invalid Date' });
    expect(by['map.k']).toMatchObject({ text: 'v' });
    expect(by['set[0]']).toMatchObject({ text: 's' });
    expect(by.big).toMatchObject({ kind: 'bigint', text: '12345678901234567890' });
    expect(by.undef).toMatchObject({ kind: 'undefined', text: '' });
    expect(by.fn).toMatchObject({ kind: 'function', text: '' });
    expect(by.sym).toMatchObject({ kind: 'symbol', text: 'tag' });
    expect(by.nan).toMatchObject({ kind: 'number', text: 'NaN' });
    expect(r.limits).toContain('non-json');
  });

  it('reads a Buffer as JSON writes it ({"type":"Buffer","data":[…]}) as the Buffer itself', () => {
    const buf = Buffer.from('héllo');
    const r = flatten(JSON.parse(JSON.stringify({ buf })) as unknown);
    expect(r.leaves).toHaveLength(1);
    expect(r.leaves[0]).toMatchObject({ key: 'buf', kind: 'binary', text: 'héllo', bytes: buf.length, truncated: false });
    expect(flatten({ buf }).leaves[0]).toMatchObject({ key: 'buf', kind: 'binary', text: 'héllo', bytes: buf.length });
    // cut as a Buffer's text is
    const long = flatten({ type: 'Buffer', data: [...Buffer.from('abcdef')] }, { maxStringLength: 4 });
    expect(long.leaves[0]).toMatchObject({ key: '$', text: 'abcd', bytes: 6, truncated: true });
    expect(long.limits).toContain('string');
    // anything else of that look stays an object
    for (const other of [
      { type: 'Buffer', data: [] },
      { type: 'Buffer', data: [1, 256] },
      { type: 'Buffer', data: [1.5] },
      { type: 'Buffer', data: ['1'] },
      { type: 'buffer', data: [1] },
      { type: 'Buffer', data: [1], more: 1 },
    ]) {
      expect(flatten(other).leaves.every((l) => l.kind !== 'binary')).toBe(true);
    }
  });

  it('reads text in binary data of any width: UTF-16 (a 16-bit array, or bytes that are UTF-16), code points in a 32-bit array', () => {
    const text = 'token=ghp_abc';
    const cases: unknown[] = [
      Uint16Array.from(text, (c) => c.charCodeAt(0)),
      Uint32Array.from(text, (c) => c.codePointAt(0)!),
      Buffer.from(text, 'utf16le'),
      Buffer.from(text, 'utf16le').swap16(),
      JSON.parse(JSON.stringify(Buffer.from(text, 'utf16le'))) as unknown,
    ];
    for (const value of cases) expect(flatten({ value }).leaves[0]!.text).toContain(text);
    // plain UTF-8 bytes read as they are, nothing added
    expect(flatten({ value: Buffer.from(text) }).leaves[0]!.text).toBe(text);
  });

  it('honours a toJSON of any object, as JSON.stringify does: an array, a Map, binary data of a subclass, with its key', () => {
    const arr = Object.assign(['a'], { toJSON: () => ['sent'] });
    const map = Object.assign(new Map([['k', 'v']]), { toJSON: () => ({ sent: 1 }) });
    class Tagged extends Uint8Array {
      toJSON() {
        return 'sent';
      }
    }
    const keyed = { toJSON: (key: string) => `key ${key}` };
    const by = Object.fromEntries(flatten({ arr, map, bin: new Tagged([104]), keyed }).leaves.map((l) => [l.key, l.text]));
    expect(by).toEqual({ 'arr[0]': 'sent', 'map.sent': '1', bin: 'sent', keyed: 'key keyed' });
  });

  it('survives throwing getters, throwing toJSON and hostile proxies', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    const r = flatten({
      get boom(): string { throw new Error('getter'); },
      j: { toJSON: () => { throw new Error('toJSON'); } },
      p: hostile,
      ok: 'fine',
    });
    expect(r.leaves.find((l) => l.key === 'ok')?.text).toBe('fine');
    expect(r.limits).toContain('non-json');
  });

  it('uses toJSON like JSON.stringify does', () => {
    const r = flatten({ u: new URL('https://example.com/a') });
    expect(r.leaves[0]).toMatchObject({ key: 'u', text: 'https://example.com/a' });
  });

  it('reads boxed primitives as their value and a Date\'s own toJSON, as JSON.stringify does', () => {
    const when = new Date(0);
    (when as unknown as { toJSON: () => string }).toJSON = () => 'ghp_token';
    // eslint-disable-next-line no-new-wrappers
    const r = flatten({ s: new String('ghp_token'), n: new Number(5), b: new Boolean(false), when, plain: new Date(0) });
    expect(r.leaves.map((l) => [l.key, l.kind, l.text])).toEqual([
      ['s', 'string', 'ghp_token'],
      ['n', 'number', '5'],
      ['b', 'boolean', 'false'],
      ['when', 'string', 'ghp_token'],
      ['plain', 'date', '1970-01-01T00:00:00.000Z'],
    ]);
  });

  it('flattens a bare scalar as the root leaf', () => {
    expect(flatten('just text').leaves[0]).toMatchObject({ key: '$', text: 'just text' });
  });
});
