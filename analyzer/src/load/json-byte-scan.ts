/**
 * A byte-level pass over JSON text before DuckDB parses it. It finds the two things that must
 * not reach DuckDB's JSON reader: nesting deeper than {@link MAX_JSON_NESTING} (DuckDB's
 * structure detection recurses once per level and overflows its thread's stack somewhere past
 * 50,000 levels: a segfault, not an error), and bytes that are not UTF-8 (DuckDB's error then
 * quotes the whole line). Brackets inside strings do not count; escapes are followed.
 *
 * The structure (strings, escapes, nesting, newlines) is scanned in WebAssembly, 64 bytes at a
 * step (wasm/json-byte-scan.wat); the UTF-8 check is Node's validator over each chunk, and a
 * chunk it refuses is walked in WebAssembly for the lines.
 */
import { isUtf8 } from 'node:buffer';
import { JSON_BYTE_SCAN_WASM } from './wasm/json-byte-scan-wasm.js';

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

/** Bytes the WebAssembly scan takes per call (its memory holds them at 0, then what it found). */
const WASM_PIECE = 1 << 16;
/** Where the WebAssembly scan writes the lines it found (relative to the call's start). */
const WASM_FOUND_AT = WASM_PIECE;
/** Deepest nesting the WebAssembly scan can be told (it counts in 64 bits): "no limit". */
const NO_LIMIT = 2n ** 62n;

/** The slice of the WebAssembly JS API used here (the compile target's lib has no DOM types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
interface WasmGlobal<T> {
  value: T;
}
/** The WebAssembly scan (one instance for all scanners: each puts its state in and takes it out). */
interface WasmScan {
  scan: (len: number, lines: number, maxDepth: bigint) => number;
  utf8: (len: number) => number;
  utf8Need: WasmGlobal<number>;
  depth: WasmGlobal<bigint>;
  inString: WasmGlobal<number>;
  escaped: WasmGlobal<number>;
  newlines: WasmGlobal<number>;
  bytes: Uint8Array;
  /** The lines `scan` found too deep, or `utf8` not UTF-8. */
  foundLines: Uint32Array;
}

let wasmScan: WasmScan | null | undefined;
function loadWasm(): WasmScan | null {
  if (wasmScan === undefined) {
    try {
      const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
      if (!api) {
        wasmScan = null;
      } else {
        const { exports } = new api.Instance(new api.Module(Buffer.from(JSON_BYTE_SCAN_WASM, 'base64')), {});
        const memory = (exports['memory'] as { buffer: ArrayBuffer }).buffer;
        wasmScan = {
          scan: exports['scan'] as WasmScan['scan'],
          utf8: exports['utf8'] as WasmScan['utf8'],
          utf8Need: exports['utf8Need'] as WasmGlobal<number>,
          depth: exports['depth'] as WasmGlobal<bigint>,
          inString: exports['inString'] as WasmGlobal<number>,
          escaped: exports['escaped'] as WasmGlobal<number>,
          newlines: exports['newlines'] as WasmGlobal<number>,
          bytes: new Uint8Array(memory, 0, WASM_PIECE),
          foundLines: new Uint32Array(memory, WASM_FOUND_AT, WASM_PIECE + 1),
        };
      }
    } catch {
      wasmScan = null; // no WebAssembly here: the JavaScript loop does the same work
    }
  }
  return wasmScan;
}

/**
 * Feed the text in chunks of any size with `push`, then call `end`. In `lines` mode (JSON
 * lines) every newline starts a fresh record: nesting and string state reset, so one broken line
 * cannot hide the next. In `document` mode newlines are whitespace inside one value, and only
 * the first too-deep line is reported.
 */
export class JsonByteScanner {
  private readonly wasm: WasmScan | null;
  /** Where there is no WebAssembly. */
  private readonly loop: JsonByteScanLoop | undefined;
  private line = 1;
  private depth = 0n;
  private inString = 0;
  private escaped = 0;
  private lineHasBytes = false;
  /** The limit as the WebAssembly scan compares it: depth > limit, in whole levels. */
  private readonly limit: bigint;
  private readonly tooDeep: number[] = [];
  private readonly utf8 = new Utf8Lines();

  constructor(
    private readonly mode: 'lines' | 'document',
    maxDepth: number = MAX_JSON_NESTING,
  ) {
    this.wasm = loadWasm();
    this.loop = this.wasm ? undefined : new JsonByteScanLoop(mode, maxDepth);
    // Depths are whole: deeper than 2.5 is deeper than 2. NaN is never exceeded.
    this.limit = Number.isNaN(maxDepth) || maxDepth >= 2 ** 62 ? NO_LIMIT : BigInt(Math.max(-1, Math.floor(maxDepth)));
  }

  push(buf: Uint8Array): void {
    if (this.loop) return this.loop.push(buf);
    const w = this.wasm!;
    const n = buf.length;
    if (n === 0) return;
    const firstLine = this.line;
    const lines = this.mode === 'lines' ? 1 : 0;
    w.depth.value = this.depth;
    w.inString.value = this.inString;
    w.escaped.value = this.escaped;
    for (let at = 0; at < n; at += WASM_PIECE) {
      const piece = buf.subarray(at, at + WASM_PIECE);
      w.bytes.set(piece);
      const found = w.scan(piece.length, lines, this.limit);
      for (let k = 0; k < found; k++) {
        const line = this.line + w.foundLines[k]!;
        if (this.tooDeep[this.tooDeep.length - 1] !== line && (lines || this.tooDeep.length === 0)) this.tooDeep.push(line);
      }
      this.line += w.newlines.value;
    }
    this.depth = w.depth.value;
    this.inString = w.inString.value;
    this.escaped = w.escaped.value;
    this.utf8.push(buf, firstLine, this.line, w);
    this.lineHasBytes = buf[n - 1] !== 0x0a;
  }

  end(): ByteScanResult {
    if (this.loop) return this.loop.end();
    const lines = this.line - 1 + (this.lineHasBytes ? 1 : 0);
    return { lines, tooDeep: this.tooDeep, invalidUtf8: this.utf8.end(this.line) };
  }
}

/** Which lines of a text fed in chunks are not UTF-8. */
class Utf8Lines {
  private readonly invalid: number[] = [];
  /** Continuation bytes still due for the current UTF-8 character, and the range the next one must be in. */
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;

  /** A character begun in the last chunk is not finished. */
  get pending(): boolean {
    return this.need > 0;
  }

  /** Check a chunk whose first byte is on line `line` and whose last is on `lastLine`. */
  push(buf: Uint8Array, line: number, lastLine: number, wasm: WasmScan): void {
    const n = buf.length;
    const i = this.need > 0 ? this.char(buf, 0, line) : 0;
    // Where a character the chunk cuts off begins (its bytes are all on the last line).
    let cut = n;
    for (let k = n - 1; k >= i && k >= n - 3; k--) {
      const b = buf[k]!;
      if (b < 0x80) break;
      if (b >= 0xc0) {
        if (n - k < (b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2)) cut = k;
        break;
      }
    }
    // Bytes that are not UTF-8 before the cut: which lines, in WebAssembly (state carried from
    // piece to piece in its globals).
    if (!isUtf8(buf.subarray(i, cut))) {
      for (let at = i; at < cut; at += WASM_PIECE) {
        const piece = buf.subarray(at, Math.min(cut, at + WASM_PIECE));
        wasm.bytes.set(piece);
        const found = wasm.utf8(piece.length);
        for (let k = 0; k < found; k++) this.mark(line + wasm.foundLines[k]!);
        line += wasm.newlines.value;
      }
      // A character still open at the cut is broken by the one that starts there.
      if (wasm.utf8Need.value > 0) this.mark(line);
      wasm.utf8Need.value = 0;
    }
    for (let k = cut; k < n; ) k = this.char(buf, k, lastLine);
  }

  /**
   * Check one UTF-8 character starting at `i` (or the rest of one begun in the last chunk), by
   * the Unicode table of well-formed sequences: no overlong forms, no surrogates, nothing past
   * U+10FFFF. Returns where scanning goes on: after the character, or at the byte that broke it
   * (that byte is read again as what it is: a quote, a newline, a new character).
   */
  char(buf: Uint8Array, i: number, line: number): number {
    let need = this.need;
    let lo = this.lo;
    let hi = this.hi;
    if (need === 0) {
      const b = buf[i]!;
      if (b >= 0xc2 && b <= 0xdf) need = 1;
      else if (b >= 0xe0 && b <= 0xef) need = 2;
      else if (b >= 0xf0 && b <= 0xf4) need = 3;
      else {
        this.mark(line);
        return i + 1;
      }
      lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      i++;
    }
    while (need > 0) {
      if (i >= buf.length) {
        this.need = need;
        this.lo = lo;
        this.hi = hi;
        return i;
      }
      const c = buf[i]!;
      if (c < lo || c > hi) {
        this.need = 0;
        this.mark(line);
        return i;
      }
      need--;
      lo = 0x80;
      hi = 0xbf;
      i++;
    }
    this.need = 0;
    return i;
  }

  private mark(line: number): void {
    if (this.invalid[this.invalid.length - 1] !== line) this.invalid.push(line);
  }

  /** The lines found; `line` is the last one, where a character the text cuts off is. */
  end(line: number): number[] {
    if (this.need > 0) {
      this.need = 0;
      this.mark(line);
    }
    return this.invalid;
  }
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
 * The scan as a JavaScript loop over every byte: the {@link JsonByteScanner}'s fallback where
 * there is no WebAssembly (`node --jitless`), and the reference its tests compare it with.
 */
export class JsonByteScanLoop {
  private line = 1;
  private depth = 0;
  private inString = false;
  /** A backslash ended the last chunk: the next byte is escaped. */
  private escaped = false;
  private readonly utf8 = new Utf8Lines();
  private lineHasBytes = false;
  private readonly tooDeep: number[] = [];

  constructor(
    private readonly mode: 'lines' | 'document',
    private readonly maxDepth: number = MAX_JSON_NESTING,
  ) {}

  push(buf: Uint8Array): void {
    const n = buf.length;
    if (n === 0) return;
    let i = 0;
    let { line, depth, inString } = this;
    if (this.utf8.pending) i = this.utf8.char(buf, i, line);
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
          i = this.utf8.char(buf, i, line);
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
        i = this.utf8.char(buf, i, line);
      }
    }
    this.lineHasBytes = buf[n - 1] !== 0x0a;
    this.line = line;
    this.depth = depth;
    this.inString = inString;
  }

  end(): ByteScanResult {
    const lines = this.line - 1 + (this.lineHasBytes ? 1 : 0);
    return { lines, tooDeep: this.tooDeep, invalidUtf8: this.utf8.end(this.line) };
  }
}

/** Scan one complete text (a test helper and the framed reader's per-message check). */
export function scanJsonBytes(text: Uint8Array, mode: 'lines' | 'document', maxDepth = MAX_JSON_NESTING): ByteScanResult {
  const scanner = new JsonByteScanner(mode, maxDepth);
  scanner.push(text);
  return scanner.end();
}
