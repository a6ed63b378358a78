import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJsonString, JsonEnvelopeScanner, type StreamedEnvelope } from './json-envelope.js';

/** What the scanner should find in a message, computed from JSON.parse. */
function expected(message: Record<string, unknown>): StreamedEnvelope {
  const out: StreamedEnvelope = { hasResult: 'result' in message, texts: [], wellFormed: true };
  if (typeof message.id === 'string' || (typeof message.id === 'number' && Number.isInteger(message.id))) out.id = message.id;
  if (typeof message.method === 'string') out.method = message.method;
  const error = message.error as { code?: unknown; message?: unknown } | undefined;
  if (error && typeof error === 'object') {
    out.error = {};
    if (typeof error.code === 'number' && Number.isInteger(error.code)) out.error.code = error.code;
    if (typeof error.message === 'string') out.error.message = error.message;
  }
  const result = message.result as { content?: unknown; isError?: unknown; structuredContent?: unknown } | undefined;
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    // Document order, as the bytes arrive.
    for (const [k, v] of Object.entries(result)) {
      if (k === 'isError' && typeof v === 'boolean') out.isError = v;
      if (k === 'content' && Array.isArray(v)) {
        for (const item of v) {
          if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
          for (const [ik, iv] of Object.entries(item)) {
            if (ik === 'text' && (typeof iv === 'string' || typeof iv === 'number')) out.texts.push(typeof iv === 'string' ? iv : JSON.stringify(iv));
            if (ik === 'resource' && iv && typeof iv === 'object' && !Array.isArray(iv)) {
              const t = (iv as Record<string, unknown>).text;
              if (typeof t === 'string' || typeof t === 'number') out.texts.push(typeof t === 'string' ? t : JSON.stringify(t));
            }
          }
        }
      }
      if (k === 'structuredContent') collect(v, out.texts);
    }
  }
  return out;
}

function collect(v: unknown, into: string[]): void {
  if (typeof v === 'string') into.push(v);
  else if (typeof v === 'number') into.push(JSON.stringify(v));
  else if (Array.isArray(v)) v.forEach((x) => collect(x, into));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => collect(x, into));
}

/** Scan `text` cut into pieces at `cuts` (byte offsets). */
function scan(text: string, cuts: number[] = [], cap = 1 << 30): StreamedEnvelope {
  const bytes = Buffer.from(text);
  const scanner = new JsonEnvelopeScanner(cap);
  let at = 0;
  for (const c of [...new Set(cuts.map((x) => x % (bytes.length + 1)))].sort((a, b) => a - b)) {
    scanner.write(bytes.subarray(at, c));
    at = c;
  }
  scanner.write(bytes.subarray(at));
  return scanner.finish();
}

const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.string({ unit: 'grapheme' }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('arr'), tie('obj')),
  arr: fc.array(tie('any'), { maxLength: 4 }),
  obj: fc.dictionary(fc.string({ unit: 'grapheme' }), tie('any'), { maxKeys: 4 }),
})).any;

const content = fc.array(
  fc.oneof(
    fc.record({ type: fc.constant('text'), text: fc.string({ unit: 'grapheme' }) }),
    fc.record({ type: fc.constant('resource'), resource: fc.record({ uri: fc.string(), text: fc.string({ unit: 'grapheme' }) }) }),
    fc.record({ type: fc.constant('image'), data: fc.base64String(), mimeType: fc.constant('image/png') }),
  ),
  { maxLength: 4 },
);

const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), result: fc.record({ content, isError: fc.boolean(), structuredContent: value }, { requiredKeys: [] }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), error: fc.record({ code: fc.integer(), message: fc.string({ unit: 'grapheme' }), data: value }, { requiredKeys: ['code'] }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string(), params: value }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), method: fc.string(), params: fc.record({ content, other: value }) }),
);

describe('JsonEnvelopeScanner', () => {
  it('finds what JSON.parse finds, however the bytes are cut (spacing and key order included)', () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (m, cuts, spaced) => {
        const text = spaced ? JSON.stringify(m, null, 1) : JSON.stringify(m);
        expect(scan(text, cuts)).toEqual(expected(JSON.parse(text)));
      }),
      { numRuns: 400 },
    );
  });

  it('reads a result whose id comes last, as the TypeScript SDK writes it', () => {
    const text = JSON.stringify({ result: { content: [{ type: 'text', text: 'a "quoted" \\ line\n' }], isError: true }, jsonrpc: '2.0', id: 42 });
    expect(scan(text, [3, 17, 40])).toEqual({ id: 42, hasResult: true, isError: true, texts: ['a "quoted" \\ line\n'], wellFormed: true });
  });

  it('keeps at most the cap of text, cut safely inside escapes and multi-byte characters', () => {
    const big = 'é☕"\\\n'.repeat(1000);
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: big }, { type: 'text', text: 'later' }] } });
    for (let cap = 1; cap < 40; cap++) {
      const out = scan(text, [cap * 7], cap);
      expect(out.id).toBe(1);
      expect(out.texts).toHaveLength(1);
      expect(out.texts[0]!.length).toBeLessThanOrEqual(cap);
      expect(big.startsWith(out.texts[0]!.replace(/\uFFFD$/, ''))).toBe(true);
    }
  });

  it('says when the bytes are not one JSON object, and stops there', () => {
    for (const bad of ['[1,2]', '{"id":1,}', '{"id":1} x', '{"id":1', 'hello', '{"a" 1}', '{"a":[1,]}']) {
      expect(scan(bad).wellFormed, bad).toBe(false);
    }
    expect(scan('  {"id":"x","method":"m"}  ')).toEqual({ id: 'x', method: 'm', hasResult: false, texts: [], wellFormed: true });
  });

  it('decodes escaped string bytes, and a string cut inside an escape', () => {
    expect(decodeJsonString(Buffer.from('a\\u00e9\\n'))).toBe('aé\n');
    expect(decodeJsonString(Buffer.from('abc\\u00'))).toBe('abc');
    expect(decodeJsonString(Buffer.from('abc\\'))).toBe('abc');
  });
});
