import { isObject } from '../foreign/recognizers/attributes.js';
import { MAX_JSON_NESTING } from './json-byte-scan.js';
import { jsonStringEnd } from './json-head-outline.js';

/**
 * The OpenTelemetry JS SDK's own objects written as JSON, one after another: Gemini CLI's and Qwen
 * Code's `telemetry.outfile` (the file their docs suggest for local telemetry) hold each finished span
 * (the SDK's `Span`: `_spanContext`, `startTime` as `[seconds, nanoseconds]`, attributes as an
 * object, the resource's `_rawAttributes` as pairs), each log record (`hrTime`, `spanContext`,
 * `_body`; newer `sdk-logs` keep them private: `_hrTime`, `_spanContext`, which a span has too, but
 * no time of that name) and each metrics export (`resource`, `scopeMetrics`), every one indented by
 * `JSON.stringify`. Each span or record is made one OTLP JSON line, which the OTLP readers then
 * read (a span's checks, a record's join to its span); metrics are not traces and are left out.
 */

/** Whether a file's head opens with one of these objects: a span's, a log record's or a metrics export's first field. */
export function isSdkObjectsHead(head: string): boolean {
  return /^\{\s*"(?:_spanContext|_?hrTime)"\s*:/.test(head) || /^\{\s*"resource"\s*:\s*\{\s*"_rawAttributes"\s*:/.test(head);
}

/** One top-level JSON value of a file: where it starts and ends in the text, and the line it starts on. */
export interface JsonValueSpan {
  start: number;
  end: number;
  line: number;
}

/** Where a file's top-level values are, and where the text stops being values (with why), if it does. */
export interface SplitValues {
  values: JsonValueSpan[];
  /** The line of what could not be split: text between values that is not an object, or an object the file ends inside. */
  stop?: { line: number; reason: string };
}

/** The reasons {@link splitJsonObjects} and {@link sdkObjectLine} give, never quoting the file. */
export const SDK_OBJECT_PROBLEMS = {
  notAnObject: 'not a JSON object where the next span, log record or metrics object of the file should open',
  endsInside: 'the file ends inside this object (cut off while it was written)',
  notJson: 'not valid JSON (a truncated or corrupt object)',
  unknown: 'a JSON object that is neither a span, a log record nor a metrics export of the OpenTelemetry SDK',
} as const;

/**
 * The top-level JSON objects of `text`, one after another (any whitespace between them, indented
 * or one a line), found by their braces outside strings: nothing is parsed here. An object nested
 * deeper than {@link MAX_JSON_NESTING} levels is a value of its own whose `line` is in `tooDeep`.
 */
export function splitJsonObjects(text: string): SplitValues & { tooDeep: number[] } {
  const values: JsonValueSpan[] = [];
  const tooDeep: number[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  for (;;) {
    // Whitespace between values.
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) line++;
      else if (c !== 32 && c !== 9 && c !== 13) break;
    }
    if (i >= n) return { values, tooDeep };
    if (text.charCodeAt(i) !== 123 /* { */) return { values, tooDeep, stop: { line, reason: SDK_OBJECT_PROBLEMS.notAnObject } };
    const start = i;
    const startLine = line;
    let depth = 0;
    let deepest = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34 /* " */) {
        const end = jsonStringEnd(text, i);
        if (end < 0) {
          i = n;
          break;
        }
        // (a line break inside a string is not JSON, but it is a line of the file)
        for (let k = i + 1; k < end; k++) if (text.charCodeAt(k) === 10) line++;
        i = end;
      } else if (c === 123 || c === 91) {
        if (++depth > deepest) deepest = depth;
      } else if (c === 125 || c === 93) {
        if (--depth === 0) break;
      } else if (c === 10) line++;
    }
    if (i >= n) return { values, tooDeep, stop: { line: startLine, reason: SDK_OBJECT_PROBLEMS.endsInside } };
    i++;
    values.push({ start, end: i, line: startLine });
    if (deepest > MAX_JSON_NESTING) tooDeep.push(startLine);
  }
}

/** What one SDK object becomes: an OTLP JSON line of a span or a log record, nothing (metrics), or a problem. */
export type SdkObjectLine = { kind: 'span' | 'log'; line: string } | { kind: 'metrics' } | { kind: 'problem'; reason: string };

/** One object's OTLP JSON line (see the module comment). */
export function sdkObjectLine(text: string): SdkObjectLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'problem', reason: SDK_OBJECT_PROBLEMS.notJson };
  }
  if (!isObject(value)) return { kind: 'problem', reason: SDK_OBJECT_PROBLEMS.unknown };
  // (a log record first: newer ones keep their span's context as `_spanContext`, as a span does)
  if (Array.isArray(value.hrTime ?? value._hrTime)) return { kind: 'log', line: JSON.stringify({ resourceLogs: [{ resource: resourceOf(value), scopeLogs: [{ scope: scopeOf(value), logRecords: [logRecordOf(value)] }] }] }) };
  if (isObject(value._spanContext)) return { kind: 'span', line: JSON.stringify({ resourceSpans: [{ resource: resourceOf(value), scopeSpans: [{ scope: scopeOf(value), spans: [spanOf(value)] }] }] }) };
  if (Array.isArray(value.scopeMetrics)) return { kind: 'metrics' };
  return { kind: 'problem', reason: SDK_OBJECT_PROBLEMS.unknown };
}

/** An SDK `Span` as an OTLP JSON span (its kind numbered as OTLP numbers it: the SDK's plus one). */
function spanOf(s: Record<string, unknown>): Record<string, unknown> {
  const context = s._spanContext as Record<string, unknown>;
  // (SDK 2.x names the parent by its context; 1.x by its id)
  const parent = isObject(s.parentSpanContext) ? s.parentSpanContext.spanId : s.parentSpanId;
  const status = isObject(s.status) ? s.status : {};
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    ...(typeof parent === 'string' && parent !== '' ? { parentSpanId: parent } : {}),
    name: s.name,
    kind: typeof s.kind === 'number' ? s.kind + 1 : 0,
    startTimeUnixNano: nanos(s.startTime),
    endTimeUnixNano: nanos(s.endTime),
    attributes: keyValues(s.attributes),
    events: (Array.isArray(s.events) ? s.events : []).filter(isObject).map((e) => ({ timeUnixNano: nanos(e.time), name: e.name, attributes: keyValues(e.attributes) })),
    links: (Array.isArray(s.links) ? s.links : []).filter(isObject).map((l) => ({ ...(isObject(l.context) ? { traceId: l.context.traceId, spanId: l.context.spanId } : {}), attributes: keyValues(l.attributes) })),
    status: { code: typeof status.code === 'number' ? status.code : 0, ...(typeof status.message === 'string' ? { message: status.message } : {}) },
  };
}

/** An SDK `LogRecord` (its fields private, `_body`, or public) as an OTLP JSON log record. */
function logRecordOf(r: Record<string, unknown>): Record<string, unknown> {
  const field = (name: string) => r[`_${name}`] ?? r[name];
  const spanContext = field('spanContext');
  const context = isObject(spanContext) ? spanContext : {};
  const body = anyValue(field('body'));
  const severityNumber = field('severityNumber');
  const severityText = field('severityText');
  const eventName = field('eventName');
  return {
    timeUnixNano: nanos(field('hrTime')),
    observedTimeUnixNano: nanos(field('hrTimeObserved') ?? field('hrTime')),
    ...(typeof severityNumber === 'number' ? { severityNumber } : {}),
    ...(typeof severityText === 'string' ? { severityText } : {}),
    ...(typeof eventName === 'string' ? { eventName } : {}),
    ...(body !== undefined ? { body } : {}),
    attributes: keyValues(r.attributes),
    ...(typeof context.traceId === 'string' ? { traceId: context.traceId } : {}),
    ...(typeof context.spanId === 'string' ? { spanId: context.spanId } : {}),
  };
}

/** A resource's attributes: SDK 2.x keeps them as `[key, value]` pairs (`_rawAttributes`, a value still pending written as `{}`), 1.x as an object. */
function resourceOf(o: Record<string, unknown>): { attributes: { key: string; value: unknown }[] } {
  const r = isObject(o.resource) ? o.resource : {};
  if (Array.isArray(r._rawAttributes)) {
    const pairs = r._rawAttributes.filter((p): p is [string, unknown] => Array.isArray(p) && typeof p[0] === 'string' && !isObject(p[1]));
    return { attributes: keyValues(Object.fromEntries(pairs)) };
  }
  return { attributes: keyValues(r.attributes ?? r._attributes ?? r._syncAttributes) };
}

/** The instrumentation scope (`instrumentationLibrary` before SDK 1.10). */
function scopeOf(o: Record<string, unknown>): Record<string, unknown> {
  const s = isObject(o.instrumentationScope) ? o.instrumentationScope : isObject(o.instrumentationLibrary) ? o.instrumentationLibrary : {};
  return { ...(typeof s.name === 'string' ? { name: s.name } : {}), ...(typeof s.version === 'string' ? { version: s.version } : {}) };
}

/** `[seconds, nanoseconds]` (the SDK's `HrTime`) as OTLP's decimal nanoseconds; absent or of another shape, nothing. */
function nanos(t: unknown): string | undefined {
  if (!Array.isArray(t) || t.length !== 2 || !Number.isSafeInteger(t[0]) || !Number.isSafeInteger(t[1])) return undefined;
  return String(BigInt(t[0] as number) * 1_000_000_000n + BigInt(t[1] as number));
}

/** An attributes object as OTLP key-value pairs (a null value, which the SDK never keeps, left out). */
function keyValues(attrs: unknown): { key: string; value: unknown }[] {
  if (!isObject(attrs)) return [];
  const out: { key: string; value: unknown }[] = [];
  for (const [key, v] of Object.entries(attrs)) {
    const value = anyValue(v);
    if (value !== undefined) out.push({ key, value });
  }
  return out;
}

/** A JSON value as OTLP's `AnyValue` (a whole number as `intValue`, as the SDK's exporters write one); null as nothing. */
function anyValue(v: unknown): Record<string, unknown> | undefined {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => anyValue(x) ?? {}) } };
  if (isObject(v)) return { kvlistValue: { values: keyValues(v) } };
  return undefined;
}
