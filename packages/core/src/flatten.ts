import { boxedPrimitive } from './boxed.js';
import { binaryBytes, binaryText, bufferJsonBytes, builtinToJSON, typedArrayKind } from './binary.js';
import type { FlattenLimitHit, FlattenLimits, FlattenResult, Leaf, LeafKind, PathSegment } from './types.js';

export const DEFAULT_FLATTEN_LIMITS: Readonly<FlattenLimits> = {
  maxDepth: 32,
  maxLeaves: 100_000,
  maxStringLength: 10 * 1024 * 1024,
};

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Render path segments as `attendee.email`, `files[2].path`, `headers["x-api-key"]`; the root alone is `$`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out === '' ? '$' : out;
}

/** The last object key on a path: `email` for `attendee.email`, `files` for `files[2]`. */
export function leafName(path: readonly PathSegment[]): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i];
    if (typeof seg === 'string') return seg;
  }
  return '$';
}

/** Whether a call's leaves say it had no arguments at all (`{}` or `[]`): its one root leaf is an empty container. */
export function hasNoArguments(leaves: readonly Leaf[]): boolean {
  const only = leaves.length === 1 ? leaves[0]! : undefined;
  return only !== undefined && only.path.length === 0 && only.kind === 'other' && only.text === '' && !only.truncated;
}

/**
 * Flatten a tool call's arguments into leaves. Never throws: cycles, excessive depth, too many
 * leaves, huge strings and non-JSON values (Buffer, Date, Map, Set, bigint, undefined, functions,
 * throwing getters) are turned into leaves or summaries, and every limit hit is reported.
 */
export function flatten(args: unknown, limits: Partial<FlattenLimits> = {}): FlattenResult {
  const lim: FlattenLimits = { ...DEFAULT_FLATTEN_LIMITS, ...limits };
  const leaves: Leaf[] = [];
  const hits = new Set<FlattenLimitHit>();
  const ancestors = new Set<object>();
  let dropped = 0;
  let bytes = 0;

  const emit = (path: PathSegment[], kind: LeafKind, rawText: string, byteLength?: number): void => {
    const size = byteLength ?? Buffer.byteLength(rawText, 'utf8');
    bytes += size;
    if (leaves.length >= lim.maxLeaves) {
      dropped++;
      hits.add('leaves');
      return;
    }
    let text = rawText;
    let truncated = false;
    if (text.length > lim.maxStringLength) {
      text = text.slice(0, lim.maxStringLength);
      truncated = true;
      hits.add('string');
    }
    // `path` is this leaf's own array (each child gets a new one), so it is kept, not copied.
    leaves.push({ key: formatPath(path), leaf: leafName(path), path, text, kind, bytes: size, truncated });
  };

  const summarise = (path: PathSegment[], hit: FlattenLimitHit, hidden?: object): void => {
    hits.add(hit);
    // A summary leaf is opaque: classification treats it as unknown, so what it hides never goes remote.
    // Its text is what it hides as JSON (when that can be written), so a credential or secret file
    // name nested past the depth limit is still found; the value is hashed, never shown.
    // (one character past the limit, so that a text cut there is marked cut, as a string is)
    const text = hidden === undefined ? '' : jsonOrEmpty(hidden, lim.maxStringLength + 1);
    emit(path, 'other', text, text === '' ? 0 : undefined);
    const last = leaves[leaves.length - 1];
    if (last && last.key === formatPath(path)) last.truncated = true;
  };

  const visit = (value: unknown, path: PathSegment[], depth: number): void => {
    switch (typeof value) {
      case 'string':
        return emit(path, 'string', value);
      case 'number':
        if (!Number.isFinite(value)) hits.add('non-json');
        return emit(path, 'number', String(value));
      case 'boolean':
        return emit(path, 'boolean', String(value));
      case 'bigint':
        hits.add('non-json');
        return emit(path, 'bigint', value.toString());
      case 'undefined':
        hits.add('non-json');
        return emit(path, 'undefined', '');
      case 'function':
        hits.add('non-json');
        return emit(path, 'function', '');
      case 'symbol':
        hits.add('non-json');
        return emit(path, 'symbol', value.description ?? '');
    }
    if (value === null) return emit(path, 'null', '');
    const obj = value as object;
    if (depth >= lim.maxDepth) return summarise(path, 'depth', obj);
    if (ancestors.has(obj)) return summarise(path, 'cycle');
    // Boxed primitives are their value, as JSON writes them (a boxed string's keys would split it into characters).
    const primitive = boxedPrimitive(obj);
    if (primitive !== undefined) return visit(primitive, path, depth);
    // What JSON.stringify would call (a key path's last key is the key it passes).
    const toJSON = readSafely(obj, 'toJSON', hits);
    // A Date as its ISO time, unless it has a toJSON of its own (JSON.stringify would write what that returns).
    if (obj instanceof Date && toJSON === Date.prototype.toJSON) {
      return emit(path, 'date', Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString());
    }
    // Binary data as its bytes (read through the built-in accessors), unless it has a toJSON of its own.
    const binary = binaryBytes(obj);
    if (binary !== undefined && toJSON === builtinToJSON(obj)) {
      hits.add('non-json');
      return binaryLeaf(path, binary, typedArrayKind(obj));
    }
    ancestors.add(obj);
    try {
      if (typeof toJSON === 'function') {
        let replaced: unknown;
        try {
          const last = path[path.length - 1];
          replaced = toJSON.call(obj, last === undefined ? '' : String(last));
        } catch {
          return summarise(path, 'non-json');
        }
        if (replaced !== obj) return visit(replaced, path, depth);
      }
      if (Array.isArray(obj)) {
        if (obj.length === 0) return emit(path, 'other', '');
        for (let i = 0; i < obj.length; i++) {
          if (leaves.length >= lim.maxLeaves) {
            // Count the rest without walking them: a 10M-element array must not cost 10M steps.
            dropped += obj.length - i;
            hits.add('leaves');
            return;
          }
          visit(readSafely(obj, i, hits), [...path, i], depth + 1);
        }
        return;
      }
      if (obj instanceof Map) {
        hits.add('non-json');
        if (obj.size === 0) return emit(path, 'other', '');
        for (const [k, v] of obj) visit(v, [...path, String(k)], depth + 1);
        return;
      }
      if (obj instanceof Set) {
        hits.add('non-json');
        if (obj.size === 0) return emit(path, 'other', '');
        let i = 0;
        for (const v of obj) visit(v, [...path, i++], depth + 1);
        return;
      }
      let keys: string[];
      try {
        keys = Object.keys(obj);
      } catch {
        return summarise(path, 'non-json');
      }
      if (keys.length === 0) return emit(path, 'other', '');
      // A Buffer as JSON writes it is its bytes, read as a Buffer itself is (the same leaf through an entry point that sees only JSON).
      const data = keys.length === 2 ? bufferJsonBytes(obj) : undefined;
      if (data !== undefined) return binaryLeaf(path, data, undefined);
      for (const k of keys) visit(readSafely(obj, k, hits), [...path, k], depth + 1);
    } finally {
      ancestors.delete(obj);
    }
  };

  /** Binary data as one leaf: its text (cut to the string limit, as a long string is) and its byte count. */
  const binaryLeaf = (path: PathSegment[], bytes: Uint8Array, kind: string | undefined): void => {
    const truncated = bytes.length > lim.maxStringLength;
    if (truncated) hits.add('string');
    const before = leaves.length;
    emit(path, 'binary', binaryText(bytes, kind, lim.maxStringLength), bytes.length);
    if (truncated && leaves.length > before) leaves[leaves.length - 1]!.truncated = true;
  };

  visit(args, [], 0);
  return { leaves, limits: [...hits], droppedLeaves: dropped, bytes };
}

/**
 * `value` as JSON cut to `max` characters, or '' when it cannot be written (a cycle, a throwing
 * getter). Nesting too deep for `JSON.stringify`'s stack (a JSON line of 10,000 levels) is written
 * without recursion instead, so what it holds is still read.
 */
function jsonOrEmpty(value: object, max: number): string {
  try {
    return (JSON.stringify(value) ?? '').slice(0, max);
  } catch (err) {
    if (!(err instanceof RangeError)) return '';
  }
  try {
    return deepJson(value, max);
  } catch {
    return '';
  }
}

/**
 * JSON of nesting past the stack, written with a stack of its own up to `max` characters: objects,
 * arrays and JSON's scalars as `JSON.stringify` writes them (`toJSON` and the rest of its rules
 * are for values a JSON document cannot hold, and a JSON line is what nests this deep); anything
 * else is written `null`. Throws on a cycle, as `JSON.stringify` does.
 */
function deepJson(root: object, max: number): string {
  type Step = { value: unknown; key?: string } | { text: string; closes?: object };
  let out = '';
  const todo: Step[] = [{ value: root }];
  const open = new Set<object>();
  while (todo.length > 0 && out.length < max) {
    const step = todo.pop()!;
    if ('text' in step) {
      out += step.text;
      if (step.closes) open.delete(step.closes);
      continue;
    }
    if (step.key !== undefined) out += `${JSON.stringify(step.key)}:`;
    const v = step.value;
    if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out += JSON.stringify(v);
    else if (v === null || typeof v !== 'object') out += 'null';
    else {
      if (open.has(v)) throw new TypeError('cycle');
      open.add(v);
      const isArray = Array.isArray(v);
      out += isArray ? '[' : '{';
      const members: Step[] = isArray ? (v as unknown[]).map((value) => ({ value })) : Object.keys(v).map((key) => ({ key, value: (v as Record<string, unknown>)[key] }));
      todo.push({ text: isArray ? ']' : '}', closes: v });
      for (let i = members.length - 1; i >= 0; i--) todo.push(members[i]!, ...(i > 0 ? [{ text: ',' }] : []));
    }
  }
  return out.slice(0, max);
}

/** Read a property without letting a throwing getter or proxy trap escape. */
function readSafely(obj: object, key: string | number, hits: Set<FlattenLimitHit>): unknown {
  try {
    return (obj as Record<string | number, unknown>)[key];
  } catch {
    hits.add('non-json');
    return undefined;
  }
}
