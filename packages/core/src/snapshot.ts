import { binaryBytes, builtinToJSON, TYPED_ARRAYS, typedArrayKind } from './binary.js';
import { ResidencyRule } from '@argspan/conventions';
import { boxedPrimitive } from './boxed.js';
/** Why arguments could not be snapshotted. Names the kind of value, never the value or its key. */
export class ArgumentSnapshotError extends Error {
  override name = 'ArgumentSnapshotError';
  constructor(
    /**
     * What was found: `bigint`, `cycle`, `depth` (nested deeper than allowed), `size` (more values
     * than allowed), `getter` (a property read or proxy trap threw), `toJSON` (it threw).
     */
    readonly kind: 'bigint' | 'cycle' | 'depth' | 'size' | 'getter' | 'toJSON',
  ) {
    super(`arguments are not JSON-serialisable (${kind})`);
  }
}

/** Limits of {@link snapshotArgs}: beyond them the arguments are refused, not truncated. */
export interface SnapshotLimits {
  /** Deepest nesting copied (JSON.stringify itself overflows the stack a little beyond this). @default 4096 */
  maxDepth: number;
  /** Most values (leaves and containers) copied. @default 1000000 */
  maxValues: number;
}

export const DEFAULT_SNAPSHOT_LIMITS: Readonly<SnapshotLimits> = { maxDepth: 4096, maxValues: 1_000_000 };

/** A container being filled: the source, its copy, its keys (undefined for an array) and length, read once. */
interface Frame {
  from: object;
  to: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  length: number;
  next: number;
  depth: number;
}

/**
 * Copy tool-call arguments once into plain JSON data, exactly as `JSON.stringify` would serialise
 * them (`toJSON` honoured, so a Date becomes its ISO string; functions, symbols and `undefined`
 * dropped from objects and `null` in arrays; non-finite numbers `null`; a Map or Set `{}`) — but
 * binary data (a Buffer, a typed array, a DataView, an ArrayBuffer) copied as binary of its type,
 * so its bytes are classified as the text they may hold, not as JSON's list of numbers — reading
 * every property, length and key list and running every getter or proxy trap exactly once. What
 * the gate classifies, records, dispatches and hops is this copy, so a value that changes between
 * reads cannot show the gate one thing and the tool another. Iterative, so hostile nesting cannot
 * overflow the stack. Throws {@link ArgumentSnapshotError} for what JSON cannot carry faithfully: a
 * BigInt, a cycle, a getter or `toJSON` that throws, nesting or size beyond the limits.
 */
export function snapshotArgs(args: unknown, limits: Partial<SnapshotLimits> = {}): unknown {
  const { maxDepth, maxValues } = { ...DEFAULT_SNAPSHOT_LIMITS, ...limits };
  let values = 1;
  const top = copyValue(args, '', false, 0);
  if (top === SKIP) return undefined;
  if (!(top instanceof Container)) return top;
  const stack: Frame[] = [top.frame];
  const onStack = new Set<object>([top.frame.from]);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.next >= f.length) {
      onStack.delete(f.from);
      stack.pop();
      continue;
    }
    const i = f.next++;
    if (++values > maxValues) throw new ArgumentSnapshotError('size');
    const key = f.keys ? f.keys[i]! : String(i);
    const v = copyValue(read(f.from, f.keys ? key : i), key, f.keys === undefined, f.depth);
    if (v === SKIP) continue;
    let out = v;
    if (v instanceof Container) {
      if (onStack.has(v.frame.from)) throw new ArgumentSnapshotError('cycle');
      if (v.frame.depth > maxDepth) throw new ArgumentSnapshotError('depth');
      onStack.add(v.frame.from);
      stack.push(v.frame);
      out = v.frame.to;
    }
    if (!f.keys) (f.to as unknown[]).push(out);
    // An own "__proto__" key (JSON.parse makes one) stays an own key: assigning it would set the
    // prototype and hide its value from classification.
    else if (key === '__proto__') Object.defineProperty(f.to, key, { value: out, enumerable: true, writable: true, configurable: true });
    else (f.to as Record<string, unknown>)[key] = out;
  }
  return top.frame.to;
}

const SKIP = Symbol('skip');

/** A copy of binary data as the built-in type it is (a Buffer stays a Buffer); see {@link binaryBytes}. */
function copyBinary(v: object, bytes: Uint8Array<ArrayBuffer>): ArrayBufferView | ArrayBuffer {
  if (Buffer.isBuffer(v)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!ArrayBuffer.isView(v)) return bytes.buffer;
  const Typed = TYPED_ARRAYS.get(typedArrayKind(v));
  return Typed === undefined ? new DataView(bytes.buffer) : new Typed(bytes.buffer);
}

/** An object or array still to be copied (never a value of the arguments themselves). */
class Container {
  constructor(readonly frame: Frame) {}
}

/**
 * One value as JSON would serialise it: a primitive, a {@link Container} to fill, or SKIP (an
 * object member JSON leaves out; in an array it becomes null).
 */
function copyValue(value: unknown, key: string, inArray: boolean, parentDepth: number): unknown {
  let v = value;
  if (typeof v === 'object' && v !== null) {
    let toJSON: unknown;
    try {
      toJSON = (v as { toJSON?: unknown }).toJSON;
    } catch {
      throw new ArgumentSnapshotError('getter');
    }
    // Binary data stays binary (a copy, of the built-in type): JSON would make its bytes numbers,
    // which the classifier cannot read as the text they may hold (a token in a Buffer). Unless it
    // has a toJSON of its own (a subclass's): JSON sends what that returns, so that is copied.
    const bytes = binaryBytes(v);
    if (bytes !== undefined && toJSON === builtinToJSON(v)) return copyBinary(v, bytes);
    if (typeof toJSON === 'function') {
      try {
        v = toJSON.call(v, key);
      } catch {
        throw new ArgumentSnapshotError('toJSON');
      }
    }
  }
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      // JSON has no -0 and no non-finite numbers.
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'bigint':
      throw new ArgumentSnapshotError('bigint');
    case 'undefined':
    case 'function':
    case 'symbol':
      return inArray ? null : SKIP;
  }
  if (v === null) return null;
  const obj = v as object;
  // Boxed primitives serialise as their value.
  const primitive = boxedPrimitive(obj);
  if (primitive !== undefined) return copyValue(primitive, key, inArray, parentDepth);
  const depth = parentDepth + 1;
  if (Array.isArray(obj)) {
    const length = read(obj, 'length');
    return new Container({ from: obj, to: [], keys: undefined, length: typeof length === 'number' ? length : 0, next: 0, depth });
  }
  let keys: string[];
  try {
    keys = Object.keys(obj);
  } catch {
    throw new ArgumentSnapshotError('getter');
  }
  return new Container({ from: obj, to: {}, keys, length: keys.length, next: 0, depth });
}

function read(obj: object, key: string | number): unknown {
  try {
    return (obj as Record<string | number, unknown>)[key];
  } catch {
    throw new ArgumentSnapshotError('getter');
  }
}

/** Why a call whose arguments {@link snapshotArgs} could not copy fails closed: the kind of value, never the value. */
export function snapshotFailureReason(err: unknown): string {
  const kind = err instanceof ArgumentSnapshotError ? err.kind : 'unreadable';
  return `fail-closed: the arguments are not JSON-serialisable (${kind}) (rule ${ResidencyRule.FAIL_CLOSED})`;
}
