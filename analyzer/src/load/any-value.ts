/**
 * OTLP/JSON `AnyValue`s that hold a map (`kvlistValue`) or an array with maps or arrays inside,
 * as plain JSON text: the form the OpenTelemetry Collector's ClickHouse exporter stores them in,
 * and the form an emitter writes when it records such an attribute as a JSON string (the GenAI
 * conventions allow either for `gen_ai.tool.call.arguments`, `gen_ai.input.messages`, …). The
 * loader stages such a value as that text, so every reader of string values (the credential
 * re-scan, the foreign tool-call recognisers) reads it like the JSON-string form.
 */

/** Name of the DuckDB scalar function {@link Db} registers for {@link anyValueJson}. */
export const ANY_VALUE_JSON_FUNCTION = 'argspan_any_value_json';

/** Levels converted; a value nested deeper is kept as its OTLP/JSON text (a string), so nothing in it is lost. */
const MAX_DEPTH = 64;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The plain JSON text of an OTLP/JSON `AnyValue` given as JSON text (fields that are `null` count
 * as absent, as DuckDB's `to_json` writes a struct's missing fields): a map becomes an object, an
 * array an array, a string, boolean, double or bytes (base64) value itself, an integer a number
 * (a string when it exceeds 2^53). A key a map holds twice keeps every value: the second is
 * written under `key#2`, and so on, and a value with several fields set becomes the array of
 * them, so nothing is hidden behind something else. Input that is not an `AnyValue` is kept as it
 * is; text that is not JSON is returned unchanged.
 */
export function anyValueJson(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(plain(parsed, 0)) ?? text;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The fields of an `AnyValue`, a oneof: exactly one is set in a well-formed value. */
const FIELDS = ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'bytesValue', 'kvlistValue', 'arrayValue'] as const;

function plain(v: unknown, depth: number): Json {
  if (!isObject(v)) return (v ?? null) as Json;
  if (depth >= MAX_DEPTH) return JSON.stringify(v);
  const set = FIELDS.filter((f) => v[f] != null);
  // Several fields set (malformed): every one is kept, so none can hide behind another.
  if (set.length > 1) return set.map((f) => field(f, v[f], depth));
  return set.length === 1 ? field(set[0]!, v[set[0]!], depth) : null;
}

function field(name: (typeof FIELDS)[number], x: unknown, depth: number): Json {
  switch (name) {
    case 'intValue':
      return integer(x);
    case 'kvlistValue':
      return map(x, depth);
    case 'arrayValue': {
      const values = isObject(x) ? x.values : undefined;
      return Array.isArray(values) ? values.map((e) => plain(e, depth + 1)) : [];
    }
    default:
      return x as Json;
  }
}

function map(kvlist: unknown, depth: number): Json {
  const values = isObject(kvlist) ? kvlist.values : undefined;
  // A null prototype: a key such as "__proto__" is an ordinary key here.
  const out = Object.create(null) as Record<string, Json>;
  if (!Array.isArray(values)) return out;
  for (const kv of values) {
    if (!isObject(kv)) continue;
    const key = typeof kv.key === 'string' ? kv.key : String(kv.key ?? '');
    let name = key;
    for (let n = 2; Object.hasOwn(out, name); n++) name = `${key}#${n}`;
    out[name] = plain(kv.value, depth + 1);
  }
  return out;
}

/** An OTLP/JSON int64 (a decimal string, or a number): a number when exact, else its digits. */
function integer(v: unknown): Json {
  if (typeof v === 'number') return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : String(v);
}
