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
   * least `minRun` long, holding lowercase, uppercase and digits, starting with A-Z or a-f.
   */
  runs: number[];
  /** A `%` occurs (URL-encoding is possible). */
  percent: boolean;
  /** A backslash occurs (JSON string escapes are possible). */
  backslash: boolean;
}

import { KEYWORD_SCAN_WASM } from './wasm/keyword-scan-wasm.js';

const ALPHABET = 128;
/** Characters per WebAssembly chunk; bounds the scratch memory (about 18 bytes per character). */
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

/** A WebAssembly instance with the transition table loaded, and where things live in its memory. */
interface WasmScan {
  scan: (txt: number, n: number, base: number, tbl: number, cls: number, hits: number, runs: number, firstEmit: number, minRun: number) => void;
  i32: Int32Array;
  bytes: Buffer;
  tbl: number;
  cls: number;
  txt: number;
  hits: number;
  runs: number;
}
/** Characters of standard and URL-safe base64. */
const B64 = new Uint8Array(ALPHABET);
for (let c = 0; c < ALPHABET; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9+/_-]/.test(ch)) B64[c] = 1;
}

export class KeywordScanner {
  /** Lowercased keywords, index = keyword id. */
  readonly keywords: readonly string[];
  private readonly delta: Uint16Array | Uint32Array;
  private readonly outputs: (readonly number[] | undefined)[];
  /** States numbered at or above this emit a keyword. */
  private firstEmitting: number;
  private readonly minRun: number;
  private readonly classOf: Uint8Array;
  private readonly shift: number;

  private readonly wasm: WasmScan | undefined;

  /** `useWasm: false` forces the JavaScript loop (the WebAssembly one is used when available). */
  constructor(keywords: readonly string[], minRun: number, useWasm = true) {
    this.keywords = keywords.map((k) => k.toLowerCase());
    this.minRun = minRun;
    for (const k of this.keywords) {
      if (k.length === 0) throw new Error('empty keyword');
      for (let i = 0; i < k.length; i++) {
        if (k.charCodeAt(i) >= ALPHABET) throw new Error(`keyword "${k}" is not ASCII`);
      }
    }
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
      out[s]!.push(id);
    });
    // Breadth-first failure links, folded into a full transition table (DFA).
    const n = next.length;
    const delta = n < 65536 ? new Uint16Array(n * width) : new Uint32Array(n * width);
    const fail = new Array<number>(n).fill(0);
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
      out[s]!.push(...out[fail[s]!]!);
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
    for (let c = 0; c < ALPHABET; c++) if (B64[c] === 1) classOf[c] = classOf[c]! | 128;
    // Renumber states so the ones that emit a keyword come last: "did a keyword end here?" is
    // then one comparison, not a table load. The root stays 0 (it never emits).
    const order = [...Array(n).keys()].sort((a, b) => Number(out[a]!.length > 0) - Number(out[b]!.length > 0) || a - b);
    const rank = new Array<number>(n);
    order.forEach((s, i) => (rank[s] = i));
    const shift = width === 64 ? 6 : 7;
    const table = n < 65536 ? new Uint16Array(n << shift) : new Uint32Array(n << shift);
    for (let s = 0; s < n; s++) {
      for (let c = 0; c < width; c++) table[(rank[s]! << shift) | c] = rank[delta[s * width + c]!]!;
    }
    this.classOf = classOf;
    this.shift = shift;
    this.delta = table;
    this.outputs = order.map((s) => (out[s]!.length > 0 ? [...new Set(out[s])] : undefined));
    this.firstEmitting = order.findIndex((s) => out[s]!.length > 0);
    if (this.firstEmitting < 0) this.firstEmitting = n;
    const mod = useWasm && shift === 6 && table instanceof Uint16Array ? loadWasm() : null;
    this.wasm = mod && table instanceof Uint16Array ? this.instantiate(mod, table) : undefined;
  }

  /** True when scans run in WebAssembly. */
  get usesWasm(): boolean {
    return this.wasm !== undefined;
  }

  private instantiate(mod: object, table: Uint16Array): WasmScan {
    const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const instance = new api.Instance(mod, {});
    const memory = instance.exports['memory'] as WasmMemory;
    const tbl = 64;
    const cls = tbl + table.byteLength;
    const txt = (cls + ALPHABET + 7) & ~7;
    const hits = txt + CHUNK * 2;
    const runs = hits + CHUNK * 8;
    const end = runs + CHUNK * 8;
    memory.grow(Math.ceil(end / 65536) - memory.buffer.byteLength / 65536);
    const bytes = Buffer.from(memory.buffer);
    new Uint16Array(memory.buffer, tbl, table.length).set(table);
    bytes.set(this.classOf, cls);
    return {
      scan: instance.exports['scan'] as WasmScan['scan'],
      i32: new Int32Array(memory.buffer),
      bytes,
      tbl,
      cls,
      txt,
      hits,
      runs,
    };
  }

  scan(text: string): ScanResult {
    return this.wasm ? this.scanWasm(text, this.wasm) : this.scanJs(text);
  }

  private scanWasm(text: string, w: WasmScan): ScanResult {
    const { outputs, keywords, minRun, firstEmitting } = this;
    const { i32 } = w;
    const hits: number[] = [];
    const runs: number[] = [];
    const n = text.length;
    i32[2] = 0; // flags
    i32[3] = 0; // state
    i32[4] = -1; // last position outside the base64 alphabet
    i32[5] = 0; // character kinds in the current run
    i32[6] = 0; // the run's first character could start base64 of ASCII
    for (let off = 0; off < n; off += CHUNK) {
      const len = Math.min(CHUNK, n - off);
      w.bytes.write(off === 0 && len === n ? text : text.slice(off, off + len), w.txt, len * 2, 'utf16le');
      w.scan(w.txt, len, off, w.tbl, w.cls, w.hits, w.runs, firstEmitting, minRun);
      const nh = i32[0]!;
      for (let j = 0, h = w.hits >> 2; j < nh; j++, h += 2) {
        const o = outputs[i32[h]!]!;
        const end = i32[h + 1]!;
        for (let k = 0; k < o.length; k++) hits.push(o[k]!, end - keywords[o[k]!]!.length + 1);
      }
      const nr = i32[1]!;
      for (let j = 0, r = w.runs >> 2; j < nr; j++, r += 2) runs.push(i32[r]!, i32[r + 1]!);
    }
    const last = i32[4]!;
    if (n - last > minRun && i32[5] === 7 && i32[6] === 1) runs.push(last + 1, n);
    const flags = i32[2]!;
    return { hits, runs, percent: (flags & 1) !== 0, backslash: (flags & 2) !== 0 };
  }

  private scanJs(text: string): ScanResult {
    const { delta, outputs, firstEmitting, keywords, minRun, classOf, shift } = this;
    const hits: number[] = [];
    const runs: number[] = [];
    let percent = false;
    let backslash = false;
    let state = 0;
    let last = -1; // last character outside the base64 alphabet
    let kinds = 0; // 1 lower, 2 upper, 4 digit: seen in the current run
    let first = false; // the run's first character could start base64 of ASCII (A-Z, a-f)
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      const cls = c < ALPHABET ? classOf[c]! : 0;
      state = delta[(state << shift) | (cls & 127)]!;
      if (state >= firstEmitting) {
        const o = outputs[state]!;
        for (let j = 0; j < o.length; j++) {
          const id = o[j]!;
          hits.push(id, i - keywords[id]!.length + 1);
        }
      }
      if (cls < 128) {
        if (i - last > minRun && kinds === 7 && first) runs.push(last + 1, i);
        last = i;
        kinds = 0;
        if (c === 37) percent = true;
        else if (c === 92) backslash = true;
      } else {
        if (i === last + 1) first = (c >= 65 && c <= 90) || (c >= 97 && c <= 102);
        kinds |= c >= 97 && c <= 122 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 48 && c <= 57 ? 4 : 0;
      }
    }
    if (n - last > minRun && kinds === 7 && first) runs.push(last + 1, n);
    return { hits, runs, percent, backslash };
  }
}
