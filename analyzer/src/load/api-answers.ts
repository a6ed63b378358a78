import { createHash } from 'node:crypto';
import { GenAiAttributes, OPERATION_EXECUTE_TOOL } from '@argspan/conventions';
import { LangfuseAttributes } from '../foreign/recognizers/langfuse.js';
import { LangSmithAttributes } from '../foreign/recognizers/langsmith.js';
import { SESSION_ID } from '../foreign/run-ids.js';
import { InputError } from './input-error.js';

/**
 * Langfuse's and LangSmith's API answers as the OTLP spans their SDKs' OpenTelemetry exports
 * write for the same observations and runs. The credential re-scan reads spans only, so every
 * field of an answer's item is carried: as the attribute (or event) the SDK writes for it, or, for
 * a field the SDK has no attribute for, as an attribute of its own ({@link LANGFUSE_API_FIELD},
 * {@link LANGSMITH_API_FIELD}) — a credential anywhere in an answer is found as in the SDK's export.
 */

/** An OTLP/JSON attribute value, as the analyzer's reader takes it. */
export type OtlpValue = { stringValue: string } | { boolValue: boolean } | { intValue: string } | { doubleValue: number } | { arrayValue: { values: OtlpValue[] } };
export type OtlpAttribute = { key: string; value: OtlpValue };
export type OtlpEvent = { timeUnixNano: string; name: string; attributes: OtlpAttribute[] };
export type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  events?: OtlpEvent[];
  status: { code?: number };
};

/** An item of an answer: an observation, a run, a run's event. */
type Item = Record<string, unknown>;

/** How a field's value becomes an attribute value. */
type Writer = (v: unknown) => OtlpValue;

/** Text as it is, anything else as its JSON: how both SDKs write inputs and outputs (Langfuse's `_serialize`). */
const asText: Writer = (v) => ({ stringValue: typeof v === 'string' ? v : JSON.stringify(v) });

/** A string, boolean or number as its own OTLP type, a list of strings as a string array, anything else as its JSON text. */
const asValue: Writer = (v) => {
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) return { arrayValue: { values: v.map((x: string) => ({ stringValue: x })) } };
  return asText(v);
};

/** Whether a value holds nothing to carry: absent, null, `""`, `{}` or `[]`. */
function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/** Whether a value is absent or null. */
const isAbsent = (v: unknown): boolean => v === null || v === undefined;

/** The attribute `key` of `v`, none for a value `skip` calls empty. */
function attribute(key: string, v: unknown, write: Writer = asValue, skip: (v: unknown) => boolean = isEmpty): OtlpAttribute[] {
  return skip(v) ? [] : [{ key, value: write(v) }];
}

/** Each field of `item` not named in `carried`, under `prefix` + its name: the fields no SDK attribute holds. */
function otherFields(item: Item, carried: ReadonlySet<string>, prefix: string): OtlpAttribute[] {
  return Object.entries(item).flatMap(([field, v]) => (carried.has(field) ? [] : attribute(`${prefix}${field}`, v)));
}

const isMap = (v: unknown): v is Item => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Each key of `map` as an attribute under `prefix.` (an SDK's metadata); a value that is not a map, as `prefix` itself. */
function mapAttributes(prefix: string, map: unknown): OtlpAttribute[] {
  if (!isMap(map)) return attribute(prefix, map);
  return Object.entries(map).flatMap(([key, v]) => attribute(`${prefix}.${key}`, v));
}

/** Spans without resource or scope as an OTLP JSON document. */
export function spansDocument(spans: unknown[], scope?: string): unknown {
  return { resourceSpans: [{ scopeSpans: [{ ...(scope ? { scope: { name: scope } } : {}), spans }] }] };
}

// ---------------------------------------------------------------------------------------------
// Langfuse

/** The scope the Langfuse SDK's tracer writes its spans under. */
const LANGFUSE_SCOPE = 'langfuse-sdk';

/** Prefix of a Langfuse observation's field the SDK writes no attribute for (`promptId`, `usage`, `latency`, …). */
export const LANGFUSE_API_FIELD = 'langfuse.api.';

/**
 * The fields of a Langfuse observation the Langfuse SDK writes an attribute for, and how
 * (langfuse-python's `_client/attributes.py`, `LangfuseOtelSpanAttributes`; trace-level fields,
 * which v2 answers repeat on each observation, as `propagate_attributes` writes them on each span).
 */
const LANGFUSE_FIELDS: readonly (readonly [field: string, key: string, write?: Writer, skip?: (v: unknown) => boolean])[] = [
  // An empty input (`{}`, `""`) is still the call's arguments: kept.
  ['input', LangfuseAttributes.INPUT, asText, isAbsent],
  ['output', LangfuseAttributes.OUTPUT, asText, isAbsent],
  ['level', 'langfuse.observation.level'],
  ['statusMessage', 'langfuse.observation.status_message'],
  ['model', 'langfuse.observation.model.name'],
  ['modelParameters', 'langfuse.observation.model.parameters', asText],
  ['usageDetails', 'langfuse.observation.usage_details', asText],
  ['costDetails', 'langfuse.observation.cost_details', asText],
  ['completionStartTime', 'langfuse.observation.completion_start_time'],
  ['promptName', 'langfuse.observation.prompt.name'],
  ['promptVersion', 'langfuse.observation.prompt.version'],
  ['version', 'langfuse.version'],
  ['environment', 'langfuse.environment'],
  ['release', 'langfuse.release'],
  ['sessionId', SESSION_ID],
  ['userId', 'user.id'],
  ['traceName', 'langfuse.trace.name'],
  ['tags', 'langfuse.trace.tags'],
];

/** The observation types of Langfuse's API (upper-case); the SDK writes them lower-cased. */
const LANGFUSE_TYPES = new Set(['SPAN', 'GENERATION', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL']);

/**
 * Langfuse's public API answer of observations — `GET /api/public/observations` (v1: input and
 * output as JSON) or `/api/public/v2/observations?fields=…` (v2: as raw strings) — as the spans the
 * Langfuse SDK emits for them: the observation's name, times and parent, its type lower-cased in
 * `langfuse.observation.type`, the fields of {@link LANGFUSE_FIELDS} in the SDK's attributes, its
 * metadata as `langfuse.observation.metadata.<key>`, and an ERROR level as an error status. Ids
 * that are not OpenTelemetry's hex (UUIDs of older SDKs) are hashed into it. Every other field
 * (and an id hashed, a type or time that is not one) is carried under {@link LANGFUSE_API_FIELD}.
 * Other answers of that API (traces, sessions, scores) are refused, saying what to fetch.
 */
export function langfuseObservationsDocument(data: readonly Item[], file: string): unknown {
  return spansDocument(
    data.map((o, i) => langfuseSpan(o, i, file)),
    LANGFUSE_SCOPE,
  );
}

function langfuseSpan(o: Item, i: number, file: string): OtlpSpan {
  if (typeof o.id !== 'string' || typeof o.traceId !== 'string' || typeof o.type !== 'string' || typeof o.startTime !== 'string') {
    throw new InputError([
      {
        file,
        line: 1,
        reason: `a Langfuse public API answer other than observations (item ${i + 1} has no string "id", "traceId", "type" and "startTime"): not supported; fetch GET /api/public/observations (or /api/public/v2/observations?fields=core,basic,io), which argspan reads`,
      },
    ]);
  }
  const start = isoNanos(o.startTime);
  const end = typeof o.endTime === 'string' ? isoNanos(o.endTime) : start;
  if (start === undefined || end === undefined) throw new InputError([{ file, line: 1, reason: `Langfuse observation ${i + 1}: "startTime" or "endTime" is not an ISO 8601 time` }]);
  const parent = typeof o.parentObservationId === 'string' && o.parentObservationId !== '' ? o.parentObservationId : undefined;
  const type = o.type.toLowerCase();
  const name = typeof o.name === 'string' && o.name !== '' ? o.name : undefined;
  // The fields the span holds as they were: its structure, the SDK's attributes, the metadata.
  const carried = new Set<string>(['startTime', 'metadata', ...LANGFUSE_FIELDS.map(([field]) => field)]);
  // An id of hex digits and dashes (OpenTelemetry's, a UUID) holds no credential, hashed or not; another is carried too.
  if (isHexId(o.id)) carried.add('id');
  if (isHexId(o.traceId)) carried.add('traceId');
  if (parent === undefined || isHexId(parent)) carried.add('parentObservationId');
  if (LANGFUSE_TYPES.has(o.type)) carried.add('type');
  if (typeof o.endTime === 'string') carried.add('endTime');
  if (name !== undefined) carried.add('name');
  return {
    traceId: hexId(o.traceId, 32),
    spanId: hexId(o.id, 16),
    ...(parent !== undefined ? { parentSpanId: hexId(parent, 16) } : {}),
    name: name ?? type,
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: [
      ...attribute(LangfuseAttributes.OBSERVATION_TYPE, type),
      ...LANGFUSE_FIELDS.flatMap(([field, key, write, skip]) => attribute(key, o[field], write, skip)),
      // The SDK's `_flatten_and_serialize_metadata`: a key per attribute, a value that is not a map as the prefix.
      ...mapAttributes('langfuse.observation.metadata', o.metadata),
      ...otherFields(o, carried, LANGFUSE_API_FIELD),
    ],
    status: o.level === 'ERROR' ? { code: 2 } : {},
  };
}

// ---------------------------------------------------------------------------------------------
// LangSmith

/** The scope LangSmith's OpenTelemetry exporter writes its spans under. */
const LANGSMITH_SCOPE = 'langsmith';

/** Prefix of a LangSmith run's field the exporter writes no attribute for (`feedback_stats`, `attachments`, `extra.runtime`, …). */
export const LANGSMITH_API_FIELD = 'langsmith.api.';

/** The attributes LangSmith's OpenTelemetry exporter (`_internal/otel/_otel_exporter.py`) writes that argspan's recognisers do not read. */
const LangSmithExport = {
  RUN_ID: 'langsmith.span.id',
  TRACE_ID: 'langsmith.trace.id',
  PARENT_RUN_ID: 'langsmith.span.parent_id',
  DOTTED_ORDER: 'langsmith.span.dotted_order',
  NAME: 'langsmith.trace.name',
  SESSION_NAME: 'langsmith.trace.session_name',
  TAGS: 'langsmith.span.tags',
  INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  TOTAL_TOKENS: 'gen_ai.usage.total_tokens',
  /** The serialized object's `name`, `signature` and `doc`: `gen_ai.serialized.*`. */
  SERIALIZED: 'gen_ai.serialized',
} as const;

/** A run's token counts and the attribute the exporter writes each in (as an integer). */
const LANGSMITH_TOKENS: readonly (readonly [field: string, key: string])[] = [
  ['prompt_tokens', LangSmithExport.INPUT_TOKENS],
  ['completion_tokens', LangSmithExport.OUTPUT_TOKENS],
  ['total_tokens', LangSmithExport.TOTAL_TOKENS],
];

/** The fields of a run's `serialized` the exporter writes, as `gen_ai.serialized.<field>`. */
const SERIALIZED_FIELDS = ['name', 'signature', 'doc'];

/**
 * LangSmith runs (the `Run` of its SDK's `schemas.py`) as the spans its OpenTelemetry exporter
 * writes for them: trace id the trace's UUID, span id the run UUID's first 8 bytes (as the
 * exporter's `_otel_utils.py` maps them), the run's ids, name, project and tags in its
 * `langsmith.*` attributes, `langsmith.span.kind` the run type, `gen_ai.prompt` and
 * `gen_ai.completion` the inputs and outputs as JSON, each key of the run's metadata as
 * `langsmith.metadata.<key>`, the token counts, the serialized object's name, signature and doc,
 * the status OK, or ERROR for a run with an error, recorded as an `exception` event
 * (`exception.message`) as the exporter's `record_exception` does. The run's events (which the
 * exporter drops) become span events, and every other field (`extra` besides its metadata,
 * `feedback_stats`, `attachments`, …) is carried under {@link LANGSMITH_API_FIELD}.
 */
export function langSmithRunsDocument(runs: readonly Item[], file: string): unknown {
  return spansDocument(
    runs.map((r, i) => langSmithSpan(r, i, file)),
    LANGSMITH_SCOPE,
  );
}

function langSmithSpan(r: Item, i: number, file: string): OtlpSpan {
  if (typeof r.id !== 'string' || typeof r.trace_id !== 'string' || typeof r.name !== 'string' || typeof r.run_type !== 'string' || typeof r.start_time !== 'string') {
    throw new InputError([{ file, line: 1, reason: `a LangSmith runs answer whose run ${i + 1} has no string "id", "trace_id", "name", "run_type" and "start_time": not supported` }]);
  }
  const start = isoNanos(r.start_time);
  const end = typeof r.end_time === 'string' ? isoNanos(r.end_time) : start;
  if (start === undefined || end === undefined) throw new InputError([{ file, line: 1, reason: `LangSmith run ${i + 1}: "start_time" or "end_time" is not an ISO 8601 time` }]);
  const parent = typeof r.parent_run_id === 'string' ? r.parent_run_id : undefined;
  const carried = new Set(['id', 'trace_id', 'name', 'run_type', 'start_time', 'session_id', 'session_name', 'dotted_order', 'inputs', 'outputs', 'error', 'extra', 'tags', 'serialized']);
  if (parent !== undefined) carried.add('parent_run_id');
  if (Array.isArray(r.events)) carried.add('events');
  if (typeof r.end_time === 'string') carried.add('end_time');
  const tokens = LANGSMITH_TOKENS.filter(([field]) => Number.isSafeInteger(r[field]));
  for (const [field] of tokens) carried.add(field);
  const failed = !isEmpty(r.error);
  const events = [...(failed ? [exceptionEvent(r.error, end)] : []), ...runEvents(r.events, start)];
  return {
    traceId: hexId(r.trace_id, 32),
    spanId: runSpanId(r.id),
    ...(parent !== undefined ? { parentSpanId: runSpanId(parent) } : {}),
    name: r.name,
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: [
      ...attribute(LangSmithExport.RUN_ID, r.id),
      ...attribute(LangSmithExport.TRACE_ID, r.trace_id),
      ...attribute(LangSmithExport.DOTTED_ORDER, r.dotted_order),
      ...attribute(LangSmithExport.PARENT_RUN_ID, parent),
      ...attribute(LangSmithAttributes.SPAN_KIND, r.run_type),
      ...attribute(LangSmithExport.NAME, r.name),
      ...attribute(GenAiAttributes.OPERATION_NAME, r.run_type === 'tool' ? OPERATION_EXECUTE_TOOL : r.run_type),
      ...attribute(LangSmithAttributes.PROJECT, r.session_id),
      ...attribute(LangSmithExport.SESSION_NAME, r.session_name),
      ...tokens.flatMap(([field, key]) => attribute(key, r[field])),
      ...extraAttributes(r.extra),
      // The exporter joins a list of tags with ", ".
      ...attribute(LangSmithExport.TAGS, Array.isArray(r.tags) && r.tags.every((t) => typeof t === 'string') ? r.tags.join(', ') : r.tags),
      ...serializedAttributes(r.serialized),
      ...attribute(LangSmithAttributes.PROMPT, r.inputs, asText),
      ...attribute(LangSmithAttributes.COMPLETION, r.outputs, asText, isAbsent),
      ...otherFields(r, carried, LANGSMITH_API_FIELD),
    ],
    ...(events.length > 0 ? { events } : {}),
    // The exporter ends each span OK, or ERROR when the run failed.
    status: { code: failed ? 2 : 1 },
  };
}

/** A run's `extra`: its metadata as the exporter writes it (`langsmith.metadata.<key>`), its other keys (`runtime`, …) under `langsmith.api.extra.`. */
function extraAttributes(extra: unknown): OtlpAttribute[] {
  if (!isMap(extra)) return attribute(`${LANGSMITH_API_FIELD}extra`, extra);
  return [...mapAttributes(LangSmithAttributes.METADATA, extra.metadata), ...otherFields(extra, new Set(['metadata']), `${LANGSMITH_API_FIELD}extra.`)];
}

/** A run's `serialized`: the `name`, `signature` and `doc` the exporter writes as `gen_ai.serialized.*`, the rest (LangChain's `kwargs`, …) under `langsmith.api.serialized.`. */
function serializedAttributes(serialized: unknown): OtlpAttribute[] {
  if (!isMap(serialized)) return attribute(`${LANGSMITH_API_FIELD}serialized`, serialized);
  return [
    ...SERIALIZED_FIELDS.flatMap((field) => attribute(`${LangSmithExport.SERIALIZED}.${field}`, serialized[field])),
    ...otherFields(serialized, new Set(SERIALIZED_FIELDS), `${LANGSMITH_API_FIELD}serialized.`),
  ];
}

/** The event the exporter's `span.record_exception(Exception(error))` adds for a failed run. */
function exceptionEvent(error: unknown, time: string): OtlpEvent {
  return {
    timeUnixNano: time,
    name: 'exception',
    attributes: [...attribute('exception.type', 'Exception'), ...attribute('exception.message', error, asText)],
  };
}

/**
 * A run's `events` (`{"name": "new_token", "time": …, "kwargs": {"token": …}}`), which the exporter
 * drops, as span events: at their time (else the run's start), named by their name, with each of
 * their fields but a time that was read as an attribute `langsmith.api.event.<field>` (the name too:
 * the credential re-scan reads attributes). A value that is not a list is one attribute of the span's.
 */
function runEvents(events: unknown, start: string): OtlpEvent[] {
  if (!Array.isArray(events)) return [];
  return events.map((e: unknown) => {
    const event: Item = isMap(e) ? e : { value: e };
    const time = typeof event.time === 'string' ? isoNanos(event.time) : undefined;
    return {
      timeUnixNano: time ?? start,
      name: typeof event.name === 'string' && event.name !== '' ? event.name : 'event',
      attributes: otherFields(event, new Set(time === undefined ? [] : ['time']), `${LANGSMITH_API_FIELD}event.`),
    };
  });
}

/** A run's span id as LangSmith's exporter makes it: the UUID's first 8 bytes (another id: hashed). */
function runSpanId(id: string): string {
  const bare = id.toLowerCase().replace(/-/g, '');
  return /^[0-9a-f]{32}$/.test(bare) ? bare.slice(0, 16) : hexId(id, 16);
}

/** Whether an id is hex digits and dashes only (OpenTelemetry's, a UUID): nothing a credential could hide in. */
const isHexId = (id: string): boolean => /^[0-9a-fA-F-]*$/.test(id);

/** An id as `digits` lower-case hex: as it is when it is that already, a UUID's hex when it has 32, else a hash of it. */
function hexId(id: string, digits: 16 | 32): string {
  const lower = id.toLowerCase();
  if (lower.length === digits && /^[0-9a-f]+$/.test(lower)) return lower;
  const bare = lower.replace(/-/g, '');
  if (digits === 32 && /^[0-9a-f]{32}$/.test(bare)) return bare;
  return createHash('sha256').update(id).digest('hex').slice(0, digits);
}

/**
 * Nanoseconds since the epoch of an ISO 8601 time (fractions to the nanosecond), as a decimal
 * string; undefined when it is not one. A time without a zone is UTC (LangSmith writes them so).
 */
export function isoNanos(iso: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/.exec(iso);
  if (!m) return undefined;
  const seconds = Date.parse(`${m[1]}${m[3] ?? 'Z'}`);
  if (Number.isNaN(seconds)) return undefined;
  return (BigInt(seconds) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'))).toString();
}
