import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatten } from './flatten.js';
import { ArgumentSnapshotError, snapshotArgs } from './snapshot.js';

describe('snapshotArgs', () => {
  it('equals JSON.parse(JSON.stringify(x)) on anything JSON can carry', () => {
    fc.assert(
      fc.property(fc.anything({ withDate: true, withBoxedValues: true, withNullPrototype: true, withSparseArray: true, withObjectString: true }), (x) => {
        let expected: unknown;
        try {
          const text = JSON.stringify(x);
          expected = text === undefined ? undefined : JSON.parse(text);
        } catch {
          return; // BigInt or a cycle: covered below
        }
        expect(snapshotArgs(x)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('a boxed value whose valueOf is overridden is read from its slot, by the copy and by flatten alike', () => {
    // eslint-disable-next-line no-new-wrappers
    const boxed = new String('README.md');
    let calls = 0;
    Object.defineProperty(boxed, 'valueOf', { value: () => (++calls > 1 ? '/home/dev/.env' : boxed) });
    // eslint-disable-next-line no-new-wrappers
    const loops = Object.assign(new Number(7), { valueOf: () => loops });
    const spoofed = Object.create(String.prototype) as object;
    const args = { path: boxed, n: loops, spoofed };
    const copy = snapshotArgs(args);
    expect(copy).toEqual({ path: 'README.md', n: 7, spoofed: {} });
    expect(flatten(args).leaves.map((l) => [l.key, l.text])).toEqual([
      ['path', 'README.md'],
      ['n', '7'],
      ['spoofed', ''], // (an empty object, as `{}` is)
    ]);
    expect(calls).toBe(0);
  });

  it('reads every property once: a getter that changes, or a proxy, cannot show two values', () => {
    let reads = 0;
    const args = {
      get path() {
        reads += 1;
        return reads === 1 ? 'README.md' : '/home/dev/.env';
      },
    };
    const snap = snapshotArgs(args) as { path: string };
    expect(snap).toEqual({ path: 'README.md' });
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(snap, 'path')?.get).toBeUndefined(); // plain data now

    let gets = 0;
    const proxy = new Proxy({ a: 'x' } as Record<string, unknown>, { get: (t, k) => (k === 'a' ? `${String(t[k])}${gets++}` : undefined) });
    expect(snapshotArgs({ p: proxy })).toEqual({ p: { a: 'x0' } });
    expect(gets).toBe(1);
  });

  it('keeps an own "__proto__" key as data, so its value is classified and sent alike', () => {
    const parsed = JSON.parse('{"__proto__": {"token": "x"}, "a": 1}') as Record<string, unknown>;
    const snap = snapshotArgs(parsed) as Record<string, unknown>;
    expect(Object.keys(snap)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(snap)).toBe(Object.prototype);
    expect(JSON.stringify(snap)).toBe(JSON.stringify(parsed));
  });

  it('copies binary data as the built-in type it is, read through the built-in accessors, and one with a toJSON of its own as JSON sends it', () => {
    const bytes = new TextEncoder().encode('hello');
    class Tagged extends Uint8Array {
      toJSON() {
        return { token: 'sent instead' };
      }
    }
    const own = new Uint8Array(bytes);
    Object.defineProperty(own, 'constructor', { value: function () { return { toJSON: () => 'other' }; } });
    const sliced = Uint8Array.from(bytes).buffer;
    Object.defineProperty(sliced, 'slice', { value: () => ({ toJSON: () => 'other' }) });
    class Lying extends Uint16Array {
      override get byteLength(): number {
        return 0;
      }
    }
    const copy = snapshotArgs({ own, sliced, tagged: new Tagged(bytes), lying: new Lying([104, 105]), buf: Buffer.from(bytes) }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy.own)).toBe(Uint8Array.prototype);
    expect([...(copy.own as Uint8Array)]).toEqual([...bytes]);
    expect(Object.getPrototypeOf(copy.sliced)).toBe(ArrayBuffer.prototype);
    expect([...new Uint8Array(copy.sliced as ArrayBuffer)]).toEqual([...bytes]);
    expect(copy.tagged).toEqual({ token: 'sent instead' });
    expect(Object.getPrototypeOf(copy.lying)).toBe(Uint16Array.prototype);
    expect([...(copy.lying as Uint16Array)]).toEqual([104, 105]);
    expect(Buffer.isBuffer(copy.buf)).toBe(true);
    // what JSON sends of the copy is what was judged
    expect(JSON.parse(JSON.stringify(copy)).tagged).toEqual({ token: 'sent instead' });
    // a detached buffer (transferred away) holds no bytes: copied empty, never a throw
    const gone = new Uint8Array(4);
    structuredClone(gone.buffer, { transfer: [gone.buffer] });
    expect(JSON.stringify(snapshotArgs({ gone }))).toBe(JSON.stringify({ gone }));
    expect(flatten({ gone }).leaves[0]).toMatchObject({ kind: 'binary', text: '', bytes: 0 });
  });

  it('refuses what JSON cannot carry faithfully, naming the kind and no value', () => {
    const cases: [unknown, string][] = [
      [{ n: 10n }, 'bigint'],
      [(() => { const a: Record<string, unknown> = {}; a.self = a; return a; })(), 'cycle'],
      [{ get k() { throw new Error('CANARY-getter'); } }, 'getter'],
      [{ d: { toJSON() { throw new Error('CANARY-toJSON'); } } }, 'toJSON'],
      [new Proxy({}, { ownKeys() { throw new Error('CANARY-trap'); } }), 'getter'],
    ];
    for (const [value, kind] of cases) {
      const err = (() => { try { snapshotArgs(value); } catch (e) { return e; } })();
      expect(err).toBeInstanceOf(ArgumentSnapshotError);
      expect((err as ArgumentSnapshotError).kind).toBe(kind);
      expect(String(err)).not.toContain('CANARY');
    }
  });

  it('copies hostile nesting without overflowing the stack, up to its limits', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => snapshotArgs(deep)).toThrow(expect.objectContaining({ kind: 'depth' }));
    let ok: unknown = 'leaf';
    for (let i = 0; i < 4000; i++) ok = { a: ok };
    expect(JSON.stringify(snapshotArgs(ok))).toBe(JSON.stringify(ok));
    const huge = new Proxy([], { get: (t, k) => (k === 'length' ? 1e9 : Reflect.get(t, k)) });
    expect(() => snapshotArgs({ huge })).toThrow(expect.objectContaining({ kind: 'size' }));
  });
});
