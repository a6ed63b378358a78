/**
 * OTLP/JSON `AnyValue`s that hold a map (`kvlistValue`) or an array with maps or arrays inside,
 * as plain JSON text: the form the OpenTelemetry Collector's ClickHouse exporter stores them in,
 * and the form an emitter writes when it records such an attribute as a JSON string (the GenAI
 * conventions allow either for `gen_ai.tool.call.arguments`, `gen_ai.input.messages`, …). The
 * loader stages such a value as that text, so every reader of string values (the credential
 * re-scan, the foreign tool-call recognisers) reads it like the JSON-string form.
 */

/** Name of the DuckDB scalar function the database registers for {@link anyValueJson}. */
export const ANY_VALUE_JSON_FUNCTION = 'argspan_any_value_json';

/** Levels converted; a value nested deeper is kept as its OTLP/JSON text (a string), so nothing in it is lost. */
const MAX_DEPTH = 64;

/** An `AnyValue` of a type OTLP/JSON does not allow: the loader refuses the line, as its typed read does. */
export class WrongTypedAnyValue extends Error {
  constructor() {
    super('a value of the wrong type for its field');
  }
}

/**
 * The plain JSON text of an OTLP/JSON `AnyValue` given as JSON text: a map becomes an object, an
 * array an array, a string, boolean, double or bytes (base64) value itself, an integer its digits
 * as a number. A key a map holds twice is written twice, as an emitter writing the JSON string
 * would, so a parser reads the last and a scan of the text reads both; a value with several fields
 * set (malformed) becomes the array of them, so nothing hides behind something else. Fields that
 * are `null` count as absent; the protobuf field names (`string_value`) are read as well. Throws
 * {@link WrongTypedAnyValue} where the typed read of OTLP/JSON would fail: a map or list that is
 * not one, a key that is not a string, a number field holding text.
 */
export function anyValueJson(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WrongTypedAnyValue();
  }
  return plainAnyValue(parsed);
}

/** {@link anyValueJson} of an `AnyValue` already parsed. */
export function plainAnyValue(v: unknown): string {
  return write(v, 0);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The fields of an `AnyValue`, a oneof (exactly one is set in a well-formed value), with their protobuf names. */
const FIELDS = [
  ['stringValue', 'string_value'],
  ['boolValue', 'bool_value'],
  ['intValue', 'int_value'],
  ['doubleValue', 'double_value'],
  ['bytesValue', 'bytes_value'],
  ['kvlistValue', 'kvlist_value'],
  ['arrayValue', 'array_value'],
] as const;
type Field = (typeof FIELDS)[number][0];
const NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

function write(v: unknown, depth: number): string {
  if (!isObject(v)) throw new WrongTypedAnyValue();
  if (depth >= MAX_DEPTH) return JSON.stringify(JSON.stringify(v));
  const set: string[] = [];
  for (const [camel, snake] of FIELDS) {
    const x = v[camel] ?? v[snake];
    if (x != null) set.push(field(camel, x, depth));
  }
  if (set.length === 0) return 'null';
  // Several fields set (malformed): every one is kept, so none can hide behind another.
  return set.length === 1 ? set[0]! : `[${set.join(',')}]`;
}

function field(name: Field, x: unknown, depth: number): string {
  switch (name) {
    case 'stringValue':
    case 'bytesValue':
      return text(x);
    case 'boolValue':
      if (typeof x !== 'boolean') throw new WrongTypedAnyValue();
      return String(x);
    case 'intValue':
      // A 64-bit integer: a decimal string (or number). Written as its digits, a JSON number of any size.
      if ((typeof x === 'string' && /^-?\d+$/.test(x)) || (typeof x === 'number' && Number.isInteger(x))) return String(x);
      throw new WrongTypedAnyValue();
    case 'doubleValue':
      if (typeof x === 'number') return JSON.stringify(x);
      // OTLP/JSON writes NaN and the infinities as strings (JSON has no number for them), and may quote any double.
      if (typeof x === 'string' && NON_FINITE.has(x)) return JSON.stringify(x);
      if (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) return JSON.stringify(Number(x));
      throw new WrongTypedAnyValue();
    case 'kvlistValue':
      return map(x, depth);
    case 'arrayValue':
      return `[${list(x).map((e) => write(e, depth + 1)).join(',')}]`;
  }
}

function text(x: unknown): string {
  if (typeof x !== 'string') throw new WrongTypedAnyValue();
  return JSON.stringify(x);
}

/** The `values` of an `ArrayValue` or `KeyValueList`: absent or null is none. */
function list(x: unknown): unknown[] {
  if (!isObject(x)) throw new WrongTypedAnyValue();
  const values = x.values;
  if (values == null) return [];
  if (!Array.isArray(values)) throw new WrongTypedAnyValue();
  return values;
}

function map(kvlist: unknown, depth: number): string {
  const pairs: string[] = [];
  for (const kv of list(kvlist)) {
    if (!isObject(kv)) throw new WrongTypedAnyValue();
    const key = kv.key ?? '';
    if (typeof key !== 'string') throw new WrongTypedAnyValue();
    pairs.push(`${JSON.stringify(key)}:${kv.value == null ? 'null' : write(kv.value, depth + 1)}`);
  }
  return `{${pairs.join(',')}}`;
}
