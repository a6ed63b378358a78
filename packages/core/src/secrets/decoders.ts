/**
 * Bounded decoders for the encodings credentials hide in: base64 (Kubernetes secrets, Basic
 * auth, docker config), hex (a file dumped by `xxd -p`), URL-encoding (query strings) and JSON
 * string escapes (JSON inside a string; C's `\xNN` with them). Each returns the decoded text plus,
 * where the mapping is not trivial, where every decoded character came from, so a finding maps
 * back to the encoded span.
 */

/**
 * Decoded text and where each of its characters came from in the source. Sparse: one entry per
 * escape (decoded index, source start, source length); every other character is copied 1:1
 * from the source, so the map stays small and building it costs nothing per plain character.
 */
export class MappedText {
  constructor(
    readonly text: string,
    /** Source offset of decoded character 0. */
    private readonly from: number,
    /** Decoded index of each escape, ascending. */
    private readonly at: ArrayLike<number>,
    /** Source offset of each escape. */
    private readonly src: ArrayLike<number>,
    /** Source length of each escape (`\u0041` is 6). */
    private readonly len: ArrayLike<number>,
  ) {}

  /** Source span [start, end) of decoded character i. */
  sourceOf(i: number): [number, number] {
    // The last escape at or before i.
    let lo = 0;
    let hi = this.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid]! <= i) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return [this.from + i, this.from + i + 1];
    const e = lo - 1;
    if (this.at[e] === i) return [this.src[e]!, this.src[e]! + this.len[e]!];
    const s = this.src[e]! + this.len[e]! + (i - this.at[e]! - 1);
    return [s, s + 1];
  }

  /** Source span covering decoded characters [start, end). */
  sourceSpan(start: number, end: number): [number, number] {
    return [this.sourceOf(start)[0], this.sourceOf(end - 1)[1]];
  }
}

/** Per escape: decoded index, source offset, source length; and the escapes' characters. Reused by one builder at a time. */
interface BuilderScratch {
  busy: boolean;
  at: Int32Array<ArrayBuffer>;
  src: Int32Array<ArrayBuffer>;
  len: Int32Array<ArrayBuffer>;
  codes: Uint16Array<ArrayBuffer>;
}

const newScratch = (): BuilderScratch => ({ busy: false, at: new Int32Array(256), src: new Int32Array(256), len: new Int32Array(256), codes: new Uint16Array(256) });
const shared = newScratch();

/**
 * Builds a MappedText: plain runs are kept as slices, escapes' characters and positions written to
 * typed arrays reused from call to call, and all joined once at the end (appending to strings and
 * arrays a character at a time cost about 0.5 µs a character on a text of a million escapes; this,
 * a fifth of that). build() copies the positions out, so the scratch is free again.
 */
class MappedTextBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  /** Escapes so far. */
  private n = 0;
  /** Characters of the escapes (and short plain runs) since the last long plain run, not yet in `parts`. */
  private pending = 0;
  private readonly s: BuilderScratch;
  constructor(
    private readonly source: string,
    private readonly from: number,
  ) {
    // (a second builder while one is open, which the decoders never do, gets arrays of its own)
    this.s = shared.busy ? newScratch() : shared;
    this.s.busy = true;
  }

  plain(start: number, end: number): void {
    if (end <= start) return;
    this.length += end - start;
    if (end - start > 32) {
      this.flush();
      this.parts.push(this.source.slice(start, end));
      return;
    }
    // (a short run between escapes joins their characters: a slice each would cost more)
    for (let i = start; i < end; i++) this.append(this.source.charCodeAt(i));
  }

  escape(code: number, start: number, length: number): void {
    const s = this.s;
    if (this.n === s.at.length) {
      s.at = grown(s.at);
      s.src = grown(s.src);
      s.len = grown(s.len);
    }
    s.at[this.n] = this.length++;
    s.src[this.n] = start;
    s.len[this.n++] = length;
    this.append(code);
  }

  private append(code: number): void {
    const s = this.s;
    if (this.pending === s.codes.length) {
      const codes = new Uint16Array(s.codes.length * 2);
      codes.set(s.codes);
      s.codes = codes;
    }
    s.codes[this.pending++] = code;
  }

  private flush(): void {
    // (in slices: a spread of a very long array overflows the stack)
    const codes = this.s.codes;
    for (let i = 0; i < this.pending; i += 8192) this.parts.push(String.fromCharCode.apply(null, codes.subarray(i, Math.min(this.pending, i + 8192)) as unknown as number[]));
    this.pending = 0;
  }

  build(): MappedText | undefined {
    const s = this.s;
    try {
      if (this.n === 0) return undefined;
      this.flush();
      return new MappedText(this.parts.join(''), this.from, s.at.slice(0, this.n), s.src.slice(0, this.n), s.len.slice(0, this.n));
    } finally {
      s.busy = false;
    }
  }
}

/** `a` copied into an array twice its length. */
function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Minimum printable share for a decoded base64 run to be scanned as text. */
const MIN_PRINTABLE = 0.95;

/** Value of each standard and URL-safe base64 character, -1 for any other. */
const BASE64_VALUE = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((ch, v) => (BASE64_VALUE[ch.charCodeAt(0)] = v));
BASE64_VALUE[45] = 62; // -
BASE64_VALUE[95] = 63; // _

/** Decoded bytes that must be 95 % printable before the rest of a run is decoded. */
const HEAD_BYTES = 48;
/** Runs decoding to at most this many bytes are decoded here, into a reused buffer; longer ones by Buffer. */
const SMALL = Buffer.alloc(384);

const isPrintable = (b: number): boolean => (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d;

/** Share of printable ASCII bytes in a buffer, 0..1. */
function printableShare(buf: Uint8Array): number {
  let ok = 0;
  for (let i = 0; i < buf.length; i++) if (isPrintable(buf[i]!)) ok++;
  return buf.length === 0 ? 0 : ok / buf.length;
}

/**
 * Decode a run of base64 (standard or URL-safe) if it decodes to text. Cheap rejections first:
 * the run must mix character classes like encoded text does (lower and upper case, and digits or
 * '=' padding), and the first 48 bytes it decodes to (its first 64 characters) must be 95 %
 * printable ASCII before the rest is decoded. Those 64 characters are decoded here, stopping as
 * soon as they cannot pass: most runs are random tokens, rejected after a few bytes without a
 * call into the runtime. A longer run that passes is decoded whole by Buffer.
 */
export function decodeBase64Text(run: string): string | undefined {
  // Base64 of ASCII text: the first character of every 4-character group encodes the top six
  // bits of a byte below 0x80, so it is one of A-Z or a-f (checked over the first 256).
  const n = run.length;
  let kinds = 0; // 1 lower, 2 upper, 4 digit
  for (let i = 0; i < n; i++) {
    const c = run.charCodeAt(i);
    if (c >= 97 && c <= 122) kinds |= 1;
    else if (c >= 65 && c <= 90) kinds |= 2;
    else if (c >= 48 && c <= 57) kinds |= 4;
    else if (c === 61) break; // padding
    if (i < 256) {
      if ((i & 3) === 0 && !((c >= 65 && c <= 90) || (c >= 97 && c <= 102))) return undefined;
    } else if (kinds === 7) break;
  }
  // Short text often encodes without a digit; then '=' padding must complete the run.
  const padded = run.charCodeAt(n - 1) === 61 && n % 4 === 0;
  if ((kinds & 3) !== 3 || !((kinds & 4) !== 0 || padded)) return undefined;
  let end = n;
  while (end > 0 && run.charCodeAt(end - 1) === 61) end--;
  if (end % 4 === 1) return undefined;
  const size = (end >> 2) * 3 + (end % 4 === 0 ? 0 : (end % 4) - 1);
  const head = Math.min(size, HEAD_BYTES);
  if (head === 0) return undefined;
  // Decode here a run SMALL holds, or the head of a longer one (Buffer then decodes it whole);
  // stop at the first byte after which the head can no longer be 95 % printable, which is exact,
  // so no share check follows for the head.
  const here = size <= SMALL.length ? size : head;
  let o = 0;
  let printable = 0;
  let bits = 0;
  let acc = 0;
  for (let i = 0; o < here; i++) {
    const c = run.charCodeAt(i);
    const v = c < 128 ? BASE64_VALUE[c]! : -1;
    if (v < 0) return undefined; // not base64 at all
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      const b = (acc >> bits) & 255;
      SMALL[o++] = b;
      if (isPrintable(b)) printable++;
      else if (o <= head && (head - (o - printable)) / head < MIN_PRINTABLE) return undefined;
    }
  }
  if (size === here) return printable / size < MIN_PRINTABLE ? undefined : SMALL.toString('latin1', 0, size);
  const buf = Buffer.from(end === n ? run : run.slice(0, end), 'base64');
  if (printableShare(buf) < MIN_PRINTABLE) return undefined;
  return buf.toString('latin1');
}

/**
 * Decode a run of hex digits (`0x` before it allowed) if it is hex of text: the hex digits from
 * `start`, in pairs, across line breaks after a line of 32 digits or more (`xxd -p` writes 60 a
 * line), 95 % printable ASCII like base64's — its first 48 bytes and the whole — stopping as
 * soon as the first 48 can no longer be, and at `maxBytes` (the call's decoding budget). Returns
 * the text and the length of the source it came from (the `0x`, the digits and the line breaks
 * between them), or undefined.
 */
export function decodeHexText(text: string, start: number, maxBytes = Infinity): { text: string; length: number } | undefined {
  let i = hexDigitsStart(text, start);
  const bytes: number[] = [];
  let nonPrintable = 0;
  let line = 0; // digits on the current line
  while (bytes.length < maxBytes) {
    const high = HEXVAL(text.charCodeAt(i));
    const low = high < 0 ? -1 : HEXVAL(text.charCodeAt(i + 1));
    if (low < 0) {
      // a wrapped dump: the next line goes on with hex digits
      const lf = text.charCodeAt(i) === 13 ? i + 1 : i;
      if (line >= MIN_HEX_LINE && text.charCodeAt(lf) === 10 && isHexDigit(text.charCodeAt(lf + 1))) {
        i = lf + 1;
        line = 0;
        continue;
      }
      break;
    }
    const b = (high << 4) | low;
    bytes.push(b);
    // (three bytes not printable among the first 48, or among fewer, fail the head)
    if (!isPrintable(b) && ++nonPrintable > HEAD_BYTES * (1 - MIN_PRINTABLE) && bytes.length <= HEAD_BYTES) return undefined;
    i += 2;
    line += 2;
  }
  const head = Math.min(bytes.length, HEAD_BYTES);
  if (head === 0 || nonPrintable / bytes.length > 1 - MIN_PRINTABLE) return undefined;
  let headPrintable = 0;
  for (let k = 0; k < head; k++) if (isPrintable(bytes[k]!)) headPrintable++;
  if (headPrintable / head < MIN_PRINTABLE) return undefined;
  return { text: Buffer.from(bytes).toString('latin1'), length: i - start };
}

/** Where the digits of a hex run at `start` begin: past a `0x` (or `0X`) there. */
export function hexDigitsStart(text: string, start: number): number {
  return text.charCodeAt(start) === 48 && (text.charCodeAt(start + 1) | 0x20) === 120 ? start + 2 : start;
}

/** Hex digits a line of a wrapped hex dump holds at least for the next line to be read with it. */
const MIN_HEX_LINE = 32;

/** Value of a hex digit character, -1 for any other. */
export const HEXVAL = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;

/** A character of `\w`: an ASCII letter, digit or `_`. */
export const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** A hex digit character. */
export const isHexDigit = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** Characters that end a token around an escape: whitespace, quotes, angle brackets, backtick. */
const TOKEN_STOP = /[\s"'<>\x60]/;
const IS_TOKEN_STOP = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (TOKEN_STOP.test(String.fromCharCode(c))) IS_TOKEN_STOP[c] = 1;
export const isTokenStop = (c: number): boolean => (c < 128 ? IS_TOKEN_STOP[c] === 1 : TOKEN_STOP.test(String.fromCharCode(c)));

/**
 * Percent-decode `source[from, to)` byte-wise (each %XX becomes one character; `+` stays), with
 * offsets. Malformed escapes are kept literally. Returns undefined when nothing was escaped.
 */
export function decodePercent(source: string, from: number, to: number): MappedText | undefined {
  const out = new MappedTextBuilder(source, from);
  let copied = from;
  for (let i = source.indexOf('%', from); i >= 0 && i + 2 < to; i = source.indexOf('%', i + 1)) {
    const hi = HEXVAL(source.charCodeAt(i + 1));
    const lo = HEXVAL(source.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) continue;
    out.plain(copied, i);
    out.escape(hi * 16 + lo, i, 3);
    copied = i + 3;
    i += 2;
  }
  out.plain(copied, to);
  return out.build();
}

const SIMPLE_ESCAPES: Record<number, number> = {
  34: 34, // \"
  39: 39, // \'
  47: 47, // \/
  92: 92, // \\
  98: 8, // \b
  102: 12, // \f
  110: 10, // \n
  114: 13, // \r
  116: 9, // \t
};

const isOctal = (c: number): boolean => c >= 48 && c <= 55;

/**
 * Undo JSON (and JS) string escapes in `source[from, to)`: \" \\ \/ \n \t \uXXXX ..., and C's
 * \xNN and three-digit octal \NNN, with offsets.
 * Returns undefined when nothing was escaped.
 */
export function decodeJsonEscapes(source: string, from: number, to: number): MappedText | undefined {
  const out = new MappedTextBuilder(source, from);
  let copied = from;
  for (let i = source.indexOf('\\', from); i >= 0 && i + 1 < to; i = source.indexOf('\\', i)) {
    const e = source.charCodeAt(i + 1);
    const simple = SIMPLE_ESCAPES[e];
    let code = -1;
    let length = 2;
    if (simple !== undefined) code = simple;
    else if (e === 117 && i + 5 < to) {
      code =
        (HEXVAL(source.charCodeAt(i + 2)) << 12) | (HEXVAL(source.charCodeAt(i + 3)) << 8) |
        (HEXVAL(source.charCodeAt(i + 4)) << 4) | HEXVAL(source.charCodeAt(i + 5));
      length = 6;
    } else if (e === 120 && i + 3 < to) {
      // `\xNN`: not JSON's, but C's, Python's and `printf`'s byte escape (a token spelled `\x67\x68\x70\x5f…`)
      code = (HEXVAL(source.charCodeAt(i + 2)) << 4) | HEXVAL(source.charCodeAt(i + 3));
      length = 4;
    } else if (e >= 48 && e <= 51 && i + 3 < to && isOctal(source.charCodeAt(i + 2)) && isOctal(source.charCodeAt(i + 3))) {
      // `\NNN`: C's, Python's and `printf`'s octal byte escape, three digits (`\147\150\160\137…`)
      code = ((e - 48) << 6) | ((source.charCodeAt(i + 2) - 48) << 3) | (source.charCodeAt(i + 3) - 48);
      length = 4;
    }
    if (code < 0) {
      i += 1; // a lone backslash stays as it is
      continue;
    }
    out.plain(copied, i);
    out.escape(code, i, length);
    copied = i + length;
    i += length;
  }
  out.plain(copied, to);
  return out.build();
}

/**
 * Characters a reader does not see, or reads as other characters: Unicode's default-ignorable
 * code points (zero-width spaces and joiners, bidirectional controls, the soft hyphen, Hangul
 * fillers, variation selectors, tag characters), fullwidth ASCII and the ideographic space, and
 * the mathematical letters and digits (`𝐠𝐡𝐩`). A token split by zero-width characters, spelled in
 * tag characters (the "ASCII smuggling" of prompt injections) or in variation selectors (data
 * smuggled behind an emoji) reaches its reader whole, and a scan of the text as written misses it.
 */
/**
 * Unicode's default-ignorable code points (Default_Ignorable_Code_Point: what a renderer shows as
 * nothing), as [first, last] ranges: a test compares them with the property in Node's tables.
 */
export const DEFAULT_IGNORABLE_RANGES: readonly (readonly [number, number])[] = [
  [0xad, 0xad], [0x34f, 0x34f], [0x61c, 0x61c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180f],
  [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff],
  [0xffa0, 0xffa0], [0xfff0, 0xfff8], [0x1bca0, 0x1bca3], [0x1d173, 0x1d17a], [0xe0000, 0xe0fff],
];

/** Variation selectors in a row read as bytes (one each) when at least this many: a shorter run is an emoji's presentation. */
const MIN_SMUGGLED_BYTES = 8;

/**
 * Per UTF-16 code unit: 1 when it is a character {@link decodeHiddenCharacters} removes or
 * replaces, 2 when it is the first half of a pair that may be one (a tag character, a variation
 * selector of the supplement, a mathematical letter, a musical or shorthand format control), 3
 * for a fullwidth form that is no letter or digit (`，`, `：`: CJK prose's punctuation, replaced in a
 * window but opening none) and the ideographic space.
 */
const HIDING_UNIT = (() => {
  const t = new Uint8Array(0x10000);
  for (let c = 0xa0; c < 0xd800; c++) if (hidingOf(c) !== Hiding.SEEN) t[c] = 1;
  for (let c = 0xe000; c < 0x10000; c++) if (hidingOf(c) !== Hiding.SEEN) t[c] = 1;
  for (const hi of [0xd82f, 0xd834, 0xd835, 0xdb40, 0xdb41, 0xdb42, 0xdb43]) t[hi] = 2;
  t[0x3000] = 3;
  for (let c = 0xff01; c <= 0xff5e; c++) if (!/[A-Za-z0-9_+/=-]/.test(String.fromCharCode(c - 0xfee0))) t[c] = 3;
  return t;
})();

/**
 * Per UTF-16 code unit, 1 where {@link hiddenWindows} may open a window (a character that hides
 * text or stands in for a letter or digit, or the first half of a pair that may be one): the
 * keyword scan's table (ScanResult.hidden).
 */
export const HIDING_OPENERS = HIDING_UNIT.map((kind) => (kind === 1 || kind === 2 ? 1 : 0));

/** Characters decoded on each side of a hidden character (as for JSON escapes: room for a key, its value and a token). */
const HIDDEN_WINDOW = 512;

/**
 * Where `text` may hide a credential, as sorted, disjoint [start, end) pairs: HIDDEN_WINDOW
 * characters on each side of every character {@link decodeHiddenCharacters} removes or replaces
 * (fullwidth punctuation and the ideographic space excepted: CJK prose is full of them, and they
 * hide no token), merged. Empty for a text without one.
 */
export function hiddenWindows(text: string): number[] {
  const windows: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xad) continue;
    const kind = HIDING_UNIT[c]!;
    if (kind === 0 || kind === 3) continue;
    if (kind === 2) {
      const cp = text.codePointAt(i)!;
      if (cp <= 0xffff || !(cp >= 0x1d400 ? cp <= 0x1d7ff || cp >= 0xe0000 : isDefaultIgnorable(cp))) continue;
    }
    const s = Math.max(0, i - HIDDEN_WINDOW);
    const e = Math.min(text.length, i + HIDDEN_WINDOW);
    const last = windows.length - 1;
    if (last > 0 && s <= windows[last]!) windows[last] = e;
    else windows.push(s, e);
  }
  return windows;
}

/** Whether code point `cp` is default-ignorable (in {@link DEFAULT_IGNORABLE_RANGES}). */
export function isDefaultIgnorable(cp: number): boolean {
  for (const [first, last] of DEFAULT_IGNORABLE_RANGES) if (cp >= first && cp <= last) return true;
  return false;
}

/** What a code point is to a reader: seen as it is, not seen, a variation selector, or a stand-in for ASCII. */
const enum Hiding {
  SEEN = 0,
  INVISIBLE = 1,
  SELECTOR = 2,
  STAND_IN = 3,
}

function hidingOf(cp: number): Hiding {
  if (selectorByte(cp) >= 0) return Hiding.SELECTOR;
  if (foldedAscii(cp) >= 0) return Hiding.STAND_IN;
  return isDefaultIgnorable(cp) ? Hiding.INVISIBLE : Hiding.SEEN;
}

/**
 * Whether UTF-16 code unit `unit`, written as a `\uXXXX` escape, may hide text or stand in for
 * it: a character {@link decodeHiddenCharacters} removes or replaces, or the first half of a tag
 * character or a mathematical letter (`\udb40`, `\ud835`).
 */
export function mayHideUnit(unit: number): boolean {
  return unit === 0xdb40 || unit === 0xd835 || HIDING_UNIT[unit] === 1;
}

/** The byte a variation selector stands for (VS1-VS16: 0-15, VS17-VS256: 16-255), or -1. */
function selectorByte(cp: number): number {
  if (cp >= 0xfe00 && cp <= 0xfe0f) return cp - 0xfe00;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return cp - 0xe0100 + 16;
  return -1;
}

/** The ASCII character a visible stand-in reads as (a tag character, fullwidth form, mathematical letter or digit), or -1. */
function foldedAscii(cp: number): number {
  if (cp >= 0xe0020 && cp <= 0xe007e) return cp - 0xe0000; // tag characters
  if (cp >= 0xff01 && cp <= 0xff5e) return cp - 0xfee0; // fullwidth forms
  if (cp === 0x3000) return 0x20; // ideographic space
  if (cp >= 0x1d400 && cp <= 0x1d7ff) {
    const folded = String.fromCodePoint(cp).normalize('NFKC');
    const c = folded.charCodeAt(0);
    return folded.length === 1 && c > 0x20 && c < 0x7f ? c : -1;
  }
  return -1;
}

/**
 * `text[from, to)` as its reader receives it: hidden characters removed, each stand-in replaced by the ASCII
 * character it reads as, and a run of at least eight variation selectors that spells printable
 * ASCII replaced by it (a shorter run, or one that spells anything else, removed). Each character
 * maps back to the source it came from, the hidden characters before it included. Undefined when
 * nothing was hidden inside the text (hidden characters only at its end hide nothing).
 */
export function decodeHiddenCharacters(text: string, from = 0, to = text.length): MappedText | undefined {
  const out = new MappedTextBuilder(text, from);
  let copied = from; // text before this is in `out`
  let hiddenFrom = -1; // the first of the removed characters not yet attached to a character after them
  /** A character of the result, from source [start, end) and the removed ones before it. */
  const put = (code: number, start: number, end: number): void => {
    const s = hiddenFrom >= 0 ? hiddenFrom : start;
    hiddenFrom = -1;
    out.escape(code, s, end - s);
  };
  const copyTo = (end: number): void => {
    if (end <= copied) return;
    if (hiddenFrom >= 0) {
      put(text.charCodeAt(copied), copied, copied + 1);
      copied++;
    }
    out.plain(copied, end);
    copied = end;
  };
  for (let at = from; at < to; ) {
    const unit = text.charCodeAt(at);
    // (ASCII and Latin-1 below the soft hyphen hide nothing: one comparison for most characters)
    if (unit < 0xad) {
      at++;
      continue;
    }
    const kind = HIDING_UNIT[unit]!;
    if (kind === 0) {
      at++;
      continue;
    }
    const cp = kind === 2 ? text.codePointAt(at)! : unit;
    let end = at + (cp > 0xffff ? 2 : 1);
    const hiding = hidingOf(cp);
    if (hiding === Hiding.SEEN) {
      at = end;
      continue;
    }
    copyTo(at);
    if (hiding === Hiding.SELECTOR) {
      const bytes = [selectorByte(cp)];
      for (let next = text.codePointAt(end)!; end < to && selectorByte(next) >= 0; next = text.codePointAt(end)!) {
        bytes.push(selectorByte(next));
        end += next > 0xffff ? 2 : 1;
      }
      if (bytes.length >= MIN_SMUGGLED_BYTES && printableShare(Uint8Array.from(bytes)) === 1) {
        // every character it spells maps to the whole run
        put(bytes[0]!, at, end);
        for (let i = 1; i < bytes.length; i++) out.escape(bytes[i]!, at, end - at);
      } else if (hiddenFrom < 0) hiddenFrom = at;
    } else if (hiding === Hiding.STAND_IN) put(foldedAscii(cp), at, end);
    else if (hiddenFrom < 0) hiddenFrom = at;
    copied = end;
    at = end;
  }
  copyTo(to);
  return out.build();
}

/**
 * Keywords whose hits may open a window of spelled characters ({@link spelledWindows}): a numeric
 * character reference (`&#103;`, `&#x67;`: HTML, XML, SVG); a list of character codes after the
 * call that turns it into text — JavaScript's `String.fromCharCode(…)` (or before it:
 * `[103, …].map(… fromCharCode …)`), Python's `bytes([…])` and `bytearray([…])`,
 * `Buffer.from([…])`, `new Uint8Array([…])`, Go's `[]byte{…}`, SQL's `CHAR(…)`; a chain of
 * `chr(…)` / `char(…)` calls; and two string literals joined by `+`, `.` or `..` with a space
 * before it (`"ghp_ab" + "cd…"`, PHP's `'…' . '…'`, Lua's `..`). Joins written without the space
 * (`"a"+"b"`) are left out: `".` and `"+` begin every `"./path"` and `"+1"` of package code, which
 * cost 1.2× on its text; a window another hit opens still joins them. So are the bare `from([` and
 * `array([` (`Array.from([…])`, NumPy's `np.array([…])`: about 5 % of package text's time).
 */
export const SPELLING_KEYWORDS: readonly string[] = ['&#', 'fromcharcode', 'bytes([', 'bytearray([', 'buffer.from([', 'uint8array([', 'uint8array.from([', 'byte{', 'chr(', 'char(', '" +', "' +", '" .', "' ."];

/**
 * The keywords of {@link SPELLING_KEYWORDS} that are calls (lowercase): those a list of codes
 * follows, and `chr(` / `char(`. The analyzer's SQL pre-filter is built from them, so a call added
 * here is read there too.
 */
export const SPELLING_CALLS: readonly string[] = SPELLING_KEYWORDS.filter((k) => k !== '&#' && k.charCodeAt(0) !== 34 && k.charCodeAt(0) !== 39);

/** Fewest character codes in a list or chain of calls that is read as text (a token is longer; `[1, 2, 3]` is data). */
const MIN_SPELLED_CODES = 8;
/** Characters decoded on each side of a spelled run (room for the key before it and the token's rest). */
const SPELLED_WINDOW = 256;

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** A character tokens are made of: letters, digits and `_ - + / = .` (a reference to one inside a token breaks it as written). */
const isTokenChar = (c: number): boolean => isWordChar(c) || c === 45 || c === 43 || c === 47 || c === 61 || c === 46;

/** A number at `p` (decimal, or hex after `0x`), its value (-1 past 0x10ffff) and end; undefined when none. */
function numberAt(text: string, p: number): { value: number; end: number } | undefined {
  let value = 0;
  let q = p;
  if (text.charCodeAt(p) === 48 && (text.charCodeAt(p + 1) | 0x20) === 0x78) {
    for (q = p + 2; q < text.length && q < p + 10 && isHexDigit(text.charCodeAt(q)); q++) value = value * 16 + HEXVAL(text.charCodeAt(q));
    return q === p + 2 || isWordChar(text.charCodeAt(q)) ? undefined : { value: q - p > 8 ? -1 : value, end: q };
  }
  for (; q < text.length && q < p + 8 && isDigit(text.charCodeAt(q)); q++) value = value * 10 + text.charCodeAt(q) - 48;
  return q === p || isWordChar(text.charCodeAt(q)) ? undefined : { value, end: q };
}

/** A numeric character reference at `p` (`&#103;`, `&#x67;`; the `;` may be left out, as browsers read it): its code point and end. */
function characterReferenceAt(text: string, p: number): { code: number; end: number } | undefined {
  if (text.charCodeAt(p) !== 38 || text.charCodeAt(p + 1) !== 35) return undefined;
  const hex = (text.charCodeAt(p + 2) | 0x20) === 0x78;
  let q = p + (hex ? 3 : 2);
  const start = q;
  let code = 0;
  for (; q < text.length && q < start + 7; q++) {
    const c = text.charCodeAt(q);
    if (hex ? !isHexDigit(c) : !isDigit(c)) break;
    code = code * (hex ? 16 : 10) + (hex ? HEXVAL(c) : c - 48);
  }
  if (q === start || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  return { code, end: text.charCodeAt(q) === 59 ? q + 1 : q };
}

/** Whether code `c` is printable ASCII (what a spelled token is written in). */
const isPrintableCode = (c: number): boolean => c >= 32 && c < 127;

/**
 * A list of at least MIN_SPELLED_CODES printable ASCII codes starting at `p` (after any opening
 * `(`, `[`, `{` and spaces): numbers separated by commas (and spaces or line breaks). Its codes,
 * the [start, end) of each number, and where the list ends (after its last number).
 */
function codeListAt(text: string, p: number): { codes: number[]; starts: number[]; ends: number[] } | undefined {
  let q = p;
  while (q < text.length && q < p + 8 && (isSpace(text.charCodeAt(q)) || text.charCodeAt(q) === 40 || text.charCodeAt(q) === 91 || text.charCodeAt(q) === 123)) q++;
  const codes: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (;;) {
    const n = numberAt(text, q);
    if (n === undefined || !isPrintableCode(n.value)) break;
    codes.push(n.value);
    starts.push(q);
    ends.push(n.end);
    q = n.end;
    while (isSpace(text.charCodeAt(q))) q++;
    if (text.charCodeAt(q) !== 44) break;
    q++;
    while (isSpace(text.charCodeAt(q))) q++;
  }
  return codes.length >= MIN_SPELLED_CODES ? { codes, starts, ends } : undefined;
}

/** `chr(` or `char(` (any case) at `p`, not after a word character: the end of the opening parenthesis, else -1. */
function chrCallAt(text: string, p: number): number {
  if ((text.charCodeAt(p) | 0x20) !== 0x63 || (text.charCodeAt(p + 1) | 0x20) !== 0x68) return -1;
  let q = p + 2;
  if ((text.charCodeAt(q) | 0x20) === 0x61) q++;
  if ((text.charCodeAt(q) | 0x20) !== 0x72) return -1;
  q++;
  return text.charCodeAt(q) === 40 && (p === 0 || !isWordChar(text.charCodeAt(p - 1))) ? q + 1 : -1;
}

/**
 * A chain of at least MIN_SPELLED_CODES `chr(N)` calls at `p` joined by `+`, `.`, `&`, `||` or `,`
 * (Python, PHP, Visual Basic, SQL): each call's code and [start, end).
 */
function chrChainAt(text: string, p: number): { codes: number[]; starts: number[]; ends: number[] } | undefined {
  const codes: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let q = p;
  for (;;) {
    const open = chrCallAt(text, q);
    if (open < 0) break;
    let r = open;
    while (isSpace(text.charCodeAt(r))) r++;
    const n = numberAt(text, r);
    if (n === undefined || !isPrintableCode(n.value)) break;
    r = n.end;
    while (isSpace(text.charCodeAt(r))) r++;
    if (text.charCodeAt(r) !== 41) break;
    codes.push(n.value);
    starts.push(q);
    ends.push(r + 1);
    q = r + 1;
    while (isSpace(text.charCodeAt(q))) q++;
    const c = text.charCodeAt(q);
    if (c === 43 || c === 46 || c === 38 || c === 44) q++;
    else if (c === 124 && text.charCodeAt(q + 1) === 124) q += 2;
    else break;
    while (isSpace(text.charCodeAt(q))) q++;
  }
  return codes.length >= MIN_SPELLED_CODES ? { codes, starts, ends } : undefined;
}

/**
 * A join of two string literals at `p`, the closing quote of the first: the quote, spaces, `+`, `.`
 * or `..`, spaces (line breaks too) and the same quote opening the next. Its end, else -1.
 */
function literalJoinAt(text: string, p: number): number {
  const quote = text.charCodeAt(p);
  if (quote !== 34 && quote !== 39) return -1;
  let q = p + 1;
  while (q < text.length && q < p + 64 && isSpace(text.charCodeAt(q))) q++;
  const op = text.charCodeAt(q);
  if (op === 43) q++;
  else if (op === 46) q += text.charCodeAt(q + 1) === 46 ? 2 : 1;
  else return -1;
  const after = q;
  while (q < text.length && q < after + 64 && isSpace(text.charCodeAt(q))) q++;
  return text.charCodeAt(q) === quote ? q + 1 : -1;
}

/**
 * Where `text` may spell a credential out, as sorted, disjoint [start, end) pairs: SPELLED_WINDOW
 * characters on each side of a keyword hit (`hits`: pairs of keyword id and start) that
 * `spelling[id]` names (its keyword) and that opens a spelled run — a character reference to a
 * token character (`gh&#112;_…`: one breaks a token as written; `&#39;` for an apostrophe does not),
 * a list or `chr()` chain of eight printable codes or more, or a join of two string literals.
 */
export function spelledWindows(text: string, hits: readonly number[], spelling: readonly (string | undefined)[]): number[] {
  const windows: number[] = [];
  let spelledTo = -1; // the end of the last run found: a hit inside it (the next `chr(` of a chain) is in its window already
  for (let h = 0; h < hits.length; h += 2) {
    const keyword = spelling[hits[h]!];
    if (keyword === undefined) continue;
    const p = hits[h + 1]!;
    if (p < spelledTo) continue;
    let end = -1;
    if (keyword === '&#') {
      const ref = characterReferenceAt(text, p);
      if (ref !== undefined && ref.code < 127 && isTokenChar(ref.code)) end = ref.end;
    } else if (keyword.charCodeAt(0) === 34 || keyword.charCodeAt(0) === 39) end = literalJoinAt(text, p);
    else if (keyword === 'chr(' || keyword === 'char(') {
      const chain = chrChainAt(text, p) ?? codeListAt(text, p + keyword.length);
      if (chain !== undefined) end = chain.ends[chain.ends.length - 1]!;
    } else {
      let list = codeListAt(text, p + keyword.length);
      if (list === undefined && keyword === 'fromcharcode') {
        // (the codes may come before: `[103, 104, …].map((c) => String.fromCharCode(c))`)
        let bracket = p - 1;
        while (bracket >= 0 && bracket >= p - SPELLED_WINDOW && text.charCodeAt(bracket) !== 91) bracket--;
        if (bracket >= 0 && text.charCodeAt(bracket) === 91) list = codeListAt(text, bracket);
      }
      if (list !== undefined) end = Math.max(p + keyword.length, list.ends[list.ends.length - 1]!);
    }
    if (end < 0) continue;
    spelledTo = end;
    const s = Math.max(0, p - SPELLED_WINDOW);
    const e = Math.min(text.length, end + SPELLED_WINDOW);
    // (hits come by start, so windows come in order)
    const last = windows.length - 1;
    if (last > 0 && s <= windows[last]!) windows[last] = Math.max(windows[last]!, e);
    else windows.push(s, e);
  }
  return windows;
}

/** Lowercase keywords a list of codes follows ({@link SPELLING_CALLS} but `chr(` and `char(`). */
const LIST_CALLS = SPELLING_CALLS.filter((k) => k !== 'chr(' && k !== 'char(');

/** Where the call of {@link LIST_CALLS} (or SQL's `char(`) whose bracket is at `q` begins, else -1. */
function listCallStart(text: string, q: number): number {
  for (const k of LIST_CALLS_AND_CHAR) {
    const at = q + 1 - k.length;
    if (at >= 0 && text.charCodeAt(q) === k.charCodeAt(k.length - 1) && text.slice(at, q + 1).toLowerCase() === k) return at;
  }
  return -1;
}
const LIST_CALLS_AND_CHAR = [...LIST_CALLS.map((k) => (k === 'fromcharcode' ? 'fromcharcode(' : k)), 'char('];

/** A method call that turns bytes into text, right after a list: `.decode()`, `.decode("utf-8")`, `.toString('utf8')`. */
const TO_TEXT_METHOD = /\.(?:decode|tostring)\(\s*(?:(["'])[\w-]{0,16}\1\s*)?\)/iy;

/**
 * Where the expression of a list call starting at `call` begins: its receiver (`String.`,
 * `Buffer.`), Go's `[]` before `byte{`, and one call around it (`string(`), not before `floor`.
 */
function expressionStart(text: string, call: number, floor: number): number {
  const wordBack = (at: number) => {
    while (at > floor && (isWordChar(text.charCodeAt(at - 1)) || text.charCodeAt(at - 1) === 46)) at--;
    return at;
  };
  let start = wordBack(call);
  if (start - 2 >= floor && text.charCodeAt(start - 1) === 93 && text.charCodeAt(start - 2) === 91) start -= 2;
  if (start - 1 > floor && text.charCodeAt(start - 1) === 40) {
    const outer = wordBack(start - 1);
    if (outer < start - 1) start = outer;
  }
  return start;
}

/**
 * `text[from, to)` with what it spells out written as text: each numeric character reference
 * replaced by its character; each list of printable codes — with the call that makes it text, its
 * receiver and a `.decode()` after it — and each chain of `chr()` calls replaced by its text in
 * double quotes (`String.fromCharCode(104, …)` and `bytes([104, …]).decode()` read as `"h…"`); and
 * each join of two string literals removed (`"ghp_ab" + "cd"` reads as `"ghp_abcd"`). Each
 * character maps back to the source it came from; what a list or join removes goes to the
 * character after it. Undefined when the window spells nothing out.
 */
export function decodeSpelledCharacters(text: string, from = 0, to = text.length): MappedText | undefined {
  const out = new MappedTextBuilder(text, from);
  let copied = from;
  /** The spelled codes at [start, end) pairs, as a double-quoted text: the quotes cover from `open` to the first and from the last to `close`. */
  const quoted = (codes: number[], starts: number[], ends: number[], open: number, close: number): void => {
    out.plain(copied, open);
    out.escape(34, open, starts[0]! - open);
    for (let i = 0; i < codes.length; i++) out.escape(codes[i]!, i === 0 ? starts[0]! : ends[i - 1]!, ends[i]! - (i === 0 ? starts[0]! : ends[i - 1]!));
    out.escape(34, ends[ends.length - 1]!, close - ends[ends.length - 1]!);
    copied = close;
  };
  for (let at = from; at < to; ) {
    const c = text.charCodeAt(at);
    if (c === 38) {
      const ref = characterReferenceAt(text, at);
      if (ref !== undefined && ref.end <= to) {
        out.plain(copied, at);
        if (ref.code > 0xffff) {
          const s = String.fromCodePoint(ref.code);
          out.escape(s.charCodeAt(0), at, ref.end - at);
          out.escape(s.charCodeAt(1), at, ref.end - at);
        } else out.escape(ref.code, at, ref.end - at);
        copied = at = ref.end;
        continue;
      }
    } else if (c === 34 || c === 39) {
      const end = literalJoinAt(text, at);
      if (end > 0 && end < to) {
        // the join goes to the character after it
        out.plain(copied, at);
        out.escape(text.charCodeAt(end), at, end + 1 - at);
        copied = at = end + 1;
        continue;
      }
    } else if ((c | 0x20) === 0x63) {
      const chain = chrChainAt(text, at);
      if (chain !== undefined && chain.ends[chain.ends.length - 1]! <= to) {
        const close = chain.ends[chain.ends.length - 1]!;
        quoted(chain.codes, chain.starts, chain.ends, at, close);
        at = close;
        continue;
      }
    } else if (c === 40 || c === 91 || c === 123) {
      // (a list with no call before it: one the code maps to characters elsewhere, `[103, …].map(…)`)
      let first = at + 1;
      while (isSpace(text.charCodeAt(first))) first++;
      // (the quotes stand for the call, its receiver and one call around it too: `String.fromCharCode(…)`
      // and Go's `string([]byte{…})` read as `"…"`)
      const call = listCallStart(text, at);
      const open = call >= copied ? expressionStart(text, call, copied) : at;
      const list = isDigit(text.charCodeAt(first)) ? codeListAt(text, first) : undefined;
      if (list !== undefined && list.ends[list.ends.length - 1]! <= to) {
        // as many brackets closed after the list as the expression opened before it
        let opened = 0;
        for (let i = open; i < first; i++) {
          const b = text.charCodeAt(i);
          if (b === 40 || b === 91 || b === 123) opened++;
          else if (b === 41 || b === 93 || b === 125) opened--;
        }
        let close = list.ends[list.ends.length - 1]!;
        for (; opened > 0; opened--) {
          let q = close;
          while (isSpace(text.charCodeAt(q))) q++;
          if (text.charCodeAt(q) === 44) q++; // a trailing comma
          while (isSpace(text.charCodeAt(q))) q++;
          const b = text.charCodeAt(q);
          if (q >= to || (b !== 41 && b !== 93 && b !== 125)) break;
          close = q + 1;
        }
        // (and a method that makes the bytes text: `bytes([…]).decode()` reads as `"…"`)
        TO_TEXT_METHOD.lastIndex = close;
        if (TO_TEXT_METHOD.test(text) && TO_TEXT_METHOD.lastIndex <= to) close = TO_TEXT_METHOD.lastIndex;
        quoted(list.codes, list.starts, list.ends, open, close);
        at = close;
        continue;
      }
    }
    at++;
  }
  if (copied === from) return undefined;
  out.plain(copied, to);
  return out.build();
}

/**
 * What `span` — a finding's span in text read by {@link decodeSpelledCharacters}, or a whole value —
 * spells: its character references, lists of codes, `chr()` chains and joins read (a list or chain
 * that is the whole span without its quotes; a bare list of codes, which a list's finding spans,
 * as its characters). Undefined when it spells nothing.
 */
export function spelledText(span: string): string | undefined {
  const list = codeListAt(span, 0);
  if (list !== undefined && list.starts[0] === 0 && list.ends[list.ends.length - 1] === span.length) return String.fromCharCode(...list.codes);
  const decoded = decodeSpelledCharacters(span)?.text;
  if (decoded === undefined) return undefined;
  const chain = chrChainAt(span, 0);
  return chain !== undefined && chain.ends[chain.ends.length - 1] === span.length ? decoded.slice(1, -1) : decoded;
}
