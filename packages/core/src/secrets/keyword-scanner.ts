/**
 * One pass over the text that finds every keyword (case-insensitive Aho-Corasick over ASCII),
 * the runs of base64-alphabet characters worth decoding, and whether URL escapes or JSON string
 * escapes occur. Everything else in the detector is driven by what this pass reports.
 */

/** What one pass over a text found. Plain arrays, local to the call. */
export interface ScanResult {
  /** Pairs (keyword index, start offset), flattened: [kw0, pos0, kw1, pos1, ...]. */
  hits: number[];
  /**
   * Pairs (start, end) of base64-alphabet runs that could be base64 of text, flattened: at
   * least `minRun` long, holding lowercase, uppercase and digits (or padding instead of digits), starting with A-Z or a-f;
   * and runs that may be hex of text ({@link couldBeHexOfText}: the WebAssembly scan reports every
   * run that starts with 0-7, and this side keeps those).
   */
  runs: number[];
  /** A `%` occurs (URL-encoding is possible). */
  percent: boolean;
  /** A backslash occurs (JSON string escapes are possible). */
  backslash: boolean;
  /**
   * `D:` occurs: the end of `[REDACTED:`, so a redaction marker is possible (one character pair
   * found in the same pass: a search for the whole marker took ~4 % of a package-text value's time).
   */
  marker: boolean;
  /** A character that may hide text occurs (one of decoders' HIDING_OPENERS: see hiddenWindows). */
  hidden: boolean;
}

import { TEDDY_CHARS, TEDDY_TABLE_BYTES, teddyTables } from './teddy-buckets.js';
import { MARK_CHAR } from './placeholders.js';
import { kLogK } from './value-filters.js';
import { KEYWORD_SCAN_WASM } from './wasm/keyword-scan-wasm.js';
import { HIDING_OPENERS, hexDigitsStart, isHexDigit } from './decoders.js';

const ALPHABET = 128;
/** Characters per WebAssembly chunk; bounds the scratch memory (about 19 bytes per character). */
const CHUNK = 1 << 16;

/** The slice of the WebAssembly JS API used here (the compile target's lib has no DOM types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The compiled WebAssembly inner loop, shared by all scanners (each has its own instance). */
let wasmModule: object | null | undefined;
function loadWasm(): object | null {
  if (wasmModule === undefined) {
    try {
      const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
      wasmModule = api ? new api.Module(Buffer.from(KEYWORD_SCAN_WASM, 'base64')) : null;
    } catch {
      wasmModule = null; // no WebAssembly here: the JavaScript loop does the same work
    }
  }
  return wasmModule;
}

/** A WebAssembly instance with the tables loaded, and where things live in its memory. */
interface WasmScan {
  scan: (
    u16: number, n: number, loaded: number, base: number, bytes: number, cls: number, teddy: number,
    verify: number, trie: number, firstEmit: number, hits: number, hitCap: number, runs: number, minRun: number,
    recs: number, firstRunEmit: number, firstGlueEmit: number, hide: number,
  ) => void;
  profile: (ptr: number, len: number, counts: number, klogk: number) => number;
  i32: Int32Array;
  memory: Buffer;
  /** Trie states numbered at or above this end a keyword. */
  firstEmitting: number;
  /** Trie states numbered at or above this end a run keyword (found only where a long run begins). */
  firstRunEmitting: number;
  /** Trie states numbered at or above this end a glue keyword (see the constructor). */
  firstGlueEmitting: number;
  /** Keyword ids ending at each trie state. */
  outputs: readonly (readonly number[] | undefined)[];
  cls: number;
  teddy: number;
  verify: number;
  trie: number;
  u16: number;
  bytes: number;
  hits: number;
  runs: number;
  /** Blocks the SIMD pass recorded for the scalar pass (16 bytes each, at most one per block). */
  recs: number;
  /** profile's counts, distinct characters and mark table; then k log2 k for k <= PROFILE_MAX. */
  counts: number;
  klogk: number;
  /** HIDING_OPENERS, a byte per UTF-16 code unit. */
  hide: number;
  /** Characters loaded past a chunk's end, so a keyword starting in the chunk is read whole. */
  overlap: number;
  /** Copies a string into memory as UTF-16 (the encoding-specific write skips `write`'s argument parsing). */
  write: (text: string, offset: number, bytes: number) => void;
}
/** Characters of standard and URL-safe base64. */
const B64 = new Uint8Array(ALPHABET);
for (let c = 0; c < ALPHABET; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9+/_-]/.test(ch)) B64[c] = 1;
}
/**
 * The base64 alphabet as nibble tables for the WebAssembly scan: 16 bytes by low nibble, then
 * 16 by high nibble; a character is in the alphabet when the two bytes share a bit. Each bit is
 * one high nibble's slice of the alphabet: 0x4_ (A-O), 0x5_ (P-Z, _), 0x6_ (a-o), 0x7_ (p-z),
 * 0x3_ (0-9), 0x2_ (+ - /).
 */
const BASE64_NIBBLE_CLASSES = (() => {
  const t = new Uint8Array(32);
  const slices: [number, number[]][] = [
    [0x4, range(1, 15)],
    [0x5, [...range(0, 10), 15]],
    [0x6, range(1, 15)],
    [0x7, range(0, 10)],
    [0x3, range(0, 9)],
    [0x2, [11, 13, 15]],
  ];
  slices.forEach(([hi, los], bit) => {
    t[16 + hi] = t[16 + hi]! | (1 << bit);
    for (const lo of los) t[lo] = t[lo]! | (1 << bit);
  });
  return t;
})();

/**
 * Byte vectors the WebAssembly scan reads from memory after the base64 tables: 15 (nibble
 * mask), 32 (case fold), 2 (bit 0x20 as a high nibble), '%', '\\', 'D' and ':' (`D:`, see
 * ScanResult.marker). Written as v128.const, the compiler rebuilds each from immediates at every
 * use inside the loop.
 */
const SIMD_CONSTANTS = Uint8Array.from([15, 32, 2, 37, 92, 68, 58].flatMap((b) => new Array<number>(16).fill(b)));

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * Bytes of the three bit sets of keyword starts (first 4, 3 and 2 characters) the WebAssembly
 * scan checks before a walk (one such block for the Teddy keywords, one for the run keywords).
 */
const START_SETS_BYTES = 3 * 512;

/**
 * The bit sets of keyword starts: for each keyword, its first four characters (three or two for
 * a shorter keyword), bit 0x20 set, as little-endian bytes of an i32, hashed to 12 bits. A
 * one-character keyword fills the two-character set: every candidate is then walked.
 */
function keywordStartSets(keywords: readonly string[]): Uint8Array {
  const sets = new Uint8Array(START_SETS_BYTES);
  for (const kw of keywords) {
    if (kw.length < 2) {
      sets.fill(255, 1024);
      continue;
    }
    const n = Math.min(4, kw.length);
    let x = 0;
    for (let i = 0; i < n; i++) x |= (kw.charCodeAt(i) | 0x20) << (8 * i);
    const h = Math.imul(x, 0x9e3779b1) >>> 20;
    const at = (4 - n) * 512 + (h >> 3);
    sets[at] = sets[at]! | (1 << (h & 7));
  }
  return sets;
}

/** Where profile leaves the placeholder shape bits: the i32 at byte 16 of the memory header. */
const PROFILE_SHAPE_SLOT = 4;
/** Longest value profileOf measures from memory (its k log2 k table has this many entries). */
const PROFILE_MAX = 4096;
/** k log2 k as shannonEntropy has it, so both sums are the same to the bit. */
const K_LOG_K_TABLE = Float64Array.from({ length: PROFILE_MAX + 1 }, (_, k) => kLogK(k));

/** Hit pairs the WebAssembly hit buffer holds per chunk; a fuller chunk is scanned in JavaScript. */
const HIT_CAP = CHUNK * 2;

/**
 * Renumber states so the ones that emit come last, among them the ones that end a run keyword,
 * and last the ones that end a glue keyword ("did a keyword of this kind end here?" is one
 * comparison); the root stays 0.
 */
function emittingLast(
  outputs: readonly (readonly number[])[],
  isRun: (keyword: number) => boolean = () => false,
  isGlue: (keyword: number) => boolean = () => false,
): { rank: number[]; order: number[]; firstEmitting: number; firstRunEmitting: number; firstGlueEmitting: number } {
  const n = outputs.length;
  const kind = (s: number) => {
    const o = outputs[s]!;
    return o.length === 0 ? 0 : o.some((k) => !isRun(k)) ? 1 : o.some((k) => !isGlue(k)) ? 2 : 3;
  };
  const order = [...Array(n).keys()].sort((a, b) => kind(a) - kind(b) || a - b);
  const rank = new Array<number>(n);
  order.forEach((s, i) => (rank[s] = i));
  const firstOf = (least: number): number => {
    const i = order.findIndex((s) => kind(s) >= least);
    return i < 0 ? n : i;
  };
  return { rank, order, firstEmitting: firstOf(1), firstRunEmitting: firstOf(2), firstGlueEmitting: firstOf(3) };
}

/** A UTF-16 code unit as the WebAssembly scan narrows it: ASCII stays, the rest becomes 255 or 0. */
const narrow = (c: number): number => (c < 256 ? c : c < 0x8000 ? 255 : 0);

/**
 * Where a run keyword is looked for in a run of base64 or URL-safe characters [start, end) of
 * `text`: at its first letter or digit when at most five of `+ / _ -` come before it (a token
 * after `//` or `-`), and, when a backslash comes before the run, the same way from its second
 * and from its sixth character (after the letter of an escape glued to a token: `\n/ghp_…`,
 * `\u000aghp_…`). Then inside the run: after each `-`, `/` or `+`, which a token's left boundary
 * accepts (`obs-ghp_…`, `refs/ghp_…`). In increasing order, each position once.
 * (Glue keywords are also looked for at glueKeywordPositions.)
 */
export function runKeywordPositions(text: string, start: number, end: number): number[] {
  const skipLead = (q: number): number => {
    let p = q;
    while (p < q + 5 && RUN_LEAD[text.charCodeAt(p)] === 1) p++;
    return p;
  };
  const lead: number[] = [skipLead(start)];
  if (start > 0 && text.charCodeAt(start - 1) === 92) lead.push(skipLead(start + 1), skipLead(start + 5));
  const out: number[] = [];
  for (let p = start; p < end; p++) {
    if (lead.includes(p) || (p > start && RUN_INNER_LEAD[text.charCodeAt(p - 1)] === 1)) out.push(p);
  }
  return out;
}

/**
 * Where only glue keywords are looked for in a run [start, end): in a run that holds small
 * letters, capitals, digits and a `_` (a random token glued to a word makes one: a glue keyword
 * holds a `_`, or its token's body nearly always does), every position that runKeywordPositions
 * leaves out. In increasing order.
 */
export function glueKeywordPositions(text: string, start: number, end: number): number[] {
  if (!mixedRun(text, start, end) || !text.slice(start, end).includes('_')) return [];
  const looked = new Set(runKeywordPositions(text, start, end));
  const out: number[] = [];
  for (let p = start + 1; p < end; p++) if (!looked.has(p)) out.push(p);
  return out;
}

/**
 * A run keyword that may be a glue keyword: four characters or more with a `_` (`ghp_`), or six
 * letters and digits or more (`ATATT3`). Glue keywords are looked for only in runs holding a `_`.
 */
export function isGlueKeyword(keyword: string): boolean {
  return keyword.length >= 4 && (keyword.includes('_') || /^[A-Za-z0-9]{6,}$/.test(keyword));
}

/** A run that holds small letters, capitals and digits. */
export function mixedRun(text: string, start: number, end: number): boolean {
  let kinds = 0;
  for (let i = start; i < end && kinds !== 7; i++) {
    const c = text.charCodeAt(i);
    kinds |= c >= 97 && c <= 122 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 48 && c <= 57 ? 4 : 0;
  }
  return kinds === 7;
}
/** The characters of a run after which a token may begin inside it (its left boundary accepts them). */
const RUN_INNER_LEAD = new Uint8Array(128);
for (const ch of '+/-') RUN_INNER_LEAD[ch.charCodeAt(0)] = 1;
const RUN_LEAD = new Uint8Array(128);
for (const ch of '+/_-') RUN_LEAD[ch.charCodeAt(0)] = 1;

export class KeywordScanner {
  /** Lowercased keywords, index = keyword id. */
  readonly keywords: readonly string[];
  /** Per keyword id: a run keyword (see the constructor). */
  private readonly isRun: readonly boolean[];
  /** Per keyword id: a glue keyword (see the constructor). */
  private readonly isGlue: readonly boolean[];
  /** Run keywords by their first three characters, for the runs the JavaScript side checks. */
  private runKeywordsByStart: Map<string, number[]> | undefined;
  /** The run keywords' first characters, bit 0x20 set (letters folded), as flags by character code. */
  private runKeywordFirsts: Uint8Array | undefined;
  private readonly delta: Uint16Array | Uint32Array;
  private readonly outputs: (readonly number[] | undefined)[];
  /** States numbered at or above this emit a keyword. */
  private firstEmitting: number;
  private readonly minRun: number;
  private readonly classOf: Uint8Array;
  private readonly shift: number;

  private readonly wasm: WasmScan | undefined;
  /** The text whose characters the last scan left in memory as bytes (one chunk, scanned whole). */
  private inMemory: string | undefined;

  /**
   * `useWasm: false` forces the JavaScript loop (the WebAssembly one is used when available and
   * `minRun` is at least 15, the shortest run its block-wise run finder reports exactly).
   */
  /**
   * `runKeywords[i]` marks keyword i as a run keyword: a token prefix, reported only where a run
   * of `minRun` or more base64 or URL-safe characters (`[A-Za-z0-9+/_-]`) begins (see
   * runKeywordPositions). Run keywords stay out of the Teddy filter, whose
   * tables pass more ordinary text with every prefix they hold; runs that long are few (about six
   * per KB of package text) and the scan finds them anyway.
   * `glueKeywords[i]` marks run keyword i as a glue keyword: also reported at every other position
   * of a run of small letters, capitals and digits (glueKeywordPositions), for a token glued to a
   * word that its rule accepts on a proof. Four characters or more with a `_`, or six letters and
   * digits or more whose tokens hold a `_` (`ATATT3`): a run without a `_` is not looked at, as most
   * long runs of mixed case and digits are base64, which has none (isGlueKeyword).
   */
  constructor(keywords: readonly string[], minRun: number, useWasm = true, runKeywords: readonly boolean[] = [], glueKeywords: readonly boolean[] = []) {
    KeywordScanner.checkKeywords(keywords);
    for (let i = 0; i < keywords.length; i++) {
      if (runKeywords[i] === true && !/^[A-Za-z0-9+/_-]{2,}$/.test(keywords[i]!)) throw new Error(`run keyword "${keywords[i]}" is not two or more characters of [A-Za-z0-9+/_-]`);
    }
    this.keywords = keywords.map((k) => k.toLowerCase());
    this.isRun = this.keywords.map((_, i) => runKeywords[i] === true);
    this.isGlue = this.keywords.map((kw, i) => {
      if (glueKeywords[i] !== true) return false;
      if (runKeywords[i] !== true || !isGlueKeyword(kw)) throw new Error(`glue keyword "${kw}" is not a run keyword of four characters or more with a _, or of six letters and digits or more`);
      return true;
    });
    this.minRun = minRun;
    // Character classes: every character that occurs in a keyword (letters folded) gets its
    // own class, all others share class 0; bit 7 marks the base64 alphabet. A small transition
    // table stays in cache.
    const classOf = new Uint8Array(ALPHABET);
    let k = 1;
    for (const kw of this.keywords) {
      for (let i = 0; i < kw.length; i++) {
        const c = kw.charCodeAt(i);
        if (classOf[c] === 0) classOf[c] = k++;
      }
    }
    for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32]!;
    if (k > 127) throw new Error('too many distinct keyword characters');
    const width = k <= 64 ? 64 : 128; // a power of two: the row offset is a shift
    // Trie.
    const next: number[][] = [new Array<number>(width).fill(-1)];
    const out: number[][] = [[]];
    this.keywords.forEach((kw, id) => {
      let s = 0;
      for (let i = 0; i < kw.length; i++) {
        const c = classOf[kw.charCodeAt(i)]!;
        let t = next[s]![c]!;
        if (t < 0) {
          t = next.length;
          next.push(new Array<number>(width).fill(-1));
          out.push([]);
          next[s]![c] = t;
        }
        s = t;
      }
      if (!out[s]!.includes(id)) out[s]!.push(id);
    });
    const n = next.length;
    const shift = width === 64 ? 6 : 7;
    const mod = useWasm && shift === 6 && n < 65536 && minRun >= 15 ? loadWasm() : null;
    this.wasm = mod ? this.instantiate(mod, next, out, classOf) : undefined;

    // The JavaScript loop: breadth-first failure links folded into a full transition table (an
    // Aho-Corasick DFA), so every character is one table step.
    const delta = n < 65536 ? new Uint16Array(n * width) : new Uint32Array(n * width);
    const fail = new Array<number>(n).fill(0);
    const acOut = out.map((o) => [...o]);
    const queue: number[] = [];
    for (let c = 1; c < width; c++) {
      const t = next[0]![c]!;
      if (t > 0) {
        delta[c] = t;
        queue.push(t);
      }
    }
    for (let qi = 0; qi < queue.length; qi++) {
      const s = queue[qi]!;
      acOut[s]!.push(...acOut[fail[s]!]!);
      for (let c = 1; c < width; c++) {
        const t = next[s]![c]!;
        if (t > 0) {
          fail[t] = delta[fail[s]! * width + c]!;
          delta[s * width + c] = t;
          queue.push(t);
        } else {
          delta[s * width + c] = delta[fail[s]! * width + c]!;
        }
      }
    }
    const { rank, order, firstEmitting } = emittingLast(acOut);
    const table = n < 65536 ? new Uint16Array(n << shift) : new Uint32Array(n << shift);
    for (let s = 0; s < n; s++) {
      for (let c = 0; c < width; c++) table[(rank[s]! << shift) | c] = rank[delta[s * width + c]!]!;
    }
    for (let c = 0; c < ALPHABET; c++) if (B64[c] === 1) classOf[c] = classOf[c]! | 128;
    this.classOf = classOf;
    this.shift = shift;
    this.delta = table;
    this.outputs = order.map((s) => (acOut[s]!.length > 0 ? [...new Set(acOut[s])] : undefined));
    this.firstEmitting = firstEmitting;
  }

  /** Throws, naming the keyword, unless every keyword is non-empty ASCII. */
  static checkKeywords(keywords: readonly string[]): void {
    for (const k of keywords) {
      if (k.length === 0) throw new Error('empty keyword');
      for (let i = 0; i < k.length; i++) {
        if (k.charCodeAt(i) >= ALPHABET) throw new Error(`keyword "${k}" is not ASCII`);
      }
    }
  }

  /** True when scans run in WebAssembly. */
  get usesWasm(): boolean {
    return this.wasm !== undefined;
  }

  /**
   * The WebAssembly scanner's tables: the bare trie (no failure links: each candidate start
   * walks it from the root) and the Teddy filter over each keyword's first characters.
   */
  private instantiate(mod: object, next: number[][], out: number[][], classOf: Uint8Array): WasmScan {
    const n = next.length;
    const { rank, order, firstEmitting, firstRunEmitting, firstGlueEmitting } = emittingLast(out, (k) => this.isRun[k]!, (k) => this.isGlue[k]!);
    const trieTable = new Uint16Array(n << 6);
    for (let s = 0; s < n; s++) {
      for (let c = 1; c < 64; c++) {
        const t = next[s]![c]!;
        if (t > 0) trieTable[(rank[s]! << 6) | c] = rank[t]!;
      }
    }
    const teddy = new Uint8Array(TEDDY_TABLE_BYTES + 32 + SIMD_CONSTANTS.length);
    const teddyKeywords = this.keywords.filter((_, i) => !this.isRun[i]);
    // (sorted: the bucket assignment depends on the order, and a rule's place in the list says nothing about it)
    teddy.set(teddyTables([...new Set(teddyKeywords.map((kw) => kw.slice(0, TEDDY_CHARS)))].sort()));
    teddy.set(BASE64_NIBBLE_CLASSES, TEDDY_TABLE_BYTES);
    teddy.set(SIMD_CONSTANTS, TEDDY_TABLE_BYTES + 32);
    const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const instance = new api.Instance(mod, {});
    const memory = instance.exports['memory'] as WasmMemory;
    const cls = 64;
    const teddyAt = cls + 256;
    const verify = teddyAt + teddy.length;
    // the Teddy keywords' start sets, the run keywords', the run keywords' first two characters,
    // and the glue keywords' first four
    const trie = verify + 2 * START_SETS_BYTES + 1024;
    const u16 = (trie + trieTable.byteLength + 15) & ~15;
    const overlap = this.keywords.reduce((m, kw) => Math.max(m, kw.length), 0) + 16;
    const loadedMax = CHUNK + overlap;
    const bytes = u16 + ((loadedMax * 2 + 32 + 15) & ~15);
    const hits = bytes + ((loadedMax + 48 + 15) & ~15);
    const runs = hits + HIT_CAP * 8;
    const recs = runs + CHUNK * 8;
    const counts = recs + CHUNK + 16;
    const klogk = counts + 1536;
    const hide = klogk + (PROFILE_MAX + 1) * 8;
    const end = hide + HIDING_OPENERS.length;
    memory.grow(Math.ceil(end / 65536) - memory.buffer.byteLength / 65536);
    const buffer = Buffer.from(memory.buffer);
    for (let c = 0; c < ALPHABET; c++) buffer[cls + c] = classOf[c]!;
    buffer.set(teddy, teddyAt);
    buffer.set(keywordStartSets(teddyKeywords), verify);
    const runKeywords = this.keywords.filter((_, i) => this.isRun[i]);
    buffer.set(keywordStartSets(runKeywords), verify + START_SETS_BYTES);
    buffer.set(keywordStartSets(runKeywords.map((kw) => kw.slice(0, 2))).subarray(1024), verify + 2 * START_SETS_BYTES);
    buffer.set(keywordStartSets(this.keywords.filter((_, i) => this.isGlue[i])).subarray(0, 512), verify + 2 * START_SETS_BYTES + 512);
    new Uint16Array(memory.buffer, trie, trieTable.length).set(trieTable);
    buffer.set(MARK_CHAR, counts + 1280);
    new Float64Array(memory.buffer, klogk, PROFILE_MAX + 1).set(K_LOG_K_TABLE);
    buffer.set(HIDING_OPENERS, hide);
    const ucs2Write = (buffer as unknown as { ucs2Write?: (s: string, offset: number, length: number) => number }).ucs2Write;
    return {
      write:
        typeof ucs2Write === 'function'
          ? (text, offset, bytes) => void ucs2Write.call(buffer, text, offset, bytes)
          : (text, offset, bytes) => void buffer.write(text, offset, bytes, 'utf16le'),
      scan: instance.exports['scan'] as WasmScan['scan'],
      profile: instance.exports['profile'] as WasmScan['profile'],
      i32: new Int32Array(memory.buffer),
      memory: buffer,
      firstEmitting,
      firstRunEmitting,
      firstGlueEmitting,
      outputs: order.map((s) => (out[s]!.length > 0 ? out[s] : undefined)),
      cls,
      teddy: teddyAt,
      verify,
      trie,
      u16,
      bytes,
      hits,
      runs,
      recs,
      counts,
      klogk,
      hide,
      overlap,
    };
  }

  scan(text: string): ScanResult {
    this.inMemory = undefined;
    if (this.wasm) {
      const r = this.scanWasm(text, this.wasm);
      if (r) {
        if (text.length <= CHUNK) this.inMemory = text;
        return r;
      }
    }
    return this.scanJs(text);
  }

  /**
   * The character profile of `text[start, end)` for the value filters, from the bytes the last
   * scan left in memory: the sum of k log2 k over its character counts (see entropyFromSum), with
   * its placeholderShape in `profileShape`. -1 when those bytes cannot tell: `text` is not the
   * last text scanned (or was longer than one chunk), the range is longer than PROFILE_MAX, or it
   * holds a character outside Latin-1. The caller then measures the string itself.
   */
  profileOf(text: string, start: number, end: number): number {
    const w = this.wasm;
    if (w === undefined || text !== this.inMemory || end - start > PROFILE_MAX || start >= end) return -1;
    return w.profile(w.bytes + start, end - start, w.counts, w.klogk);
  }

  /** Drops the reference to the last scanned text (profileOf then measures nothing until the next scan). */
  release(): void {
    this.inMemory = undefined;
  }

  /** The placeholderShape bits of the range profileOf last measured. */
  get profileShape(): number {
    return this.wasm ? this.wasm.i32[PROFILE_SHAPE_SLOT]! : 0;
  }

  /** The WebAssembly scan, chunk by chunk; undefined when a chunk overflows the hit buffer. */
  private scanWasm(text: string, w: WasmScan): ScanResult | undefined {
    const { keywords, minRun } = this;
    const { i32, outputs } = w;
    const hits: number[] = [];
    const runs: number[] = [];
    const n = text.length;
    i32[2] = 0; // flags
    i32[3] = -1; // last non-base64 position
    for (let off = 0; off < n; off += CHUNK) {
      const len = Math.min(CHUNK, n - off);
      const loaded = Math.min(len + w.overlap, n - off);
      w.write(off === 0 && loaded === n ? text : text.slice(off, off + loaded), w.u16, loaded * 2);
      // the character before the chunk (a backslash there glues an escape to a run's start)
      w.memory[w.bytes - 1] = off === 0 ? 0 : narrow(text.charCodeAt(off - 1));
      w.scan(w.u16, len, loaded, off, w.bytes, w.cls, w.teddy, w.verify, w.trie, w.firstEmitting, w.hits, HIT_CAP, w.runs, minRun, w.recs, w.firstRunEmitting, w.firstGlueEmitting, w.hide);
      if ((i32[2]! & 4) !== 0) return undefined;
      const nh = i32[0]!;
      for (let j = 0, h = w.hits >> 2; j < nh; j++, h += 2) {
        const o = outputs[i32[h]!]!;
        const end = i32[h + 1]!;
        for (let k = 0; k < o.length; k++) hits.push(o[k]!, end - keywords[o[k]!]!.length + 1);
      }
      const nr = i32[1]!;
      for (let j = 0, r = w.runs >> 2; j < nr; j++, r += 2) {
        const start = i32[r]!;
        const end = i32[r + 1]!;
        // (a run of digits is reported for the check here: most are numbers and hashes)
        if (start >= 0) {
          if (text.charCodeAt(start) > 57 || couldBeHexOfText(text, start, end)) runs.push(start, end);
        } else {
          // began in an earlier chunk: its start was not in memory for the run keywords either
          if (this.runKeywordHits(text, -start - 1, end, hits)) i32[2] = i32[2]! | 8;
          if (couldBeEncodedText(text, -start - 1, end)) runs.push(-start - 1, end);
        }
      }
    }
    const last = i32[3]!;
    if (n - last > minRun) {
      // A run that ends the text on a block boundary: no block after it recorded its end.
      if (this.runKeywordHits(text, last + 1, n, hits)) i32[2] = i32[2]! | 8;
      if (couldBeEncodedText(text, last + 1, n)) runs.push(last + 1, n);
    }
    const flags = i32[2]!;
    return { hits: (flags & 8) !== 0 ? byStart(hits, keywords) : hits, runs, percent: (flags & 1) !== 0, backslash: (flags & 2) !== 0, marker: (flags & 16) !== 0, hidden: (flags & 32) !== 0 };
  }

  /**
   * Run keywords at the run [start, end) (see runKeywordPositions), appended to `hits` as
   * (keyword, start) pairs; true when there was one. For the runs the WebAssembly scan could not
   * see whole, and for the JavaScript loop.
   */
  private runKeywordHits(text: string, start: number, end: number, hits: number[]): boolean {
    if (end - start < this.minRun || !this.isRun.includes(true)) return false;
    if (this.runKeywordsByStart === undefined) {
      this.runKeywordsByStart = new Map();
      this.runKeywordFirsts = new Uint8Array(256);
      this.keywords.forEach((kw, i) => {
        if (!this.isRun[i]) return;
        this.runKeywordFirsts![kw.charCodeAt(0) | 0x20] = 1;
        // Indexed by two characters: the shortest run keyword has two (Twilio's `SK`).
        const key = kw.slice(0, 2);
        this.runKeywordsByStart!.set(key, [...(this.runKeywordsByStart!.get(key) ?? []), i]);
      });
    }
    let found = false;
    const at = (p: number, glueOnly: boolean): void => {
      // (most positions of a long run begin no run keyword: one lookup of the first character)
      if (this.runKeywordFirsts![text.charCodeAt(p) | 0x20] !== 1) return;
      const ids = this.runKeywordsByStart!.get(text.slice(p, p + 2).toLowerCase());
      if (ids === undefined) return;
      for (const id of ids) {
        const kw = this.keywords[id]!;
        if ((!glueOnly || this.isGlue[id]) && text.slice(p, p + kw.length).toLowerCase() === kw) {
          hits.push(id, p);
          found = true;
        }
      }
    };
    for (const p of runKeywordPositions(text, start, end)) at(p, false);
    if (this.isGlue.includes(true)) for (const p of glueKeywordPositions(text, start, end)) at(p, true);
    return found;
  }

  private scanJs(text: string): ScanResult {
    const { delta, outputs, firstEmitting, keywords, minRun, classOf, shift, isRun } = this;
    const found: number[] = [];
    const runs: number[] = [];
    let percent = false;
    let backslash = false;
    let marker = false;
    let hidden = false;
    let state = 0;
    let last = -1; // last character outside the base64 alphabet
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      const cls = c < ALPHABET ? classOf[c]! : 0;
      if (c > 0xac && HIDING_OPENERS[c] === 1) hidden = true;
      state = delta[(state << shift) | (cls & 127)]!;
      if (state >= firstEmitting) {
        const o = outputs[state]!;
        for (let j = 0; j < o.length; j++) {
          const id = o[j]!;
          if (!isRun[id]) found.push(id, i - keywords[id]!.length + 1); // run keywords: at the runs below
        }
      }
      if (cls < 128) {
        if (i - last > minRun) {
          this.runKeywordHits(text, last + 1, i, found);
          if (couldBeEncodedText(text, last + 1, i)) runs.push(last + 1, i);
        }
        last = i;
        if (c === 37) percent = true;
        else if (c === 92) backslash = true;
        else if (c === 58 && text.charCodeAt(i - 1) === 68) marker = true;
      }
    }
    if (n - last > minRun) {
      this.runKeywordHits(text, last + 1, n, found);
      if (couldBeEncodedText(text, last + 1, n)) runs.push(last + 1, n);
    }
    return { hits: byStart(found, keywords), runs, percent, backslash, marker, hidden };
  }
}

/** A base64-alphabet run worth decoding as base64 of text, or as hex of text. */
function couldBeEncodedText(text: string, start: number, end: number): boolean {
  return couldBeBase64OfText(text, start, end) || couldBeHexOfText(text, start, end);
}

/**
 * Hex digits that must open a run for it to be decoded as hex: 16 bytes (room for a key and its
 * value, as for base64), the length gitleaks's hex decoder starts at.
 */
export const MIN_HEX_RUN = 32;

/**
 * A run worth decoding as hex of text (a file dumped by `xxd -p`, a value a script wrote with
 * `.hex()` or `bin2hex`): after an optional `0x`, its first {@link MIN_HEX_RUN} characters are
 * hex digits whose every pair is a printable ASCII byte (high digit 2-7) or a tab, line feed or
 * carriage return. Hashes and ids fail at once: their pairs' high digits are random.
 */
export function couldBeHexOfText(text: string, start: number, end: number): boolean {
  const s = hexDigitsStart(text, start);
  if (end - s < MIN_HEX_RUN) return false;
  for (let i = s; i < s + MIN_HEX_RUN; i += 2) {
    const high = text.charCodeAt(i);
    const low = text.charCodeAt(i + 1);
    if (!isHexDigit(low)) return false;
    if (high >= 50 && high <= 55) continue; // 2-7
    // 09, 0a, 0d (either case)
    if (high === 48 && (low === 57 || (low | 0x20) === 97 || (low | 0x20) === 100)) continue;
    return false;
  }
  return true;
}

/**
 * A base64-alphabet run worth decoding: it starts with A-Z or a-f (the top six bits of an ASCII
 * byte) and holds lowercase, uppercase and digits, or lowercase and uppercase with '=' padding
 * that completes it to a multiple of four (short text often encodes without a digit).
 */
export function couldBeBase64OfText(text: string, start: number, end: number): boolean {
  const c0 = text.charCodeAt(start);
  if (!((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 102))) return false;
  let kinds = 0;
  for (let i = start; i < end && kinds !== 7; i++) {
    const c = text.charCodeAt(i);
    kinds |= c >= 97 && c <= 122 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 48 && c <= 57 ? 4 : 0;
  }
  if (kinds === 7) return true;
  if (kinds !== 3 || text.charCodeAt(end) !== 61) return false;
  const padded = end - start + 1 + (text.charCodeAt(end + 1) === 61 ? 1 : 0);
  return padded % 4 === 0;
}

/** End of the run of base64-alphabet characters (standard and URL-safe) that starts at `start`. */
export function base64RunEnd(text: string, start: number): number {
  let e = start;
  for (let c = text.charCodeAt(e); c < ALPHABET && B64[c] === 1; c = text.charCodeAt(++e));
  return e;
}

/** Hits from the first one out of order to the last past which {@link byStart} sorts instead of inserting. */
const MAX_INSERTED = 64;

/**
 * Hit pairs ordered by start, then by keyword length: the order the WebAssembly scan finds them in.
 * In place, by insertion: the hits are in order but for the few run keywords appended out of it.
 * When many follow the first hit out of order, by a sort: a long run of glued tokens appends each
 * prefix's hits after another's (`AKIA…_ghp_…_` repeated: every `ghp_` after every `AKIA`), which
 * insertion would move past one another in quadratic time.
 */
function byStart(found: number[], keywords: readonly string[]): number[] {
  if (found.length > 2 * MAX_INSERTED) {
    let i = 2;
    while (i < found.length && found[i + 1]! >= found[i - 1]!) i += 2;
    if (found.length - i > 2 * MAX_INSERTED) {
      const n = found.length >> 1;
      // (by start, then keyword length, then position: one number per hit, compared as numbers)
      const key = new Float64Array(n);
      const order = new Uint32Array(n);
      for (let k = 0; k < n; k++) {
        key[k] = found[2 * k + 1]! * 1024 + Math.min(keywords[found[2 * k]!]!.length, 1023);
        order[k] = k;
      }
      order.sort((a, b) => key[a]! - key[b]! || a - b);
      const copy = found.slice();
      for (let p = 0; p < n; p++) {
        found[2 * p] = copy[2 * order[p]!]!;
        found[2 * p + 1] = copy[2 * order[p]! + 1]!;
      }
      return found;
    }
  }
  for (let i = 2; i < found.length; i += 2) {
    const id = found[i]!;
    const at = found[i + 1]!;
    const length = keywords[id]!.length;
    let j = i - 2;
    while (j >= 0 && (found[j + 1]! > at || (found[j + 1] === at && keywords[found[j]!]!.length > length))) {
      found[j + 2] = found[j]!;
      found[j + 3] = found[j + 1]!;
      j -= 2;
    }
    found[j + 2] = id;
    found[j + 3] = at;
  }
  return found;
}
