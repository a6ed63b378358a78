import { describe, expect, it } from 'vitest';
import { RECORD_VERSION, decodeRecord, encodeRecord, shape } from './record.js';

const validate = (b: unknown) => shape.fields(b, { step: 'number', goal: 'string' });
const body = { step: 3, goal: 'ship it ✓' };

describe('record framing', () => {
  it('round-trips a record with version, kind, checksum and length', () => {
    const bytes = encodeRecord('checkpoint', body);
    expect(bytes.toString('utf8')).toMatch(new RegExp(`^argspan-hop/${RECORD_VERSION} checkpoint [0-9a-f]{64} \\d+\\n`));
    expect(decodeRecord('checkpoint', bytes, validate)).toEqual({ ok: true, body });
  });

  it.each([
    ['empty', () => Buffer.alloc(0)],
    ['truncated', () => encodeRecord('checkpoint', body).subarray(0, 20)],
    ['truncated', () => { const b = encodeRecord('checkpoint', body); return b.subarray(0, b.length - 5); }],
    ['checksum', () => { const b = Buffer.from(encodeRecord('checkpoint', body)); b[b.length - 4] ^= 0x01; return b; }],
    ['wrong-version', () => Buffer.from(encodeRecord('checkpoint', body).toString().replace(`argspan-hop/${RECORD_VERSION} `, 'argspan-hop/99 '))],
    ['wrong-kind', () => encodeRecord('lease', body)],
    ['corrupt', () => Buffer.concat([encodeRecord('checkpoint', body), Buffer.from('xx')])],
    ['corrupt', () => Buffer.from('{"step":3}\n')],
    ['corrupt', () => encodeRecord('checkpoint', { step: 'three', goal: 'x' })],
  ])('detects a %s file', (defect, make) => {
    const r = decodeRecord('checkpoint', make(), validate);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.defect).toBe(defect);
  });

  it('never throws on random bytes', () => {
    for (let i = 0; i < 200; i++) {
      const junk = Buffer.from(Array.from({ length: i }, (_, j) => (j * 7919 + i * 31) & 0xff));
      expect(decodeRecord('checkpoint', junk, validate).ok).toBe(false);
    }
  });
});
