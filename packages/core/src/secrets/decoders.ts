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
    private readonly at: readonly number[],
    /** Source offset of each escape. */
    private readonly src: readonly number[],
    /** Source length of each escape (`\u0041` is 6). */
    private readonly len: readonly number[],
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

/** Builds a MappedText: plain runs are copied as slices, escapes appended one by one. */
class MappedTextBuilder {
  private text = '';
  private readonly at: number[] = [];
  private readonly src: number[] = [];
  private readonly len: number[] = [];
  constructor(
    private readonly source: string,
    private readonly from: number,
  ) {}

  plain(start: number, end: number): void {
    if (end > start) this.text += this.source.slice(start, end);
  }

  escape(code: number, start: number, length: number): void {
    this.at.push(this.text.length);
    this.src.push(start);
    this.len.push(length);
    this.text += String.fromCharCode(code);
  }

  build(): MappedText | undefined {
    return this.at.length === 0 ? undefined : new MappedText(this.text, this.from, this.at, this.src, this.len);
  }
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

/**
 * Undo JSON (and JS) string escapes in `source[from, to)`: \" \\ \/ \n \t \uXXXX ..., and C's
 * \xNN, with offsets.
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
