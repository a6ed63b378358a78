import { describe, expect, it } from 'vitest';
import { decodeBase64Text, decodeJsonEscapes, decodePercent, mergeWindows } from './decoders.js';

describe('decodeBase64Text', () => {
  it('decodes base64 (standard and URL-safe) that holds text', () => {
    expect(decodeBase64Text(Buffer.from('DB_PASSWORD=Tq9vLm2zR8wKp4').toString('base64'))).toBe('DB_PASSWORD=Tq9vLm2zR8wKp4');
    expect(decodeBase64Text(Buffer.from('{"k":"v??>>~~1A"}').toString('base64url'))).toBe('{"k":"v??>>~~1A"}');
    // No digit in the encoding: the '=' padding vouches for it.
    expect(decodeBase64Text('QmFzaWMgWTJrNkswVkpiMTlIUVhWcFJIUks=')).toBe('Basic Y2k6K0VJb19HQXVpRHRK');
  });

  it('rejects binary, identifiers and hex', () => {
    expect(decodeBase64Text(Buffer.from(Array.from({ length: 96 }, (_, i) => (i * 37) % 256)).toString('base64'))).toBeUndefined();
    expect(decodeBase64Text('getAccessTokenForUser')).toBeUndefined();
    expect(decodeBase64Text('getAccessTokenForUser=')).toBeUndefined(); // padding that does not complete a group
    expect(decodeBase64Text('9fceb02d0ae598e95dc970b74767f19372d61af8')).toBeUndefined();
    expect(decodeBase64Text('node_modules/foo/bar/baz1/Quux')).toBeUndefined();
  });
});

describe('decodePercent', () => {
  it('decodes %XX with offsets back into the source and keeps malformed escapes', () => {
    const src = 'x=a%2Fb%zz%41';
    const m = decodePercent(src, 2, src.length)!;
    expect(m.text).toBe('a/b%zzA');
    expect(m.sourceOf(0)).toEqual([2, 3]);
    expect(m.sourceOf(1)).toEqual([3, 6]);
    expect(m.sourceOf(2)).toEqual([6, 7]);
    expect(m.sourceOf(6)).toEqual([10, 13]);
    expect(m.sourceSpan(1, 7)).toEqual([3, 13]);
    expect(decodePercent('nothing', 0, 7)).toBeUndefined();
  });
});

describe('decodeJsonEscapes', () => {
  it('undoes JSON string escapes with offsets', () => {
    const src = '{\\"a\\":\\"b\\u0041\\/\\n\\"}';
    const m = decodeJsonEscapes(src, 0, src.length)!;
    expect(m.text).toBe('{"a":"bA/\n"}');
    const a = m.text.indexOf('A');
    expect(src.slice(...m.sourceOf(a))).toBe('\\u0041');
    // Every decoded character maps back to the source text it came from.
    for (let i = 0; i < m.text.length; i++) {
      const [s, e] = m.sourceOf(i);
      const piece = src.slice(s, e);
      expect(piece.length === 1 ? piece : JSON.parse(`"${piece}"`)).toBe(m.text[i]);
    }
    expect(decodeJsonEscapes('plain', 0, 5)).toBeUndefined();
  });
});

describe('mergeWindows', () => {
  it('merges overlapping windows and clips them to the text', () => {
    expect(mergeWindows([5, 10, 100], 8, 8, 104)).toEqual([0, 18, 92, 104]);
    expect(mergeWindows([], 8, 8, 10)).toEqual([]);
  });
});
