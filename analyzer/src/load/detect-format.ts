import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { sqlString } from './duckdb-types.js';
import { DOCUMENT_NOT_JSON, InputError } from './input-error.js';
import { type JsonHeadOutline, outlineJsonHead } from './json-head-outline.js';
import { GENKIT_LOG_FIELDS, GENKIT_LOG_INDEX_FIELDS } from './genkit-logs.js';
import { isLogsLine } from './otlp-logs.js';
import { isSdkObjectsHead } from './sdk-objects.js';
import { readDecompressed } from './scan-trace-file.js';
import { SHAPE_PROBLEMS } from './schema.js';
import { ZIPKIN_SPAN_FIELDS } from './zipkin-spans.js';
import { ZstdDataError, ZstdStream } from './zstd.js';

/** What a trace file holds, as {@link detectFormat} sees it. */
export type InputFormat =
  | 'otlp-lines'
  | 'otlp-document'
  /** An OTLP document with protobuf (snake_case) field names: Arize Phoenix's "OTLP JSON" download. */
  | 'otlp-document-snake-case'
  /** OTLP JSON lines with protobuf (snake_case) field names: `{"resource_spans": …}` per line. */
  | 'otlp-lines-snake-case'
  /** Arize Phoenix's REST answer `GET …/spans/otlpv1`: `{"data": [OTLP spans, snake_case]}`. */
  | 'phoenix-otlp-spans'
  /** Langfuse's public API answer `GET /api/public/observations` (v1 or v2): `{"data": [observations], "meta": …}`. */
  | 'langfuse-observations'
  /** LangSmith runs: `POST /api/v1/runs/query`'s `{"runs": […]}`, or a JSON list of runs. */
  | 'langsmith-runs'
  /**
   * An OTLP logs export (`{"resourceLogs": …}`, a document or JSON lines; lines of traces beside
   * them when one exporter writes both signals to one file): its GenAI log records are read as
   * their spans' events.
   */
  | 'otlp-logs'
  | 'otlp-result'
  | 'jaeger-envelope'
  | 'jaeger-trace'
  | 'collector-framed'
  /** The OpenTelemetry JS SDK's span, log record and metrics objects as JSON, one after another: Gemini CLI's `telemetry.outfile`. */
  | 'sdk-objects'
  /** Grafana Tempo's trace answer: `{"batches": …}` (`/api/traces/<id>`, Grafana's trace export) or `{"trace": {"resourceSpans": …}}` (`/api/v2/traces/<id>`). */
  | 'tempo-trace'
  /** Zipkin's JSON v2: a list of spans (an exporter's body, `/api/v2/trace/{id}`), or a list of such lists (`/api/v2/traces`). */
  | 'zipkin-spans'
  /** A trace Genkit's telemetry server keeps for its Developer UI (`.genkit/traces/<trace id>`, `GET /api/traces/<trace id>`): `{"traceId", "spans": {…}}`. */
  | 'genkit-trace'
  /** The log records Genkit's telemetry server keeps (`.genkit/logs/logs-*.jsonl`): a `{"logId", "timestamp", …}` record a line, read as OTLP logs. */
  | 'genkit-logs';

export type Compression = 'none' | 'gzip' | 'zstd';

export interface DetectedInput {
  format: InputFormat;
  compression: Compression;
  /** The first line ends in CRLF: line numbers must count `\r\n` as one break. */
  crlf?: boolean;
  /** The text opens with a UTF-8 byte order mark, which DuckDB's JSON-lines reader refuses. */
  bom?: boolean;
}

const HEAD_BYTES = 65_536;
const GZIP = [0x1f, 0x8b];
const ZSTD = [0x28, 0xb5, 0x2f, 0xfd];

export function startsWith(buf: Uint8Array, magic: readonly number[], at = 0): boolean {
  return magic.every((b, i) => buf[at + i] === b);
}

/** Compression from magic bytes (never from the file name: rotated names lie). */
export function compressionOf(buf: Uint8Array, at = 0): Compression {
  if (startsWith(buf, GZIP, at)) return 'gzip';
  if (startsWith(buf, ZSTD, at)) return 'zstd';
  return 'none';
}

/**
 * Recognise a trace export from its first bytes: compression by magic number, the collector's
 * framed output by its 4-byte big-endian length prefix, and the JSON flavour by the first
 * record's top-level keys. Throws {@link InputError} for empty files and unknown shapes.
 */
export async function detectFormat(file: string): Promise<DetectedInput> {
  const size = statSync(file).size;
  if (size === 0) throw new InputError([{ file, reason: 'file is empty: no trace data to analyse' }]);
  const raw = readHead(file, HEAD_BYTES);
  const compression = compressionOf(raw);
  if (compression === 'none' && looksFramed(raw, size)) return { format: 'collector-framed', compression: 'none' };
  const head = await decompressedHead(file, raw, compression);
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text === '') throw new InputError([{ file, line: 1, reason: 'file holds only whitespace: no trace data to analyse' }]);
  if (text.startsWith('[')) {
    // (Zipkin's `/api/v2/traces` answers a list of traces, each a list of spans)
    if (/^\[\s*\[\s*(?:\{\s*"(?:traceId|id|parentId|name|kind|timestamp)"|\])/.test(text)) return { format: 'zipkin-spans', compression };
    const outline = await outlineHead(file, text, compression, (o) => isLangSmithRun(o.firstRecord.get('')) || isZipkinSpan(o.firstRecord.get('')));
    if (isLangSmithRun(outline.firstRecord.get(''))) return { format: 'langsmith-runs', compression };
    if (isZipkinSpan(outline.firstRecord.get(''))) return { format: 'zipkin-spans', compression };
    throw new InputError([{ file, line: 1, reason: 'a JSON array: expected a JSON object (OTLP JSON lines, an OTLP or Jaeger JSON document), a list of LangSmith runs, or of Zipkin spans' }]);
  }
  if (!text.startsWith('{')) throw new InputError([{ file, line: 1, reason: 'not JSON: expected a JSON object (OTLP JSON lines, an OTLP or Jaeger JSON document)' }]);
  if (isSdkObjectsHead(text)) return { format: 'sdk-objects', compression };
  const firstLine = text.split('\n', 1)[0] ?? '';
  const lineKeys = topLevelKeys(firstLine);
  // (Genkit's index of its stored traces, met when a walk goes through `.genkit/`: summaries, no spans)
  if (lineKeys !== undefined && GENKIT_INDEX_FIELDS.every((f) => lineKeys.includes(f))) {
    throw new InputError([{ file, line: 1, reason: 'Genkit\'s trace index (.genkit/traces_idx): one summary a trace, no spans; analyse the traces in .genkit/traces instead' }]);
  }
  if (lineKeys !== undefined && GENKIT_LOG_INDEX_FIELDS.every((f) => lineKeys.includes(f))) {
    throw new InputError([{ file, line: 1, reason: 'Genkit\'s log index (.genkit/logs_idx): where each log record is stored, not the records; analyse the records in .genkit/logs instead' }]);
  }
  if (lineKeys !== undefined && GENKIT_LOG_FIELDS.every((f) => lineKeys.includes(f))) return { format: 'genkit-logs', compression };
  // A pretty-printed document opens with a short first line (`{` or `{"resourceSpans": [`);
  // a JSON-lines file whose first line does not parse has a long, broken first line.
  const keyed = formatFromKeys(lineKeys ?? guessKeys(text), lineKeys === undefined && firstLine.trim().length < 200);
  let format = keyed === undefined || keyed === 'jaeger-envelope' ? (await apiAnswerFormat(file, text, compression)) ?? keyed : keyed;
  // A first line that is a document of its own, and more lines after it: JSON lines.
  // One exporter writing traces and logs to one file: a logs line among the first ones.
  if (format === 'otlp-lines' && text.split('\n').some((line, i) => i > 0 && isLogsLine(line))) format = 'otlp-logs';
  if (format === 'otlp-document-snake-case' && lineKeys !== undefined && text.slice(firstLine.length).trim() !== '') format = 'otlp-lines-snake-case';
  if (!format) {
    // A file the head holds whole, whose first line and whole text both fail to parse, is broken JSON, not another shape.
    if (lineKeys === undefined && compression === 'none' && size <= HEAD_BYTES && topLevelKeys(text) === undefined) {
      throw new InputError([{ file, line: 1, reason: DOCUMENT_NOT_JSON }]);
    }
    throw new InputError([{ file, line: 1, reason: 'JSON of another shape: expected "resourceSpans" (OTLP), "resource_spans" (OTLP, protobuf names), "resourceLogs" (OTLP logs), "result" (Jaeger /api/v3), "data" or "traceID"+"spans" (Jaeger), "batches" or "trace" (Grafana Tempo)' }]);
  }
  // OTLP before 1.0 named the scope level `instrumentationLibrarySpans`: read as today's OTLP it
  // holds no span, and a run over it would say "clean" for data it never saw.
  if (OTLP_NESTED.has(format) && /"instrumentation_?[lL]ibrary_?[sS]pans"/.test(text) && !/"scope_?[sS]pans"/.test(text)) {
    throw new InputError([{ file, line: 1, reason: SHAPE_PROBLEMS.preOtlp1 }]);
  }
  return { format, compression, crlf: /^[^\n]*\r\n/.test(head), ...(head.startsWith('\uFEFF') ? { bom: true } : {}) };
}

function readHead(file: string, n: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const got = readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** A 4-byte big-endian length that fits the file, followed by a compressed or JSON/protobuf message. */
function looksFramed(buf: Uint8Array, size: number): boolean {
  if (buf.length < 5) return false;
  const len = ((buf[0]! << 24) | (buf[1]! << 16) | (buf[2]! << 8) | buf[3]!) >>> 0;
  if (len === 0 || len > size - 4) return false;
  return compressionOf(buf, 4) !== 'none' || buf[4] === 0x7b /* { */ || (buf[4] === 0x0a && buf[0] === 0);
}

async function decompressedHead(file: string, raw: Buffer, compression: Compression): Promise<string> {
  if (compression === 'none') return raw.toString('utf8');
  if (compression === 'gzip') {
    try {
      return gunzipSync(raw, { finishFlush: 2 /* Z_SYNC_FLUSH: accept a truncated head */ }).subarray(0, HEAD_BYTES).toString('utf8');
    } catch {
      throw new InputError([{ file, reason: 'gzip data is corrupt' }]);
    }
  }
  // Node 20's zlib has no zstd: the WebAssembly decoder, stopped once the head is out.
  const parts: Buffer[] = [];
  let size = 0;
  const stream = await ZstdStream.open((bytes) => {
    if (size < HEAD_BYTES) parts.push(Buffer.from(bytes.subarray(0, HEAD_BYTES - size)));
    size += bytes.length;
  });
  try {
    stream.push(raw);
    // The whole file fit in the head: it must also end where a zstd frame ends.
    if (raw.length < HEAD_BYTES) stream.end();
  } catch (err) {
    if (err instanceof ZstdDataError) throw new InputError([{ file, reason: err.message }]);
    throw err;
  } finally {
    stream.close();
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * DuckDB relation of a file's lines, one VARCHAR column `l`, in file order. With `skipUnreadable`
 * the lines DuckDB cannot read (not UTF-8) are left out instead of failing the read.
 */
export function linesRelation(file: string, compression: Compression, crlf = false, maxLineBytes = 1 << 30, skipUnreadable = false): string {
  return `read_csv(${sqlString(file)}, columns={'l': 'VARCHAR'}, delim=E'\\x01', quote='', escape='', header=false, auto_detect=false,
    max_line_size=${maxLineBytes}, strict_mode=false, null_padding=true, compression=${sqlString(compression)}${crlf ? ", new_line='\\r\\n'" : ''}${skipUnreadable ? ', ignore_errors=true' : ''})`;
}

/** Formats that nest spans under resource and scope, as OTLP does. */
const OTLP_NESTED: ReadonlySet<InputFormat> = new Set(['otlp-lines', 'otlp-document', 'otlp-document-snake-case', 'otlp-lines-snake-case', 'otlp-result']);

/**
 * The observability products' API answers argspan reads, which are not trace exports' shapes
 * (several answer `{"data": […]}` as Jaeger's API does), told apart by the field names of their
 * first record, which the head holds however large the page: their small fields (Langfuse's
 * `meta`, Phoenix's `next_cursor`) may come after the data. Phoenix's own span shape is refused,
 * naming the answer to fetch instead. Undefined: none of these.
 */
async function apiAnswerFormat(file: string, text: string, compression: Compression): Promise<InputFormat | undefined> {
  const outline = await outlineHead(file, text, compression, (o) => apiAnswerOf(o, text) !== undefined || isJaegerTrace(o.firstRecord.get('data')));
  const answer = apiAnswerOf(outline, text);
  if (answer === 'phoenix-spans') {
    throw new InputError([{ file, line: 1, reason: 'Arize Phoenix\'s spans answer (GET /v1/projects/{project}/spans): not supported; fetch …/spans/otlpv1 (OTLP spans), which argspan reads' }]);
  }
  if (answer === 'genkit-trace-list') {
    throw new InputError([{ file, line: 1, reason: 'Genkit\'s trace list (GET /api/traces of its telemetry server): holds each trace\'s root span only, its attributes cut at 1,000 characters; read the traces kept in .genkit/traces/, or fetch each with GET /api/traces/<traceId>, which argspan reads' }]);
  }
  if (answer === 'tempo-search') {
    throw new InputError([{ file, line: 1, reason: 'Grafana Tempo\'s search answer (GET /api/search): holds trace ids and span summaries, not traces; fetch each trace with GET /api/v2/traces/<traceID>, which argspan reads' }]);
  }
  return answer;
}

/**
 * The API answer a head's outline shows (`phoenix-spans`: Phoenix's own span shape, `tempo-search`:
 * Tempo's search answer, `genkit-trace-list`: Genkit's list of traces' summaries, which argspan refuses).
 */
function apiAnswerOf({ keys, firstRecord }: JsonHeadOutline, text: string): InputFormat | 'phoenix-spans' | 'tempo-search' | 'genkit-trace-list' | undefined {
  if (keys.includes('batches') || (keys.includes('trace') && TEMPO_V2_TRACE.test(text))) return 'tempo-trace';
  if (keys.includes('traceId') && keys.includes('spans')) return 'genkit-trace';
  const traces = firstRecord.get('traces');
  if (traces?.includes('traceID') && traces.some((f) => TEMPO_SEARCH_FIELDS.includes(f))) return 'tempo-search';
  if (traces?.includes('traceId') && traces.includes('spans')) return 'genkit-trace-list';
  const data = firstRecord.get('data');
  if (data && isPhoenixSpan(data)) return 'phoenix-spans';
  if (data && isPhoenixOtlpSpan(data)) return 'phoenix-otlp-spans';
  // Langfuse's other answers (traces, sessions, scores) go to its reader too, which refuses them naming the answer to fetch.
  if (data && (isLangfuseObservation(data) || isLangfuseOtherRecord(data))) return 'langfuse-observations';
  if (keys.includes('runs')) return 'langsmith-runs';
  if (keys.includes('data') && LANGFUSE_PAGE.test(text)) return 'langfuse-observations';
  return undefined;
}

/** Tempo's `/api/v2/traces` answer: its `trace` holds `resourceSpans` (`batches` before 2.6), or is `{}` for a trace of no spans. */
const TEMPO_V2_TRACE = /"trace"\s*:\s*\{\s*(?:"(?:resourceSpans|batches)"|\})/;
/** Fields of a trace in Tempo's search answer (`TraceSearchMetadata`) besides its `traceID`. */
const TEMPO_SEARCH_FIELDS = ['rootServiceName', 'rootTraceName', 'spanSet', 'spanSets', 'durationMs'];

/** Fields of a record of Genkit's trace index (`.genkit/traces_idx/idx_*.json`, a line per trace: `{"id", "type", "start", "name", "end", "status"}`). */
const GENKIT_INDEX_FIELDS = ['id', 'type', 'start', 'status'];

/** Jaeger's trace record (`{"traceID", "spans", "processes"}`). */
function isJaegerTrace(fields: readonly string[] | undefined): boolean {
  return fields !== undefined && (fields.includes('traceID') || fields.includes('spans') || fields.includes('processes'));
}

/** How far a head is read again for a first record's field names (16 MiB, then 64 MiB of text at most). */
const LONGER_HEADS = [1 << 20, 16 << 20, 64 << 20];

/**
 * The head's outline; while its first record was cut off before `recognised` says what it is, the
 * outline of a longer head: a record may write a large field (a prompt, a run's inputs) before
 * the fields that name it.
 */
async function outlineHead(file: string, text: string, compression: Compression, recognised: (outline: JsonHeadOutline) => boolean): Promise<JsonHeadOutline> {
  let outline = outlineJsonHead(text);
  for (const n of LONGER_HEADS) {
    if (outline.cutRecord === undefined || recognised(outline)) break;
    const longer = (await longerHead(file, compression, n)).replace(/^\uFEFF/, '').trimStart();
    if (longer.length <= text.length) break;
    text = longer;
    outline = outlineJsonHead(text);
  }
  return outline;
}

/**
 * Up to `n` bytes of the file's text from its start, decompressed. The first head was read whole,
 * so a stream that turns out corrupt or cut off further on leaves what was read: the file's
 * reader names the problem.
 */
async function longerHead(file: string, compression: Compression, n: number): Promise<string> {
  if (compression === 'none') return readHead(file, n).toString('utf8');
  const parts: Buffer[] = [];
  let size = 0;
  try {
    await readDecompressed(file, compression, (bytes) => {
      parts.push(Buffer.from(bytes.subarray(0, n - size)));
      size += bytes.length;
      return size < n;
    });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Fields of Phoenix's `OtlpSpan` (snake_case OTLP) that no other answer's record has. */
const PHOENIX_OTLP_SPAN_FIELDS = ['span_id', 'trace_id', 'start_time_unix_nano', 'end_time_unix_nano', 'dropped_attributes_count'];
/** A record of Phoenix's `spans/otlpv1`: it writes `attributes` first, so a head may end inside them. */
function isPhoenixOtlpSpan(fields: readonly string[]): boolean {
  return fields.some((f) => PHOENIX_OTLP_SPAN_FIELDS.includes(f)) || (fields.length === 1 && fields[0] === 'attributes');
}

/** Phoenix's own span shape (`GET …/spans`): its ids in a `context` object, `span_kind` beside it. */
function isPhoenixSpan(fields: readonly string[]): boolean {
  return fields.includes('context') && (fields.includes('span_kind') || fields.includes('parent_id')) && !fields.includes('span_id');
}

/** A Langfuse observation (langfuse-python's `Observation`, v1 or v2): fields no other Langfuse answer has, or `traceId` with `startTime` or `type`. */
function isLangfuseObservation(fields: readonly string[]): boolean {
  return fields.includes('parentObservationId') || fields.includes('completionStartTime') || (fields.includes('traceId') && (fields.includes('startTime') || fields.includes('type')));
}

/** A record of Langfuse's traces, sessions or scores answers (langfuse-python's `TraceWithDetails`, `Session`, `Score`): fields Jaeger's traces never have. */
function isLangfuseOtherRecord(fields: readonly string[]): boolean {
  return fields.includes('htmlPath') || (fields.includes('observations') && fields.includes('scores')) || (fields.includes('projectId') && (fields.includes('createdAt') || fields.includes('environment')));
}

/** Fields of a LangSmith run (langsmith-sdk's `Run`) that name it as one, in its own order or sorted (`child_run_ids`, `dotted_order` come early). */
const LANGSMITH_RUN_FIELDS = ['run_type', 'dotted_order', 'child_run_ids', 'parent_run_id', 'reference_example_id'];
function isLangSmithRun(fields: readonly string[] | undefined): boolean {
  return fields !== undefined && fields.some((f) => LANGSMITH_RUN_FIELDS.includes(f));
}

/** A Zipkin v2 span: its ids (`traceId`, `id`) and a field of Zipkin's own (a Langfuse observation has ids too). */
function isZipkinSpan(fields: readonly string[] | undefined): boolean {
  return fields !== undefined && fields.includes('traceId') && fields.includes('id') && fields.some((f) => ZIPKIN_SPAN_FIELDS.includes(f));
}

/** Langfuse's page: `"meta": {"page": …}` (v1) or `"meta": {"cursor": …}` (v2), keys in any order, when the head holds it. */
const LANGFUSE_PAGE = /"meta"\s*:\s*\{[^{}]*"(?:page|cursor)"\s*:/;

function topLevelKeys(line: string): string[] | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
  } catch {
    return undefined;
  }
}

/** For a pretty-printed document: the keys seen near the start. */
function guessKeys(text: string): string[] {
  const first = /^\{\s*"([^"\\]+)"/.exec(text);
  if (first) return [first[1]!];
  const keys: string[] = [];
  for (const k of ['resourceLogs', 'resource_logs', 'resourceSpans', 'resource_spans', 'result', 'data', 'traceID', 'spans', 'spanID']) if (text.includes(`"${k}"`)) keys.push(k);
  return keys;
}

function formatFromKeys(keys: string[], document: boolean): InputFormat | undefined {
  const has = (k: string) => keys.includes(k);
  if (has('resourceLogs') || has('resource_logs')) return 'otlp-logs';
  if (has('resourceSpans')) return document ? 'otlp-document' : 'otlp-lines';
  if (has('resource_spans')) return 'otlp-document-snake-case';
  if (has('result')) return 'otlp-result';
  if (has('data')) return 'jaeger-envelope';
  // (Genkit's stored trace: `traceId`, its spans an object by id; Jaeger's is `traceID`, a list)
  if (has('traceId') && has('spans')) return 'genkit-trace';
  if (has('traceID') || has('spanID') || has('spans')) return 'jaeger-trace';
  return undefined;
}
