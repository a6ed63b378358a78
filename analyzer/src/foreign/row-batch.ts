import { hashHex, type KeyedValueHasher } from '@argspan/core/internal';
import type { ArgumentBlobRow, ForeignArgRow, ForeignCallRow, ForeignRowSink } from './classify-trace.js';

/**
 * The rows of a batch of classified traces, in a form that crosses threads cheaply: argument rows
 * (the most by far) as typed arrays, every string given once in a table and named by its index.
 * Indices are local to the batch; `ForeignRowTables.append` renumbers them for the tables.
 */
export interface RowBatch {
  /** Names, tools, emitters, residencies, sources and blob attributes, each once. */
  strings: string[];
  /** Argument key paths as pairs: `keys[2i]` the key, `keys[2i + 1]` its leaf. */
  keys: string[];
  /** Label combinations as `[provenance, residency, rule]` triples, and whether each is denylisted. */
  labels: string[];
  denylisted: boolean[];
  /** Calls in the order found: each a {@link CallTuple}. */
  calls: CallTuple[];
  /** Argument rows, `ARG_FIELDS` numbers each: call (index in `calls`), key, label, bytes. */
  args: Int32Array<ArrayBuffer>;
  /** Their value hashes, four words each. */
  hashes: Uint32Array<ArrayBuffer>;
  /** Rows in `args` and `hashes`. */
  argCount: number;
  /** Blob rows: trace number, span id, attribute (index in `strings`), call span id (null for the same span). */
  blobs: [number, string, number, string | null][];
  /** Credentials of secret arguments (few): call (index in `calls`), key (index in `keys` pairs), the credential's keyed hash (hex). */
  credentials: [number, number, string][];
}

/**
 * A call's columns in `foreign_calls` order, strings by their index in `RowBatch.strings`:
 * trace number, span id, name, end, file id, turn span id, tool, call id, emitter, residency,
 * argument count, argument bytes, source, no evidence, start.
 */
export type CallTuple = [number, string, number, bigint | null, number | null, string | null, number, string | null, number, number, number, number, number, boolean, bigint];

/** Numbers per argument row in `RowBatch.args`. */
export const ARG_FIELDS = 4;

/** Slots of the value hash memo (a power of two), and the longest value remembered. */
const HASH_MEMO_SIZE = 1 << 16;
const HASH_MEMO_VALUE_LENGTH = 64;

/**
 * Keyed hashes of argument values, with a memo of recent short ones (agents repeat values: flags,
 * counts, names) in a direct-mapped table: a value's slot is a hash of its text, and the value
 * held there says whether the words are its own. One array read per leaf, nothing to grow or clear.
 */
export class ValueHashes {
  private readonly words = new Uint32Array(4 * HASH_MEMO_SIZE);
  private readonly texts: (string | undefined)[] = new Array<string | undefined>(HASH_MEMO_SIZE).fill(undefined);

  constructor(private readonly hasher: KeyedValueHasher) {}

  /** `text`'s hash as hex (as `ValueHasher.hash` gives it). */
  hash(text: string): string {
    const words = new Uint32Array(4);
    this.hashInto(text, words, 0);
    return hashHex(words, 0);
  }

  /** Write the four words of `text`'s hash to `out` at `offset`. */
  hashInto(text: string, out: Uint32Array, offset: number): void {
    if (text.length > HASH_MEMO_VALUE_LENGTH) {
      this.hasher.hashInto(text, out, offset);
      return;
    }
    const slot = memoSlot(text);
    const at = 4 * slot;
    if (this.texts[slot] !== text) {
      this.texts[slot] = text;
      this.hasher.hashInto(text, this.words, at);
    }
    out[offset] = this.words[at]!;
    out[offset + 1] = this.words[at + 1]!;
    out[offset + 2] = this.words[at + 2]!;
    out[offset + 3] = this.words[at + 3]!;
  }
}

/** A short value's slot in the hash memo: FNV-1a of its UTF-16 code units, folded to the table's size. */
function memoSlot(text: string): number {
  let h = 0x811c9dc5 ^ text.length;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) & (HASH_MEMO_SIZE - 1);
}

/**
 * Numbers for distinct argument keys (key path and leaf) and for distinct labels (provenance,
 * residency, rule, denylisted), in the order first seen, through nested maps: no joined string
 * to build per leaf. `added` is told each new one with its number.
 */
export class KeyAndLabelNumbers {
  private readonly keyNos = new Map<string, Map<string, number>>();
  private keys = 0;
  /** Label numbers by rule, provenance, residency, then `denylisted` as 0 or 1. */
  private readonly labelNos = new Map<string, Map<string, Map<string, [number, number]>>>();
  private labels = 0;

  constructor(
    private readonly added: {
      key(no: number, key: string, leaf: string): void;
      label(no: number, provenance: string, residency: string, rule: string, denylisted: boolean): void;
    },
  ) {}

  keyNo(key: string, leaf: string): number {
    let byLeaf = this.keyNos.get(key);
    if (!byLeaf) this.keyNos.set(key, (byLeaf = new Map()));
    let no = byLeaf.get(leaf);
    if (no === undefined) {
      byLeaf.set(leaf, (no = this.keys++));
      this.added.key(no, key, leaf);
    }
    return no;
  }

  /** A batch's key and label numbers (local to the batch) as these numbers: `keyNo[i]` for the batch's key `i`, likewise labels. */
  ofBatch(batch: Pick<RowBatch, 'keys' | 'labels' | 'denylisted'>): { keyNo: Int32Array; labelNo: Int32Array } {
    const keyNo = new Int32Array(batch.keys.length / 2);
    for (let i = 0; i < keyNo.length; i++) keyNo[i] = this.keyNo(batch.keys[2 * i]!, batch.keys[2 * i + 1]!);
    const labelNo = new Int32Array(batch.denylisted.length);
    for (let i = 0; i < labelNo.length; i++) labelNo[i] = this.labelNo(batch.labels[3 * i]!, batch.labels[3 * i + 1]!, batch.labels[3 * i + 2]!, batch.denylisted[i]!);
    return { keyNo, labelNo };
  }

  labelNo(provenance: string, residency: string, rule: string, denylisted: boolean): number {
    let byProvenance = this.labelNos.get(rule);
    if (!byProvenance) this.labelNos.set(rule, (byProvenance = new Map()));
    let byResidency = byProvenance.get(provenance);
    if (!byResidency) byProvenance.set(provenance, (byResidency = new Map()));
    let nos = byResidency.get(residency);
    if (!nos) byResidency.set(residency, (nos = [-1, -1]));
    const d = denylisted ? 1 : 0;
    if (nos[d] < 0) {
      nos[d] = this.labels++;
      this.added.label(nos[d], provenance, residency, rule, denylisted);
    }
    return nos[d];
  }
}

/** Collects the rows of classified traces into a {@link RowBatch}, hashing each value as it comes. */
export class RowBatchBuilder {
  private readonly strings: string[] = [];
  private readonly stringNos = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly labels: string[] = [];
  private readonly denylisted: boolean[] = [];
  private readonly numbers = new KeyAndLabelNumbers({
    key: (_, key, leaf) => this.keys.push(key, leaf),
    label: (_, provenance, residency, rule, denylisted) => {
      this.labels.push(provenance, residency, rule);
      this.denylisted.push(denylisted);
    },
  });
  private readonly calls: CallTuple[] = [];
  private args = new Int32Array(ARG_FIELDS * 4096);
  private hashes = new Uint32Array(4 * 4096);
  private argCount = 0;
  private readonly blobs: RowBatch['blobs'] = [];
  private readonly credentials: RowBatch['credentials'] = [];

  constructor(private readonly values: ValueHashes) {}

  /** Where the rows of trace `traceNo` (`foreign_traces.trace_no`) go; a call's number is its index in the batch. */
  sink(traceNo: number): ForeignRowSink {
    return {
      call: (row) => this.addCall(traceNo, row),
      arg: (callNo, row, text) => this.addArg(callNo, row, text),
      credential: (callNo, row, text) => this.credentials.push([callNo, this.numbers.keyNo(row.key, row.leaf), this.values.hash(text)]),
      blob: (row) => this.addBlob(traceNo, row),
    };
  }

  /** The rows collected (the builder is not used after). */
  build(): RowBatch {
    const n = this.argCount;
    return {
      strings: this.strings,
      keys: this.keys,
      labels: this.labels,
      denylisted: this.denylisted,
      calls: this.calls,
      args: this.args.subarray(0, ARG_FIELDS * n),
      hashes: this.hashes.subarray(0, 4 * n),
      argCount: n,
      blobs: this.blobs,
      credentials: this.credentials,
    };
  }

  private addCall(traceNo: number, c: ForeignCallRow): number {
    const s = (text: string) => this.stringNo(text);
    this.calls.push([traceNo, c.spanId, s(c.name), c.endNs, c.fileId, c.turnSpanId, s(c.tool), c.callId, s(c.emitter), s(c.residency), c.argsCount, c.argsBytes, s(c.source), c.noEvidence, c.startNs]);
    return this.calls.length - 1;
  }

  private addArg(callNo: number, a: ForeignArgRow, text: string): void {
    const i = this.argCount++;
    if (i === this.args.length / ARG_FIELDS) this.grow();
    const at = ARG_FIELDS * i;
    this.args[at] = callNo;
    this.args[at + 1] = this.numbers.keyNo(a.key, a.leaf);
    this.args[at + 2] = this.numbers.labelNo(a.provenance, a.residency, a.rule, a.denylisted);
    this.args[at + 3] = a.bytes;
    this.values.hashInto(text, this.hashes, 4 * i);
  }

  private grow(): void {
    const args = new Int32Array(this.args.length * 2);
    args.set(this.args);
    this.args = args;
    const hashes = new Uint32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }

  /** A blob on the call's own span gives a null call span (the same span: no second string to pass). */
  private addBlob(traceNo: number, b: ArgumentBlobRow): void {
    this.blobs.push([traceNo, b.spanId, this.stringNo(b.attribute), b.callSpanId === b.spanId ? null : b.callSpanId]);
  }

  private stringNo(text: string): number {
    let no = this.stringNos.get(text);
    if (no === undefined) {
      this.stringNos.set(text, (no = this.strings.length));
      this.strings.push(text);
    }
    return no;
  }
}
