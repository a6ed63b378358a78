/**
 * Binary data as the classifier reads it: its bytes (through the built-in accessors, never the
 * value's own), and the text they hold.
 */

/**
 * A copy of the bytes of binary data (a typed array, a Buffer, a DataView, an ArrayBuffer), or
 * undefined for any other value. Read through the built-in accessors, never the value's own
 * (`buffer`, `byteLength`, `slice`, `constructor`): a subclass or an own property cannot show the
 * copy other bytes than the value holds.
 */
export function binaryBytes(v: object): Uint8Array<ArrayBuffer> | undefined {
  let buffer: ArrayBufferLike;
  let offset = 0;
  let length: number;
  if (ArrayBuffer.isView(v)) {
    const view = typedArrayName.call(v) === undefined ? DATA_VIEW : TYPED_ARRAY;
    buffer = view.buffer.call(v) as ArrayBufferLike;
    offset = view.byteOffset.call(v) as number;
    length = view.byteLength.call(v) as number;
  } else {
    if (!(v instanceof ArrayBuffer)) return undefined;
    try {
      length = arrayBufferByteLength.call(v) as number; // throws for anything but an ArrayBuffer
    } catch {
      return undefined;
    }
    buffer = v as ArrayBuffer;
  }
  try {
    return new Uint8Array(buffer, offset, length).slice();
  } catch {
    return new Uint8Array(0); // (a detached buffer, transferred away: it holds no bytes, and JSON writes it so)
  }
}

/** The `toJSON` built-in binary data of this kind has: a Buffer's own; none for the rest. */
export function builtinToJSON(v: object): unknown {
  return Buffer.isBuffer(v) ? Buffer.prototype.toJSON : undefined;
}

function accessor(proto: object, key: PropertyKey): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(proto, key)!.get!;
}

const TYPED_ARRAY_PROTOTYPE = Object.getPrototypeOf(Uint8Array.prototype) as object;
/** The typed array's own kind (`Uint16Array`), whatever its class says; undefined for a DataView. */
const typedArrayName = accessor(TYPED_ARRAY_PROTOTYPE, Symbol.toStringTag);
const TYPED_ARRAY = { buffer: accessor(TYPED_ARRAY_PROTOTYPE, 'buffer'), byteOffset: accessor(TYPED_ARRAY_PROTOTYPE, 'byteOffset'), byteLength: accessor(TYPED_ARRAY_PROTOTYPE, 'byteLength') };
const DATA_VIEW = { buffer: accessor(DataView.prototype, 'buffer'), byteOffset: accessor(DataView.prototype, 'byteOffset'), byteLength: accessor(DataView.prototype, 'byteLength') };
const arrayBufferByteLength = accessor(ArrayBuffer.prototype, 'byteLength');
export const TYPED_ARRAYS = new Map<string | undefined, new (buffer: ArrayBuffer) => ArrayBufferView>(
  [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array].map((T) => [T.name, T]),
);

/** A typed array's own kind (`Uint16Array`), whatever its class says; undefined for anything else. */
export function typedArrayKind(v: object): string | undefined {
  return ArrayBuffer.isView(v) ? (typedArrayName.call(v) as string | undefined) : undefined;
}

/**
 * The bytes of a Buffer as `JSON.stringify` writes it — `{"type":"Buffer","data":[103,104,…]}`, two
 * keys, at least one byte, every one an integer 0–255 — or undefined for any other value. Its data
 * is binary that a JSON transport (MCP, an SDK's tool input) turned into numbers: a credential in
 * it must be read as a Buffer's is. Never throws (a getter or proxy trap that throws is not a Buffer).
 */
export function bufferJsonBytes(value: object): Buffer | undefined {
  try {
    const { type, data } = value as { type?: unknown; data?: unknown };
    if (type !== 'Buffer' || !Array.isArray(data) || data.length === 0) return undefined;
    const keys = Object.keys(value);
    if (keys.length !== 2 || !keys.includes('type') || !keys.includes('data')) return undefined;
    const bytes = Buffer.allocUnsafe(data.length);
    for (let i = 0; i < data.length; i++) {
      const b: unknown = data[i];
      if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) return undefined;
      bytes[i] = b;
    }
    return bytes;
  } catch {
    return undefined;
  }
}

/**
 * The text binary data holds, at most `max` characters' worth of bytes: its bytes as UTF-8 and,
 * where they may be text of wider units, that reading too (after a line break): UTF-16 for a
 * 16-bit typed array (`Uint16Array.from(text, c => c.charCodeAt(0))`) or for bytes that are text
 * in it (`Buffer.from(text, 'utf16le')`: a zero beside nearly every other byte), code points for a
 * 32-bit one whose every element is one — so a token is read as text however it was packed.
 */
export function binaryText(bytes: Uint8Array, kind: string | undefined, max: number): string {
  const head = bytes.subarray(0, max);
  const buf = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const utf8 = buf.toString('utf8');
  const wide = widerText(head, buf, kind);
  return wide === undefined ? utf8 : `${utf8}\n${wide}`;
}

function widerText(head: Uint8Array, buf: Buffer, kind: string | undefined): string | undefined {
  if (kind === 'Uint16Array' || kind === 'Int16Array') return buf.toString('utf16le');
  if ((kind === 'Uint32Array' || kind === 'Int32Array') && head.byteLength % 4 === 0) {
    const points = new Uint32Array(head.slice().buffer);
    if (points.every((p) => p <= 0x10ffff)) return codePointsText(points);
  }
  switch (utf16Order(head)) {
    case 'le':
      return buf.toString('utf16le');
    case 'be':
      return Buffer.from(head).swap16().toString('utf16le');
    default:
      return undefined;
  }
}

function codePointsText(points: Uint32Array): string {
  let out = '';
  for (let i = 0; i < points.length; i += 4096) out += String.fromCodePoint(...points.subarray(i, i + 4096));
  return out;
}

/** Bytes read as UTF-16 (little or big endian): eight or more, even, and a zero beside nearly every other byte (of the first 4 KB). */
function utf16Order(bytes: Uint8Array): 'le' | 'be' | undefined {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 8 || bytes.length % 2 !== 0) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero >= pairs * 0.9 && evenZero <= pairs * 0.1) return 'le';
  if (evenZero >= pairs * 0.9 && oddZero <= pairs * 0.1) return 'be';
  return undefined;
}
