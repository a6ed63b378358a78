import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPELLING_KEYWORDS, decodeBase64Text, decodeHexText, decodeHiddenCharacters, decodeJsonEscapes, decodePercent, decodeSpelledCharacters, hiddenWindows, isDefaultIgnorable, spelledWindows } from './decoders.js';

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

  it('agrees with Buffer decoding plus the printable-share rule on any run of the alphabet (property)', () => {
    // The definition the in-place decoder must keep: Node's decoder, the class checks, and 95 %
    // printable bytes in the first 48 decoded bytes and in all of them.
    const share = (b: Buffer): number => (b.length === 0 ? 0 : [...b].filter((x) => (x >= 0x20 && x < 0x7f) || x === 9 || x === 10 || x === 13).length / b.length);
    const reference = (run: string): string | undefined => {
      if (!/[a-z]/.test(run.split('=')[0]!) || !/[A-Z]/.test(run.split('=')[0]!)) return undefined;
      const body = run.replace(/=+$/, '');
      for (let i = 0; i < run.length && run[i] !== '='; i += 4) if (i < 256 && !/[A-Za-f]/.test(run[i]!)) return undefined;
      const padded = run.endsWith('=') && run.length % 4 === 0;
      if (!/[0-9]/.test(run.split('=')[0]!) && !padded) return undefined;
      if (body.length % 4 === 1) return undefined;
      const buf = Buffer.from(body, 'base64');
      if (share(buf.subarray(0, 48)) < 0.95 || share(buf) < 0.95) return undefined;
      return buf.toString('latin1');
    };
    // Text-like bytes: printable with a few others sprinkled in at some density (around the 95 %
    // line), a printable head followed by a binary tail, or a burst inside the head; encoded
    // either way, padded or not.
    const printable = fc.integer({ min: 0x20, max: 0x7e });
    const any = fc.integer({ min: 0, max: 255 });
    const sprinkled = fc
      .constantFrom(2, 8, 20, 40, 1000)
      .chain((weight) => fc.array(fc.oneof({ weight, arbitrary: printable }, { weight: 1, arbitrary: any }), { minLength: 1, maxLength: 700, size: 'max' }));
    const headThenTail = fc.tuple(fc.array(printable, { minLength: 40, maxLength: 60 }), fc.array(any, { maxLength: 30 })).map(([h, t]) => [...h, ...t]);
    // A burst of other bytes near the end of the first 48, then clean text: only the head check fails.
    const burst = fc
      .tuple(fc.array(printable, { minLength: 30, maxLength: 50 }), fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 2, maxLength: 4 }), fc.array(printable, { minLength: 40, maxLength: 200 }))
      .map(([a, b, c]) => [...a, ...b, ...c]);
    const bytes = fc.oneof(sprinkled, headThenTail, burst);
    fc.assert(
      fc.property(bytes, fc.boolean(), fc.boolean(), (b, urlSafe, stripPadding) => {
        let run = Buffer.from(b).toString(urlSafe ? 'base64url' : 'base64');
        if (stripPadding) run = run.replace(/=+$/, '');
        expect(decodeBase64Text(run)).toBe(reference(run));
      }),
      // Shrinking runs of hundreds of bytes takes minutes; the first counterexample is enough.
      { numRuns: 3000, endOnFailure: true },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aZf09+/_-QbX'.split('')), minLength: 1, maxLength: 120 }), (run) => {
        expect(decodeBase64Text(run)).toBe(reference(run));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('decodeHexText', () => {
  const hexOf = (s: string) => Buffer.from(s).toString('hex');

  it('decodes hex of text, either case, after an optional 0x; the source length covers what was decoded', () => {
    const env = 'NODE_ENV=production\nDB_PASSWORD=Tq9vLm2zR8wKp4\n';
    expect(decodeHexText(hexOf(env), 0)).toEqual({ text: env, length: hexOf(env).length });
    const upper = `0X${hexOf(env).toUpperCase()}`;
    expect(decodeHexText(upper, 0)).toEqual({ text: env, length: upper.length });
    // An odd digit at the end, and letters after the digits, are left out.
    const text = `${hexOf(env)}7xyz`;
    expect(decodeHexText(text, 0)).toEqual({ text: env, length: hexOf(env).length });
    // A wrapped dump (`xxd -p`: 60 digits a line), LF or CRLF; a line under 32 digits ends it.
    const wrapped = hexOf(env).match(/.{1,60}/g)!.join('\n');
    expect(decodeHexText(wrapped, 0)).toEqual({ text: env, length: wrapped.length });
    expect(decodeHexText(wrapped.replace(/\n/g, '\r\n'), 0)?.text).toBe(env);
    const short = hexOf(env).match(/.{1,30}/g)!.join('\n');
    expect(decodeHexText(short, 0)).toEqual({ text: env.slice(0, 15), length: 30 });
    // At most `maxBytes` (the call's decoding budget), the length saying how far that reached.
    expect(decodeHexText(wrapped, 0, 20)).toEqual({ text: env.slice(0, 20), length: 40 });
    // Long.
    const long = hexOf('x'.repeat(1000));
    expect(decodeHexText(long, 0)?.text).toBe('x'.repeat(1000));
  });

  it('rejects binary: hashes, ids, random bytes', () => {
    for (const h of ['2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', '550e8400e29b41d4a716446655440000', Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 37) % 256)).toString('hex')]) {
      expect(decodeHexText(h, 0)).toBeUndefined();
    }
    // Text at first, binary after: the whole must be 95 % printable.
    const mixed = hexOf('printable text here, about fifty bytes of it.....') + 'ff00'.repeat(20);
    expect(decodeHexText(mixed, 0)).toBeUndefined();
  });

  it('decodes what Buffer decodes, on any even run of hex digits (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 600 }), fc.uint8Array({ min: 0x1f, max: 0x7e, minLength: 1, maxLength: 600 })), (bytes) => {
        const hex = Buffer.from(bytes).toString('hex');
        // 95 % printable, in the first 48 bytes and in all
        const share = (b: Uint8Array) => b.filter((x) => (x >= 0x20 && x < 0x7f) || x === 9 || x === 10 || x === 13).length / b.length;
        const text = share(bytes.subarray(0, 48)) >= 0.95 && share(bytes) >= 0.95;
        expect(decodeHexText(hex, 0)).toEqual(text ? { text: Buffer.from(bytes).toString('latin1'), length: hex.length } : undefined);
      }),
    );
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

  it('undoes C\'s `\\xNN` byte escapes too (`printf`, Python), with offsets; a malformed one stays', () => {
    const src = String.raw`printf '\x67\x68p_\xZZ\x4'`;
    const m = decodeJsonEscapes(src, 0, src.length)!;
    expect(m.text).toBe(String.raw`printf 'ghp_\xZZ\x4'`);
    expect(src.slice(...m.sourceSpan(8, 10))).toBe(String.raw`\x67\x68`);
  });

  it('undoes three-digit octal escapes (`printf \'\147\150…\'`, Python, C), with offsets; other digits after a backslash stay', () => {
    const src = String.raw`printf '\147\150p\137\8\12x\400'`;
    const m = decodeJsonEscapes(src, 0, src.length)!;
    // (`\400` is past a byte, `\8` no octal digit, `\12` two digits: left as written)
    expect(m.text).toBe(String.raw`printf 'ghp_\8\12x\400'`);
    expect(src.slice(...m.sourceSpan(8, 10))).toBe(String.raw`\147\150`);
  });
});

describe('decodeHiddenCharacters', () => {
  const tags = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  const selectors = (s: string) => [...Buffer.from(s)].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('');
  /** Each decoded character's source, as the text it came from. */
  const sources = (text: string) => {
    const m = decodeHiddenCharacters(text)!;
    return [...m.text].map((_, i) => text.slice(...m.sourceOf(i)));
  };

  it('removes invisible characters; the character after them maps back over them', () => {
    const text = 'gh\u200bp_\u200d\u2060ab\u00adc';
    const m = decodeHiddenCharacters(text)!;
    expect(m.text).toBe('ghp_abc');
    expect(sources(text)).toEqual(['g', 'h', '\u200bp', '_', '\u200d\u2060a', 'b', '\u00adc']);
    expect(m.sourceSpan(0, m.text.length)).toEqual([0, text.length]);
  });

  it('reads tag characters, fullwidth forms and mathematical letters and digits as the ASCII they show', () => {
    expect(decodeHiddenCharacters(`say ${tags('ghp_x1')}!`)!.text).toBe('say ghp_x1!');
    expect(sources(tags('ab'))).toEqual([tags('a'), tags('b')]);
    expect(decodeHiddenCharacters('\uff47\uff48\uff50\uff3f\uff11\u3000x')!.text).toBe('ghp_1 x');
    // bold g, italic h, double-struck 7; a mathematical symbol with no ASCII reading stays
    expect(decodeHiddenCharacters('\u{1d420}\u{1d489}\u{1d7df}\u{1d6c2}')!.text).toBe('gh7\u{1d6c2}');
  });

  it('reads a run of at least eight variation selectors that spells printable ASCII as that text; removes other runs', () => {
    const run = selectors('GITHUB_TOKEN=ghp_x');
    const m = decodeHiddenCharacters(`ok \u{1f600}${run} done`)!;
    expect(m.text).toBe('ok \u{1f600}GITHUB_TOKEN=ghp_x done');
    const at = m.text.indexOf('GITHUB');
    expect(m.sourceSpan(at, at + 'GITHUB_TOKEN=ghp_x'.length)).toEqual([5, 5 + run.length]);
    // an emoji's presentation selector, a short run, a run that spells bytes outside printable ASCII
    expect(decodeHiddenCharacters('\u2764\ufe0f ok')!.text).toBe('\u2764 ok');
    expect(decodeHiddenCharacters(`a${selectors('abcdefg')}b`)!.text).toBe('ab');
    expect(decodeHiddenCharacters(`a${selectors('abcdefgh\u00ff')}b`)!.text).toBe('ab');
  });

  it('knows the default-ignorable code points as Unicode does (Node\'s tables), and looks for each of them', () => {
    const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
    const differ: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (isDefaultIgnorable(cp) !== ignorable.test(ch)) differ.push(cp.toString(16));
      else if (isDefaultIgnorable(cp) && hiddenWindows(`a${ch}b`).length === 0) differ.push(`${cp.toString(16)} not looked for`);
    }
    expect(differ).toEqual([]);
  });

  it('returns undefined when nothing is hidden inside the text', () => {
    expect(decodeHiddenCharacters('plain ascii')).toBeUndefined();
    expect(decodeHiddenCharacters('caf\u00e9 \u65e5\u672c \u{1f600}')).toBeUndefined();
    expect(decodeHiddenCharacters('trailing\u200b\u200b')).toBeUndefined();
    // windows: none without a hidden character (CJK prose's fullwidth punctuation opens none), 512 characters each side, merged
    expect(hiddenWindows('caf\u00e9 \u65e5\u672c\uff0c\uff1a\u3000')).toEqual([]);
    expect(hiddenWindows('a\u200bb')).toEqual([0, 3]);
    const long = `${'x'.repeat(1000)}\u200b${'y'.repeat(300)}\uff47${'z'.repeat(2000)}\u{e0067}`;
    expect(hiddenWindows(long)).toEqual([1000 - 512, 1301 + 512, 3302 - 512, long.length]);
  });

  it('gives back any ASCII text with invisible characters put anywhere inside it, each character mapped to its own source (property)', () => {
    const invisible = fc.constantFrom('\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u180e', '\u202e', '\u{e0001}', '\ufe0f');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...'aZ09_-=: "'.split('')), fc.array(invisible, { maxLength: 3 })), { minLength: 1, maxLength: 40 }), (parts) => {
        const text = parts.map(([c, hidden]) => hidden.join('') + c).join('');
        const plain = parts.map(([c]) => c).join('');
        const m = decodeHiddenCharacters(text);
        if (text === plain) {
          expect(m).toBeUndefined();
          return;
        }
        expect(m!.text).toBe(plain);
        for (let i = 0; i < plain.length; i++) {
          const [start, end] = m!.sourceOf(i);
          expect(text.slice(start, end)).toBe(parts[i]![1].join('') + parts[i]![0]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeSpelledCharacters', () => {
  const codes = (s: string, sep = ',', hex = false) => [...s].map((c) => (hex ? `0x${c.charCodeAt(0).toString(16)}` : String(c.charCodeAt(0)))).join(sep);
  /** Each decoded character's source, as the text it came from. */
  const sources = (text: string) => {
    const m = decodeSpelledCharacters(text)!;
    return [...m.text].map((_, i) => text.slice(...m.sourceOf(i)));
  };

  it('reads numeric character references (decimal, hex, the `;` left out) as their characters', () => {
    expect(decodeSpelledCharacters('v="&#103;&#x68;&#X70&#95;x"')!.text).toBe('v="ghp_x"');
    expect(sources('a&#98;c')).toEqual(['a', '&#98;', 'c']);
    // past Unicode, a surrogate, no digits: left as written
    expect(decodeSpelledCharacters('&#1114112; &#xd800; &#; &#x;')).toBeUndefined();
    expect(decodeSpelledCharacters('&#x1f600;')!.text).toBe('\u{1f600}');
  });

  it('reads a list of eight printable codes or more after a call that makes it text as a quoted text, mapped over the call and its brackets', () => {
    const token = 'ghp_abcdefgh';
    const cases: [string, string][] = [
      [`String.fromCharCode(${codes(token)})`, `"${token}"`],
      [`bytes([${codes(token, ', ')}]).decode()`, `"${token}"`],
      [`bytes([${codes(token, ', ')}]).decode("utf-8") + "x"`, `"${token}" + "x"`],
      [`bytearray([ ${codes(token, ',\n  ')} ])`, `"${token}"`],
      [`Buffer.from([${codes(token, ', ', true)}]).toString()`, `"${token}"`],
      [`b := []byte{${codes(token, ', ', true)},}`, `b := "${token}"`],
      [`b := string([]byte{${codes(token, ', ', true)}})`, `b := "${token}"`],
      [`SELECT CHAR(${codes(token)})`, `SELECT "${token}"`],
      [`[${codes(token)}].map((c) => String.fromCharCode(c))`, `"${token}".map((c) => String.fromCharCode(c))`],
    ];
    for (const [text, decoded] of cases) expect(decodeSpelledCharacters(text)?.text, text).toBe(decoded);
    const text = `x = bytes([${codes('abcdefgh')}])`;
    const m = decodeSpelledCharacters(text)!;
    expect(m.sourceSpan(m.text.indexOf('"'), m.text.length)).toEqual([4, text.length]);
    // seven codes, a code outside printable ASCII, numbers glued to words: data, not text
    expect(decodeSpelledCharacters(`bytes([${codes('abcdefg')}])`)).toBeUndefined();
    expect(decodeSpelledCharacters(`bytes([${codes('abcdefgh')},200])`)!.text).toBe('"abcdefgh",200])');
    expect(decodeSpelledCharacters('fromCharCode(1x,2y,3z,4a,5b,6c,7d,8e)')).toBeUndefined();
  });

  it('reads a chain of chr() calls joined by + . & || as a quoted text', () => {
    const chain = (s: string, join: string, name = 'chr') => [...s].map((c) => `${name}(${c.charCodeAt(0)})`).join(join);
    expect(decodeSpelledCharacters(`t = ${chain('ghp_abcd', '+')}`)!.text).toBe('t = "ghp_abcd"');
    expect(decodeSpelledCharacters(`$t = ${chain('ghp_abcd', ' . ')};`)!.text).toBe('$t = "ghp_abcd";');
    expect(decodeSpelledCharacters(`t = ${chain('ghp_abcd', ' & ', 'Chr')}`)!.text).toBe('t = "ghp_abcd"');
    expect(decodeSpelledCharacters(`SELECT ${chain('ghp_abcd', '||', 'CHAR')}`)!.text).toBe('SELECT "ghp_abcd"');
    expect(decodeSpelledCharacters(chain('ghp_abc', '+'))).toBeUndefined();
    expect(decodeSpelledCharacters(`xchr(1)+${chain('abcdefg', '+')}`)).toBeUndefined();
  });

  it('removes the join of two string literals; the character after it maps back over it', () => {
    expect(decodeSpelledCharacters('t = "ghp_ab" + "cd" + "ef";')!.text).toBe('t = "ghp_abcdef";');
    expect(decodeSpelledCharacters("t = 'ghp_ab'.'cd'")!.text).toBe("t = 'ghp_abcd'");
    expect(decodeSpelledCharacters('t = "ghp_ab" ..\n   "cd"')!.text).toBe('t = "ghp_abcd"');
    expect(sources('"ab" + "cd"')).toEqual(['"', 'a', 'b', '" + "c', 'd', '"']);
    // different quotes, a variable between, no operator: not joined
    expect(decodeSpelledCharacters(`"ab" + 'cd'`)).toBeUndefined();
    expect(decodeSpelledCharacters('"ab" + x + "cd"')).toBeUndefined();
    expect(decodeSpelledCharacters('"ab", "cd"')).toBeUndefined();
  });

  it('opens windows only where something is spelled out: a reference to a token character, eight codes, a join', () => {
    const spelling: string[] = [];
    SPELLING_KEYWORDS.forEach((k, i) => (spelling[i] = k));
    /** Hits as the scanner gives them: (keyword id, start) pairs, by start. */
    const hitsOf = (text: string) => {
      const hits: [number, number][] = [];
      SPELLING_KEYWORDS.forEach((k, id) => {
        for (let at = text.toLowerCase().indexOf(k); at >= 0; at = text.toLowerCase().indexOf(k, at + 1)) hits.push([id, at]);
      });
      return hits.sort((a, b) => a[1] - b[1]).flat();
    };
    const windows = (text: string) => spelledWindows(text, hitsOf(text), spelling);
    expect(windows(`don&#39;t &#169; &#160;`)).toEqual([]);
    expect(windows(`gh&#112;_x`)).toEqual([0, 10]);
    expect(windows(`print("a: " + x); f(x + "y", 1)`)).toEqual([]);
    expect(windows(`bytes([1, 2, 3]) String.fromCharCode(65)`)).toEqual([]);
    const pad = 'x'.repeat(300);
    const text = `${pad}t = "ghp_ab" + "cd"${pad}`;
    // (from the first literal's closing quote, 256 characters each side of the join)
    expect(windows(text)).toEqual([300 + 11 - 256, 300 + 16 + 256]);
  });

  it('gives back any text written as a list of codes, references or a chr() chain, each character mapped to its own code (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aZ09_-=:+/. '.split('')), minLength: 8, maxLength: 40 }), fc.constantFrom('list', 'hex-list', 'refs', 'chr'), (plain, form) => {
        const text =
          form === 'list' ? `k = bytes([${codes(plain, ', ')}])` : form === 'hex-list' ? `k = []byte{${codes(plain, ',', true)}}` : form === 'refs' ? `k = ${[...plain].map((c) => `&#${c.charCodeAt(0)};`).join('')}` : `k = ${[...plain].map((c) => `chr(${c.charCodeAt(0)})`).join(' + ')}`;
        const m = decodeSpelledCharacters(text)!;
        expect(m.text).toBe(form === 'refs' ? `k = ${plain}` : `k = "${plain}"`);
        const first = m.text.indexOf(plain[0]!, 4);
        for (let i = 0; i < plain.length; i++) {
          const [start, end] = m.sourceOf(first + i);
          expect(text.slice(start, end)).toContain(String(plain.charCodeAt(i) === 0 ? 0 : form === 'hex-list' ? plain.charCodeAt(i).toString(16) : plain.charCodeAt(i)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
