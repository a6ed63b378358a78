/**
 * Bounded decoders for the encodings credentials hide in: base64 (Kubernetes secrets, Basic
 * auth, docker config), URL-encoding (query strings) and JSON string escapes (JSON inside a
 * string). Each returns the decoded text plus, where the mapping is not trivial, where every
 * decoded character came from, so a finding maps back to the encoded span.
 */

/**
 * Decoded text with its source offsets: char i came from source [starts[i], ends[i]). Plain
 * arrays: typed arrays of this size live outside the heap and cost more to allocate than the
 * decoding itself.
 */
export interface MappedText {
  text: string;
  starts: number[];
  ends: number[];
}

const PRINTABLE = new Uint8Array(256);
for (let b = 0x20; b < 0x7f; b++) PRINTABLE[b] = 1;
PRINTABLE[0x09] = PRINTABLE[0x0a] = PRINTABLE[0x0d] = 1;

/** Share of printable ASCII bytes in a buffer, 0..1. */
function printableShare(buf: Uint8Array): number {
  let ok = 0;
  for (let i = 0; i < buf.length; i++) ok += PRINTABLE[buf[i]!]!;
  return buf.length === 0 ? 0 : ok / buf.length;
}

/** Minimum printable share for a decoded base64 run to be scanned as text. */
const MIN_PRINTABLE = 0.95;

/**
 * Decode a run of base64 (standard or URL-safe) if it decodes to text. Cheap rejections first:
 * the run must mix character classes like encoded text does, and its first 64 characters must
 * decode to printable ASCII before the rest is decoded.
 */
export function decodeBase64Text(run: string): string | undefined {
  // Base64 of ASCII text: the first character of every 4-character group encodes the top six
  // bits of a byte below 0x80, so it is one of A-Z or a-f. Checked without allocating.
  const n = run.length;
  let lower = false;
  let upper = false;
  let digit = false;
  for (let i = 0; i < n; i++) {
    const c = run.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) upper = true;
    else if (c >= 48 && c <= 57) digit = true;
    else if (c === 61) break; // padding
    if ((i & 3) === 0 && i < 256 && !((c >= 65 && c <= 90) || (c >= 97 && c <= 102))) return undefined;
  }
  if (!lower || !upper || !digit) return undefined;
  const body = run.replace(/=+$/, '');
  if (body.length % 4 === 1) return undefined;
  const head = Buffer.from(body.slice(0, 64), 'base64');
  if (printableShare(head) < MIN_PRINTABLE) return undefined;
  const buf = body.length <= 64 ? head : Buffer.from(body, 'base64');
  if (printableShare(buf) < MIN_PRINTABLE) return undefined;
  return buf.toString('latin1');
}

const HEXVAL = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;

/**
 * Percent-decode `source[from, to)` byte-wise (each %XX becomes one character; `+` stays), with
 * offsets. Malformed escapes are kept literally. Returns undefined when nothing was escaped.
 */
export function decodePercent(source: string, from: number, to: number): MappedText | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  const parts: number[] = [];
  let changed = false;
  let i = from;
  while (i < to) {
    const c = source.charCodeAt(i);
    if (c === 37 && i + 2 < to) {
      const hi = HEXVAL(source.charCodeAt(i + 1));
      const lo = HEXVAL(source.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        starts[parts.length] = i;
        ends[parts.length] = i + 3;
        parts.push(hi * 16 + lo);
        i += 3;
        changed = true;
        continue;
      }
    }
    starts[parts.length] = i;
    ends[parts.length] = i + 1;
    parts.push(c);
    i++;
  }
  if (!changed) return undefined;
  return { text: fromCodes(parts), starts, ends };
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
 * Undo JSON (and JS) string escapes in `source[from, to)`: \" \\ \/ \n \t \uXXXX ..., with offsets.
 * Returns undefined when nothing was escaped.
 */
export function decodeJsonEscapes(source: string, from: number, to: number): MappedText | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  const parts: number[] = [];
  let changed = false;
  let i = from;
  while (i < to) {
    const c = source.charCodeAt(i);
    if (c === 92 && i + 1 < to) {
      const e = source.charCodeAt(i + 1);
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        starts[parts.length] = i;
        ends[parts.length] = i + 2;
        parts.push(simple);
        i += 2;
        changed = true;
        continue;
      }
      if (e === 117 && i + 5 < to) {
        const code =
          (HEXVAL(source.charCodeAt(i + 2)) << 12) | (HEXVAL(source.charCodeAt(i + 3)) << 8) |
          (HEXVAL(source.charCodeAt(i + 4)) << 4) | HEXVAL(source.charCodeAt(i + 5));
        if (code >= 0) {
          starts[parts.length] = i;
          ends[parts.length] = i + 6;
          parts.push(code);
          i += 6;
          changed = true;
          continue;
        }
      }
    }
    starts[parts.length] = i;
    ends[parts.length] = i + 1;
    parts.push(c);
    i++;
  }
  if (!changed) return undefined;
  return { text: fromCodes(parts), starts, ends };
}

function fromCodes(codes: number[]): string {
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.slice(i, i + 8192));
  return out;
}

/**
 * Merge windows [p - before, p + after) around positions into disjoint, sorted regions,
 * clipped to [0, limit). Positions must be ascending.
 */
export function mergeWindows(positions: readonly number[], before: number, after: number, limit: number): number[] {
  const out: number[] = [];
  for (const p of positions) {
    const s = Math.max(0, p - before);
    const e = Math.min(limit, p + after);
    const last = out.length - 1;
    if (last > 0 && s <= out[last]!) out[last] = Math.max(out[last]!, e);
    else out.push(s, e);
  }
  return out;
}
