import { sqlString } from '../load/duckdb-types.js';
import { ATTR_VALUE_TEXT_SQL } from '../load/schema.js';
import type { ForeignEvent, ForeignSpan } from './types.js';

/**
 * One candidate span as one JSON text, written by DuckDB (`to_json`) or ClickHouse (`spanJsonSql`
 * in `clickhouse/foreign.ts`), so a span crosses into JavaScript as one string whatever its
 * attributes (reading DuckDB's list vectors value by value cost more than DuckDB's encoding and
 * `JSON.parse` together). Times are text: a nanosecond time does not fit a JSON number.
 */
export interface SpanJson {
  /** span id */
  s: string;
  /** parent span id */
  p: string | null;
  /** name */
  n: string;
  /** start, ns */
  b: string | null;
  /** end, ns */
  e: string | null;
  /** scope name */
  c: string | null;
  /** file id */
  f: number | null;
  /** attribute keys */
  k: string[] | null;
  /** string values, parallel to `k` (NULL where the attribute is not a string) */
  v: (string | null)[] | null;
  /** values of each of `arrayKeys` that is an array attribute, in their order (NULL where it is not) */
  a: ((string | null)[] | null)[];
  /**
   * `[key, text]` of each attribute under one of `textPrefixes` held as another type than a string
   * (an int, a double, a flag, an array), its text as the exporter's ClickHouse map holds it; NULL
   * (or absent) when it has none. Read with the string attributes.
   */
  t?: [string, string][] | null;
  /** its events named in `eventNames` (name, attribute keys, string values parallel to them); NULL (or absent) when it has none */
  x?: { n: string; k: string[] | null; v: (string | null)[] | null }[] | null;
}

/**
 * SQL for a span of `span_structs` as a {@link SpanJson} text: its string attributes, of the
 * array attributes only `arrayKeys` (their elements as text), and of its events only those named
 * in `eventNames`. A span without events (almost all) pays one length check for them.
 */
export function spanJsonSql(arrayKeys: readonly string[], eventNames: readonly string[], textPrefixes: readonly string[] = []): string {
  const arrays = arrayKeys.map((k) => `arr_values(attr_arr[list_position(attr_keys, ${sqlString(k)})])`).join(', ');
  const names = `[${eventNames.map(sqlString).join(', ')}]`;
  const events = `CASE WHEN len(events) > 0 THEN list_transform(list_filter(events, lambda e: list_contains(${names}, e."name")),
    lambda e: {n: e."name", k: list_transform(e.attributes, lambda a: a."key"), v: list_transform(e.attributes, lambda a: a."value".stringValue)}) END`;
  // (a span with no key under a prefix, almost all, pays one search of its joined keys)
  const under = (k: string) => textPrefixes.map((p) => `starts_with(${k}, ${sqlString(p)})`).join(' OR ');
  const texts = textPrefixes.length === 0 ? 'NULL' : `CASE WHEN ${textPrefixes.map((p) => `contains(array_to_string(attr_keys, chr(1)), ${sqlString(p)})`).join(' OR ')}
    THEN list_filter(list_transform(attr_keys, lambda k, i: CASE WHEN attr_str[i] IS NULL AND (${under('k')}) THEN [k, ${ATTR_VALUE_TEXT_SQL('span_structs', 'i')}] END), lambda x: x IS NOT NULL) END`;
  return `to_json({s: span_id, p: parent_span_id, n: "name", b: start_ns::VARCHAR, e: end_ns::VARCHAR, c: scope_name, f: file_id, k: attr_keys, v: attr_str, a: [${arrays}], t: ${texts}, x: ${events}})::VARCHAR`;
}

/** SQL: whether a span of `span_structs` has an event named in `eventNames` (a candidate for the evidence those hold). */
export function hasEventSql(eventNames: readonly string[]): string {
  return `(len(events) > 0 AND list_has_any(list_transform(events, lambda e: e."name"), [${eventNames.map(sqlString).join(', ')}]))`;
}

/**
 * The spans of one trace from their {@link spanJsonSql} texts, in the order the trace is read: by
 * start time (a span without one last), then span id. A string attribute is kept unless its value
 * is NULL (of a key repeated with other values the last, the earlier in `shadowed`); an array attribute of `arrayKeys` replaces a string of the
 * same key. A key of `nonTextKeys` (a call's arguments, a model's output, its input) whose value is NULL — an int, a bool, an array, bytes or an
 * empty value: `v` holds strings only — is in `nonText` (beside a string of the same key, an
 * earlier copy of it, of no text, in `shadowed`). Events are kept as written, each with its string
 * attributes, and its keys of `eventNonTextKeys` held as another type in its `nonText`.
 */
export function parseTraceSpans(
  traceId: string,
  texts: readonly string[],
  arrayKeys: readonly string[],
  nonTextKeys: NonTextKeys,
  eventNonTextKeys: ReadonlySet<string> = NO_KEYS,
): ForeignSpan[] {
  return sortSpans(texts.map((text) => readSpan(traceId, text, arrayKeys, nonTextKeys, eventNonTextKeys)));
}

/** The span attributes read as held as another type than text: these keys, and the flattened ones `flattened` says. */
export interface NonTextKeys {
  keys: ReadonlySet<string>;
  flattened?: (key: string) => boolean;
}

function readSpan(traceId: string, text: string, arrayKeys: readonly string[], nonTextKeys: NonTextKeys, eventNonTextKeys: ReadonlySet<string>): { span: ForeignSpan; started: boolean } {
  const j = JSON.parse(text) as SpanJson;
  const { attrs, shadowed, nonText } = stringAttributes<string | readonly string[]>(j.k, j.v, nonTextKeys.keys, nonTextKeys.flattened);
  for (let i = 0; i < arrayKeys.length; i++) {
    const a = j.a[i];
    if (a) attrs.set(arrayKeys[i]!, a as string[]);
  }
  if (j.t) for (const [key, value] of j.t) if (!attrs.has(key)) attrs.set(key, value);
  const startNs = j.b === null ? 0n : BigInt(j.b);
  const recordedEndNs = j.e === null ? null : BigInt(j.e);
  const span: ForeignSpan = { traceId, spanId: j.s, parentSpanId: j.p, name: j.n, startNs, endNs: recordedEndNs ?? startNs, recordedEndNs, scope: j.c, fileId: j.f, attrs };
  if (j.x && j.x.length > 0) span.events = j.x.map((x) => readEvent(x, eventNonTextKeys));
  if (shadowed) span.shadowed = shadowed;
  if (nonText) span.nonText = nonText;
  return { span, started: j.b !== null };
}

function readEvent(x: NonNullable<SpanJson['x']>[number], nonTextKeys: ReadonlySet<string>): ForeignEvent {
  const { attrs, shadowed, nonText } = stringAttributes<string>(x.k, x.v, nonTextKeys);
  const event: ForeignEvent = shadowed ? { name: x.n, attrs, shadowed } : { name: x.n, attrs };
  if (nonText) event.nonText = nonText;
  return event;
}

/**
 * A span's or an event's string attributes (a NULL value left out), and `shadowed`: the earlier
 * values of a key written twice with different values (OTLP forbids it; a merge or a hand edit does
 * it), so that what was recorded there is read too, not hidden by the later copy. Counted, not
 * looked up: a key written twice leaves the map smaller than the values written.
 */
function stringAttributes<V>(
  keys: readonly string[] | null,
  values: readonly (string | null)[] | null,
  nonTextKeys: ReadonlySet<string>,
  flattened?: (key: string) => boolean,
): { attrs: Map<string, V | string>; shadowed?: Map<string, string[]>; nonText?: Set<string> } {
  const attrs = new Map<string, V | string>();
  if (!keys || !values) return { attrs };
  let written = 0;
  let nonText: Set<string> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      if (nonTextKeys.has(keys[i]!) || flattened?.(keys[i]!)) (nonText ??= new Set()).add(keys[i]!);
      continue;
    }
    written++;
    attrs.set(keys[i]!, v);
  }
  const shadowed = attrs.size < written ? shadowedValues(keys, values) : undefined;
  if (!nonText) return shadowed ? { attrs, shadowed } : { attrs };
  return withNonText(attrs, shadowed, nonText);
}

/**
 * The attributes with `nonText`, the keys asked for written as another type than a string: a key
 * written as a string too keeps its string, and the other copy (its value not carried) is an
 * earlier one of no text, so that the arguments are read as copies that disagree, not as the
 * string alone.
 */
function withNonText<A extends Map<string, unknown>>(attrs: A, shadowed: Map<string, string[]> | undefined, nonText: Set<string>): { attrs: A; shadowed?: Map<string, string[]>; nonText?: Set<string> } {
  for (const key of nonText) {
    if (!attrs.has(key)) continue;
    nonText.delete(key);
    (shadowed ??= new Map()).set(key, ['', ...(shadowed.get(key) ?? [])]);
  }
  return { attrs, ...(shadowed ? { shadowed } : {}), ...(nonText.size > 0 ? { nonText } : {}) };
}

/** No keys: nothing read as held as another type than text. */
const NO_KEYS: ReadonlySet<string> = new Set();

/** The earlier values of each key written again with another value; undefined when none differ. */
function shadowedValues(keys: readonly string[], values: readonly (string | null)[]): Map<string, string[]> | undefined {
  const last = new Map<string, string>();
  let shadowed: Map<string, string[]> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const earlier = last.get(keys[i]!);
    if (earlier !== undefined && earlier !== v) {
      shadowed ??= new Map();
      shadowed.set(keys[i]!, [...(shadowed.get(keys[i]!) ?? []), earlier]);
    }
    last.set(keys[i]!, v);
  }
  return shadowed;
}

/** Every copy of an attribute written twice (its `shadowed` values, then `last`) as one text, a copy a line. */
export function everyCopy(earlier: readonly string[], last: unknown): string {
  return [...earlier, typeof last === 'string' ? last : ''].join('\n');
}

function sortSpans(read: { span: ForeignSpan; started: boolean }[]): ForeignSpan[] {
  read.sort((x, y) => {
    if (x.started !== y.started) return x.started ? -1 : 1;
    if (x.span.startNs !== y.span.startNs) return x.span.startNs < y.span.startNs ? -1 : 1;
    return x.span.spanId < y.span.spanId ? -1 : x.span.spanId > y.span.spanId ? 1 : 0;
  });
  return read.map((r) => r.span);
}
