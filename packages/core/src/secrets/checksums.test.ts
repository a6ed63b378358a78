import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASE62_LOWER_FIRST, BASE62_UPPER_FIRST, atlassianChecksumHolds, base62, base64Json, cloudflareChecksumHolds, crc32, datadogChecksumHolds,
  githubChecksumHolds, grafanaChecksumHolds, hex8, hex8LittleEndian, printableShare,
} from './checksums.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const body = (n: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: n, maxLength: n });
/** The last character changed to another of the same alphabet: the checksum no longer holds. */
const flip = (t: string) => t.slice(0, -1) + (t.at(-1) === 'A' ? 'B' : t.at(-1) === '0' ? '1' : t.at(-1) === 'a' ? 'b' : 'A');

describe('checksums', () => {
  it('crc32 is IEEE 802.3 CRC-32 (the check value, and zlib where Node has it)', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    const zcrc = (zlib as unknown as { crc32?: (s: string) => number }).crc32;
    if (zcrc) {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme-ascii' }), (s) => {
          expect(crc32(s)).toBe(zcrc(s));
        }),
      );
    }
  });

  it('crc32 of a range is the crc32 of that slice (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), fc.nat(), fc.nat(), (s, a, b) => {
        const start = a % (s.length + 1);
        const end = start + (b % (s.length - start + 1));
        expect(crc32(s, start, end)).toBe(crc32(s.slice(start, end)));
      }),
    );
  });

  it('writes base62 and hex the way the providers do', () => {
    expect(base62(0, BASE62_UPPER_FIRST)).toBe('000000');
    expect(base62(61, BASE62_UPPER_FIRST)).toBe('00000z');
    expect(base62(61, BASE62_LOWER_FIRST)).toBe('00000Z');
    expect(hex8(0xabc, true)).toBe('00000ABC');
    expect(hex8LittleEndian(0x01020304)).toBe('04030201');
  });

  it('accepts tokens made by each scheme and rejects them with one character changed (property)', () => {
    fc.assert(
      fc.property(body(30), body(28), body(40), body(24), body(32), (b30, b28, b40, b24, b32) => {
        const github = `ghp_${b30}${base62(crc32(b30), BASE62_UPPER_FIRST)}`;
        const datadog = `ddapp_${b28}${base62(crc32(`ddapp_${b28}`), BASE62_LOWER_FIRST)}`;
        const cloudflare = `cfut_${b40}${hex8(crc32(b40))}`;
        const bitbucket = `ATBB${b24}${hex8(crc32(`ATBB${b24}`), true)}`;
        const grafana = `glsa_${b32}_${hex8LittleEndian(crc32(`glsa_${b32}`))}`;
        for (const [holds, token] of [[githubChecksumHolds, github], [datadogChecksumHolds, datadog], [cloudflareChecksumHolds, cloudflare], [atlassianChecksumHolds, bitbucket], [grafanaChecksumHolds, grafana]] as const) {
          expect(holds(token), token).toBe(true);
          expect(holds(flip(token)), token).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads base64 JSON documents and measures printable text', () => {
    expect(base64Json(Buffer.from('{"k":"v"}').toString('base64'))).toEqual({ k: 'v' });
    expect(base64Json(Buffer.from('[1]').toString('base64'))).toBeUndefined();
    expect(base64Json('not base64!')).toBeUndefined();
    expect(printableShare('abc')).toBe(1);
    expect(printableShare('\u0000\u0001ab')).toBe(0.5);
  });
});
