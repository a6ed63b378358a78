/**
 * A byte-level pass over JSON text before DuckDB parses it. It finds the two things that must
 * not reach DuckDB's JSON reader: nesting deeper than {@link MAX_JSON_NESTING} (DuckDB's
 * structure detection recurses once per level and overflows its thread's stack somewhere past
 * 50,000 levels: a segfault, not an error), and bytes that are not UTF-8 (DuckDB's error then
 * quotes the whole line). Brackets inside strings do not count; escapes are followed.
 */

/** Deepest nesting accepted (objects and arrays). OTLP's own structure needs about a dozen levels. */
export const MAX_JSON_NESTING = 1000;

/** What the scan found, by 1-based line number. */
export interface ByteScanResult {
  /** Lines in the text: newlines, plus one for a last line without a newline. */
  lines: number;
  /** Lines where the nesting first went deeper than the limit. */
  tooDeep: number[];
  /** Lines holding a byte sequence that is not UTF-8. */
  invalidUtf8: number[];
}

// Byte classes outside strings, and inside them.
const OTHER = 0;
const QUOTE = 1;
const OPEN = 2;
const CLOSE = 3;
const NEWLINE = 4;
const HIGH = 5;
const BACKSLASH = 6;
const OUTSIDE = new Uint8Array(256);
const INSIDE = new Uint8Array(256);
for (let b = 0x80; b < 0x100; b++) OUTSIDE[b] = INSIDE[b] = HIGH;
OUTSIDE[0x22] = INSIDE[0x22] = QUOTE;
OUTSIDE[0x0a] = INSIDE[0x0a] = NEWLINE;
OUTSIDE[0x5b] = OUTSIDE[0x7b] = OPEN; // [ {
OUTSIDE[0x5d] = OUTSIDE[0x7d] = CLOSE; // ] }
INSIDE[0x5c] = BACKSLASH;

/**
 * Feed the text in chunks of any size with `push`, then call `end`. In `lines` mode (JSON
 * lines) every newline starts a fresh record: nesting and string state reset, so one broken line
 * cannot hide the next. In `document` mode newlines are whitespace inside one value, and only
 * the first too-deep line is reported.
 */
export class JsonByteScanner {
  private line = 1;
  private depth = 0;
  private inString = false;
  /** A backslash ended the last chunk: the next byte is escaped. */
  private escaped = false;
  /** Continuation bytes still due for the current UTF-8 character, and the range the next one must be in. */
  private utf8Need = 0;
  private utf8Lo = 0x80;
  private utf8Hi = 0xbf;
  private lineHasBytes = false;
  private readonly tooDeep: number[] = [];
  private readonly invalidUtf8: number[] = [];

  constructor(
    private readonly mode: 'lines' | 'document',
    private readonly maxDepth: number = MAX_JSON_NESTING,
  ) {}

  push(buf: Uint8Array): void {
    const n = buf.length;
    if (n === 0) return;
    let i = 0;
    let { line, depth, inString } = this;
    if (this.utf8Need > 0) i = this.utf8Char(buf, i, line);
    if (this.escaped && i < n) {
      this.escaped = false;
      const b = buf[i]!;
      if (b !== 0x0a && b < 0x80) i++;
    }
    while (i < n) {
      if (inString) {
        let c = OTHER;
        while (i < n && (c = INSIDE[buf[i]!]!) === OTHER) i++;
        if (i >= n) break;
        if (c === QUOTE) {
          inString = false;
          i++;
        } else if (c === BACKSLASH) {
          i++;
          if (i >= n) {
            this.escaped = true;
            break;
          }
          // The escaped byte is skipped, unless it ends the line or starts a multi-byte character.
          const b = buf[i]!;
          if (b !== 0x0a && b < 0x80) i++;
        } else if (c === NEWLINE) {
          i++;
          line++;
          if (this.mode === 'lines') {
            inString = false;
            depth = 0;
          }
        } else {
          i = this.utf8Char(buf, i, line);
        }
        continue;
      }
      const c = OUTSIDE[buf[i]!]!;
      if (c === OTHER) {
        i++;
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        i++;
      } else if (c === OPEN) {
        i++;
        if (++depth > this.maxDepth && this.tooDeep[this.tooDeep.length - 1] !== line && (this.mode === 'lines' || this.tooDeep.length === 0)) this.tooDeep.push(line);
      } else if (c === CLOSE) {
        i++;
        if (depth > 0) depth--;
      } else if (c === NEWLINE) {
        i++;
        line++;
        if (this.mode === 'lines') depth = 0;
      } else {
        i = this.utf8Char(buf, i, line);
      }
    }
    this.lineHasBytes = buf[n - 1] !== 0x0a;
    this.line = line;
    this.depth = depth;
    this.inString = inString;
  }

  /**
   * Check one UTF-8 character starting at `i` (or the rest of one begun in the last chunk), by
   * the Unicode table of well-formed sequences: no overlong forms, no surrogates, nothing past
   * U+10FFFF. Returns where scanning goes on: after the character, or at the byte that broke it
   * (that byte is read again as what it is: a quote, a newline, a new character).
   */
  private utf8Char(buf: Uint8Array, i: number, line: number): number {
    let need = this.utf8Need;
    let lo = this.utf8Lo;
    let hi = this.utf8Hi;
    if (need === 0) {
      const b = buf[i]!;
      if (b >= 0xc2 && b <= 0xdf) need = 1;
      else if (b >= 0xe0 && b <= 0xef) need = 2;
      else if (b >= 0xf0 && b <= 0xf4) need = 3;
      else {
        this.markInvalidUtf8(line);
        return i + 1;
      }
      lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      i++;
    }
    while (need > 0) {
      if (i >= buf.length) {
        this.utf8Need = need;
        this.utf8Lo = lo;
        this.utf8Hi = hi;
        return i;
      }
      const c = buf[i]!;
      if (c < lo || c > hi) {
        this.utf8Need = 0;
        this.markInvalidUtf8(line);
        return i;
      }
      need--;
      lo = 0x80;
      hi = 0xbf;
      i++;
    }
    this.utf8Need = 0;
    return i;
  }

  private markInvalidUtf8(line: number): void {
    if (this.invalidUtf8[this.invalidUtf8.length - 1] !== line) this.invalidUtf8.push(line);
  }

  end(): ByteScanResult {
    // A character cut off by the end of the text.
    if (this.utf8Need > 0) {
      this.utf8Need = 0;
      this.markInvalidUtf8(this.line);
    }
    const lines = this.line - 1 + (this.lineHasBytes ? 1 : 0);
    return { lines, tooDeep: this.tooDeep, invalidUtf8: this.invalidUtf8 };
  }
}

/** Scan one complete text (a test helper and the framed reader's per-message check). */
export function scanJsonBytes(text: Uint8Array, mode: 'lines' | 'document', maxDepth = MAX_JSON_NESTING): ByteScanResult {
  const scanner = new JsonByteScanner(mode, maxDepth);
  scanner.push(text);
  return scanner.end();
}
