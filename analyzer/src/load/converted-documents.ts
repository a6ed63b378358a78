import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { GenAiAttributes, OPERATION_EXECUTE_TOOL } from '@argspan/conventions';
import { LangfuseAttributes } from '../foreign/recognizers/langfuse.js';
import { LANGSMITH_THREAD_KEYS, LangSmithAttributes } from '../foreign/recognizers/langsmith.js';
import { SESSION_ID } from '../foreign/run-ids.js';
import type { Compression } from './detect-format.js';
import { InputError } from './input-error.js';
import { decompressZstd } from './zstd.js';

/**
 * Largest document converted in memory to OTLP JSON before it is read: a snake_case OTLP document
 * or an API answer. Phoenix's downloads and both APIs' pages hold a selection of spans.
 */
export const MAX_CONVERTED_BYTES = 512 * 1024 * 1024;

/** The documents read by converting them to an OTLP JSON document (camelCase) first. */
export type ConvertedFormat = 'otlp-document-snake-case' | 'phoenix-otlp-spans' | 'langfuse-observations' | 'langsmith-runs';

const WHAT: Record<ConvertedFormat, string> = {
  'otlp-document-snake-case': 'snake_case OTLP document',
  'phoenix-otlp-spans': 'Phoenix spans answer',
  'langfuse-observations': 'Langfuse observations answer',
  'langsmith-runs': 'LangSmith runs answer',
};

/**
 * Read `file` (decompressed, parsed), convert it to an OTLP JSON document and write that to
 * `target`; returns the text written. A snake_case file that is not one document but JSON lines
 * (its first line a document of its own) is written as camelCase JSON lines instead: `'lines'`.
 */
export async function writeConvertedDocument(file: string, format: ConvertedFormat, compression: Compression, target: string): Promise<{ text: string } | 'lines'> {
  const bytes = await readConverted(file, WHAT[format], compression);
  // JSON.parse refuses a byte order mark; Windows tools write one.
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const firstLineEnd = text.indexOf('\n');
    if (format === 'otlp-document-snake-case' && firstLineEnd > 0 && isJsonObject(text.slice(0, firstLineEnd))) {
      writeCamelCaseLines(bytes, target, new Set());
      return 'lines';
    }
    throw new InputError([{ file, line: 1, reason: 'not valid JSON (a truncated or corrupt document)' }]);
  }
  const converted = JSON.stringify(otlpDocumentOf(format, doc, file));
  writeFileSync(target, converted);
  return { text: converted };
}

/** The bytes of `file` (`what`, for the message), decompressed, up to {@link MAX_CONVERTED_BYTES} as stored. */
export async function readConverted(file: string, what: string, compression: Compression): Promise<Buffer> {
  const raw = readFileSync(file);
  if (raw.length > MAX_CONVERTED_BYTES) throw new InputError([{ file, reason: `${what} larger than ${MAX_CONVERTED_BYTES} bytes` }]);
  try {
    return compression === 'gzip' ? gunzipSync(raw) : compression === 'zstd' ? await decompressZstd(raw, 4 * MAX_CONVERTED_BYTES) : raw;
  } catch {
    throw new InputError([{ file, reason: `${compression} data is corrupt or too large` }]);
  }
}

function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * OTLP JSON lines with the protobuf field names (`{"resource_spans":…}` per line, as protobuf's
 * JSON printer writes them with `preserving_proto_field_name`) as camelCase JSON lines in
 * `target`, line for line, so line numbers hold. A line that does not parse, or that `asIs`
 * names (the byte scan found it too deep or not UTF-8), is copied unchanged, for the
 * line-by-line reader to name.
 */
export function writeCamelCaseLines(bytes: Buffer, target: string, asIs: ReadonlySet<number>): void {
  const fd = openSync(target, 'w');
  try {
    const out: Buffer[] = [];
    let pending = 0;
    let line = 0;
    for (let start = 0; start < bytes.length; ) {
      line += 1;
      const nl = bytes.indexOf(0x0a, start);
      const end = nl < 0 ? bytes.length : nl;
      const raw = bytes.subarray(start, end > start && bytes[end - 1] === 0x0d ? end - 1 : end);
      start = end + 1;
      let converted: string | undefined;
      if (!asIs.has(line)) {
        try {
          converted = JSON.stringify(camelKeys(JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''))));
        } catch {
          converted = undefined;
        }
      }
      const piece = converted === undefined ? raw : Buffer.from(converted);
      out.push(piece, NEWLINE);
      pending += piece.length + 1;
      if (pending >= WRITE_BATCH) {
        writeSync(fd, Buffer.concat(out));
        out.length = 0;
        pending = 0;
      }
    }
    writeSync(fd, Buffer.concat(out));
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = Buffer.from('\n');
const WRITE_BATCH = 1 << 20;

/** `doc` (a parsed file of `format`) as an OTLP JSON document; throws {@link InputError} naming `file` when it is not of that shape. */
export function otlpDocumentOf(format: ConvertedFormat, doc: unknown, file: string): unknown {
  switch (format) {
    case 'otlp-document-snake-case':
      // Arize Phoenix's "Download → OTLP JSON": the protobuf field names (`resource_spans`, `string_value`).
      return camelKeys(doc);
    case 'phoenix-otlp-spans':
      // Phoenix's REST answer to `GET /v1/projects/{project}/spans/otlpv1`: `{"data": [spans], "next_cursor": …}`,
      // each span OTLP JSON with the protobuf field names, no resource or scope.
      return spansDocument(camelKeys(dataOf(doc, file, 'Phoenix spans answer')) as unknown[]);
    case 'langfuse-observations':
      return langfuseObservationsDocument(dataOf(doc, file, 'Langfuse public API answer'), file);
    case 'langsmith-runs':
      return langSmithRunsDocument(runsOf(doc, file), file);
  }
}

/** The `data` list of span-like objects of an API answer. */
function dataOf(doc: unknown, file: string, what: string): Record<string, unknown>[] {
  const data = doc !== null && typeof doc === 'object' ? (doc as { data?: unknown }).data : undefined;
  if (!Array.isArray(data) || data.some((s) => s === null || typeof s !== 'object' || Array.isArray(s))) {
    throw new InputError([{ file, line: 1, reason: `JSON of another shape: the "data" of a ${what} must be a list of objects` }]);
  }
  return data as Record<string, unknown>[];
}

/** Spans without resource or scope as an OTLP JSON document. */
function spansDocument(spans: unknown[], scope?: string): unknown {
  return { resourceSpans: [{ scopeSpans: [{ ...(scope ? { scope: { name: scope } } : {}), spans }] }] };
}

const SNAKE = /_([a-z0-9])/g;

/** Protobuf field names (`resource_spans`, `string_value`) to the OTLP/JSON mapping's camelCase; object keys only, never values. */
export function camelKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k.replace(SNAKE, (_m, c: string) => c.toUpperCase())] = camelKeys(x);
  return out;
}

/** The scope the Langfuse SDK's tracer writes its spans under. */
const LANGFUSE_SCOPE = 'langfuse-sdk';

/**
 * Langfuse's public API answer of observations — `GET /api/public/observations` (v1: input and
 * output as JSON) or `/api/public/v2/observations?fields=core,basic,io` (v2: as raw strings) —
 * as the spans the Langfuse SDK emits for them: the observation's name, times and parent, its
 * type lower-cased in `langfuse.observation.type`, its input and output as text in
 * `langfuse.observation.input` / `.output`, its session in `session.id`, and an ERROR level as
 * an error status. Ids that are not OpenTelemetry's hex (UUIDs of older SDKs) are hashed into it.
 * Other answers of that API (traces, sessions, scores) are refused, saying what to fetch.
 */
function langfuseObservationsDocument(data: readonly Record<string, unknown>[], file: string): unknown {
  const spans = data.map((o, i) => {
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
    const attributes = textAttributes([
      [LangfuseAttributes.OBSERVATION_TYPE, o.type.toLowerCase()],
      [LangfuseAttributes.INPUT, o.input],
      [LangfuseAttributes.OUTPUT, o.output],
      [SESSION_ID, o.sessionId],
    ]);
    return {
      traceId: hexId(o.traceId, 32),
      spanId: hexId(o.id, 16),
      ...(typeof o.parentObservationId === 'string' && o.parentObservationId !== '' ? { parentSpanId: hexId(o.parentObservationId, 16) } : {}),
      name: typeof o.name === 'string' && o.name !== '' ? o.name : o.type.toLowerCase(),
      startTimeUnixNano: start,
      endTimeUnixNano: end,
      attributes,
      status: o.level === 'ERROR' ? { code: 2 } : {},
    };
  });
  return spansDocument(spans, LANGFUSE_SCOPE);
}

/** The scope LangSmith's OpenTelemetry exporter writes its spans under. */
const LANGSMITH_SCOPE = 'langsmith';

/** The runs of a LangSmith answer: `POST /api/v1/runs/query`'s `{"runs": […]}`, or a list of runs (the SDK's `list_runs`, dumped). */
function runsOf(doc: unknown, file: string): Record<string, unknown>[] {
  const runs = Array.isArray(doc) ? doc : doc !== null && typeof doc === 'object' ? (doc as { runs?: unknown }).runs : undefined;
  if (!Array.isArray(runs) || runs.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) {
    throw new InputError([{ file, line: 1, reason: 'JSON of another shape: the "runs" of a LangSmith runs answer must be a list of objects' }]);
  }
  return runs as Record<string, unknown>[];
}

/**
 * LangSmith runs (the `Run` of its SDK's `schemas.py`) as the spans its OpenTelemetry exporter
 * writes for them: trace id the trace's UUID, span id the run UUID's first 8 bytes (as the
 * exporter's `_otel_utils.py` maps them), `langsmith.span.kind` the run type, `gen_ai.prompt` and
 * `gen_ai.completion` the inputs and outputs as JSON, `langsmith.trace.session_id` the project,
 * the thread keys of the run's metadata as `langsmith.metadata.*`, the status OK, or ERROR for a run with an error.
 */
function langSmithRunsDocument(runs: readonly Record<string, unknown>[], file: string): unknown {
  const spans = runs.map((r, i) => {
    if (typeof r.id !== 'string' || typeof r.trace_id !== 'string' || typeof r.name !== 'string' || typeof r.run_type !== 'string' || typeof r.start_time !== 'string') {
      throw new InputError([{ file, line: 1, reason: `a LangSmith runs answer whose run ${i + 1} has no string "id", "trace_id", "name", "run_type" and "start_time": not supported` }]);
    }
    const start = isoNanos(r.start_time);
    const end = typeof r.end_time === 'string' ? isoNanos(r.end_time) : start;
    if (start === undefined || end === undefined) throw new InputError([{ file, line: 1, reason: `LangSmith run ${i + 1}: "start_time" or "end_time" is not an ISO 8601 time` }]);
    const metadata = (r.extra as { metadata?: Record<string, unknown> } | null | undefined)?.metadata;
    const attributes = textAttributes([
      [LangSmithAttributes.SPAN_KIND, r.run_type],
      [GenAiAttributes.OPERATION_NAME, r.run_type === 'tool' ? OPERATION_EXECUTE_TOOL : r.run_type],
      [LangSmithAttributes.PROJECT, r.session_id],
      ...LANGSMITH_THREAD_KEYS.map((key): [string, unknown] => [`${LangSmithAttributes.METADATA}.${key}`, typeof metadata?.[key] === 'string' ? metadata[key] : undefined]),
      [LangSmithAttributes.PROMPT, r.inputs !== null && typeof r.inputs === 'object' && Object.keys(r.inputs).length > 0 ? r.inputs : undefined],
      [LangSmithAttributes.COMPLETION, r.outputs],
    ]);
    return {
      traceId: hexId(r.trace_id, 32),
      spanId: runSpanId(r.id),
      ...(typeof r.parent_run_id === 'string' ? { parentSpanId: runSpanId(r.parent_run_id) } : {}),
      name: r.name,
      startTimeUnixNano: start,
      endTimeUnixNano: end,
      attributes,
      // The exporter ends each span OK, or ERROR when the run failed.
      status: { code: typeof r.error === 'string' && r.error !== '' ? 2 : 1 },
    };
  });
  return spansDocument(spans, LANGSMITH_SCOPE);
}

/** A run's span id as LangSmith's exporter makes it: the UUID's first 8 bytes (another id: hashed). */
function runSpanId(id: string): string {
  const bare = id.toLowerCase().replace(/-/g, '');
  return /^[0-9a-f]{32}$/.test(bare) ? bare.slice(0, 16) : hexId(id, 16);
}

/** OTLP string attributes of the pairs whose value is set: text as it is, anything else as its JSON. */
function textAttributes(pairs: readonly [string, unknown][]): { key: string; value: { stringValue: string } }[] {
  return pairs.filter(([, v]) => v !== null && v !== undefined).map(([key, v]) => ({ key, value: { stringValue: typeof v === 'string' ? v : JSON.stringify(v) } }));
}

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
