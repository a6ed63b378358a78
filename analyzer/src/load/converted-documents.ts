import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { langfuseObservationsDocument, langSmithRunsDocument, spansDocument } from './api-answers.js';
import type { Compression } from './detect-format.js';
import { DOCUMENT_NOT_JSON, InputError } from './input-error.js';
import { writeLinesAs } from './lines.js';
import { SPAN_PATHS, type SpanPath } from './malformed-span-positions.js';
import { genkitTraceOf } from './genkit-trace.js';
import { tempoTraceOf } from './tempo-trace.js';
import { zipkinSpansOf } from './zipkin-spans.js';
import { decompressZstd } from './zstd.js';

/**
 * Largest document converted in memory to OTLP JSON before it is read: a snake_case OTLP document
 * or an API answer. Phoenix's downloads, the APIs' pages and Tempo's traces hold a selection of spans.
 */
export const MAX_CONVERTED_BYTES = 512 * 1024 * 1024;

/** The documents read by converting them to an OTLP JSON document (camelCase) first. */
export type ConvertedFormat = 'otlp-document-snake-case' | 'phoenix-otlp-spans' | 'langfuse-observations' | 'langsmith-runs' | 'tempo-trace' | 'zipkin-spans' | 'genkit-trace';

const WHAT: Record<ConvertedFormat, string> = {
  'otlp-document-snake-case': 'snake_case OTLP document',
  'phoenix-otlp-spans': 'Phoenix spans answer',
  'langfuse-observations': 'Langfuse observations answer',
  'langsmith-runs': 'LangSmith runs answer',
  'tempo-trace': 'Grafana Tempo trace answer',
  'zipkin-spans': 'list of Zipkin spans',
  'genkit-trace': 'Genkit trace',
};

/** A document converted to OTLP JSON, as {@link writeConvertedDocument} wrote it. */
export interface ConvertedDocument {
  /** The OTLP JSON written. */
  text: string;
  /** Where a span of the written document (resource, scope, span indexes) is in the file, for naming a malformed one. */
  spanPath: SpanPath;
  /** The file says it holds part of its trace only (Tempo's `PARTIAL` status). */
  partial?: boolean;
}

/** A file of JSON lines converted to OTLP JSON lines, line for line, as {@link writeConvertedDocument} wrote it. */
export interface ConvertedLines {
  lines: true;
  /** Where a span of a written line is in the file's line. */
  spanPath: SpanPath;
  /** Lines that say they hold part of their trace only. */
  partialLines: number[];
}

/**
 * Read `file` (decompressed, parsed), convert it to an OTLP JSON document and write that to
 * `target`. An API answer's list of items (observations, runs; `data`, `runs` or the document
 * itself) becomes the document's spans in order. A snake_case file, or one of Tempo's answers,
 * that is not one document but JSON lines (its first line a document of its own) is written as
 * OTLP JSON lines instead, line for line.
 */
export async function writeConvertedDocument(file: string, format: ConvertedFormat, compression: Compression, target: string): Promise<ConvertedDocument | ConvertedLines> {
  const bytes = await readConverted(file, WHAT[format], compression);
  // JSON.parse refuses a byte order mark; Windows tools write one.
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const firstLineEnd = text.indexOf('\n');
    if (firstLineEnd > 0 && isJsonObject(text.slice(0, firstLineEnd))) {
      if (format === 'otlp-document-snake-case') {
        writeCamelCaseLines(bytes, target, new Set());
        return { lines: true, spanPath: SPAN_PATHS.otlpSnakeCase, partialLines: [] };
      }
      if (format === 'tempo-trace') return writeTempoLines(bytes, target);
    }
    throw new InputError([{ file, line: 1, reason: DOCUMENT_NOT_JSON }]);
  }
  const read = converted(format, doc, file);
  const otlp = JSON.stringify(read.document);
  writeFileSync(target, otlp);
  return { text: otlp, spanPath: read.spanPath, ...(read.partial ? { partial: true } : {}) };
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

/**
 * Tempo's answers one a line (`curl`'s output for each trace appended to a file) as OTLP JSON
 * lines, line for line; a line that does not parse or is not a Tempo answer is copied as it is,
 * for the line reader to name.
 */
function writeTempoLines(bytes: Buffer, target: string): ConvertedLines {
  const paths = new Map<number, SpanPath>();
  const partialLines: number[] = [];
  writeLinesAs(bytes, target, (raw, line) => {
    try {
      const tempo = tempoTraceOf(JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, '')), '');
      paths.set(line, tempo.spanPath);
      if (tempo.partial) partialLines.push(line);
      return JSON.stringify(tempo.document);
    } catch {
      return raw;
    }
  });
  return { lines: true, spanPath: (idx, line) => (line === undefined ? undefined : paths.get(line))?.(idx) ?? SPAN_PATHS.otlp(idx), partialLines };
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
  writeLinesAs(bytes, target, (raw, line) => camelCaseLine(raw, asIs.has(line)));
}

/** One line of snake_case OTLP JSON lines in camelCase; as it is when `asIs`, or when it does not parse. */
export function camelCaseLine(raw: Buffer, asIs: boolean): Buffer | string {
  if (asIs) return raw;
  try {
    return JSON.stringify(camelKeys(JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''))));
  } catch {
    return raw;
  }
}

/** `doc` (a parsed file of `format`) as an OTLP JSON document; throws {@link InputError} naming `file` when it is not of that shape. */
export function otlpDocumentOf(format: ConvertedFormat, doc: unknown, file: string): unknown {
  return converted(format, doc, file).document;
}

/** `doc` (a parsed file of `format`) as an OTLP JSON document, where its spans are in the file, and whether it says it holds part of its trace. */
function converted(format: ConvertedFormat, doc: unknown, file: string): { document: unknown; spanPath: SpanPath; partial?: boolean } {
  switch (format) {
    case 'otlp-document-snake-case':
      // Arize Phoenix's "Download → OTLP JSON": the protobuf field names (`resource_spans`, `string_value`).
      return { document: camelKeys(doc), spanPath: SPAN_PATHS.otlpSnakeCase };
    case 'phoenix-otlp-spans':
      // Phoenix's REST answer to `GET /v1/projects/{project}/spans/otlpv1`: `{"data": [spans], "next_cursor": …}`,
      // each span OTLP JSON with the protobuf field names, no resource or scope.
      return { document: spansDocument(camelKeys(dataOf(doc, file, 'Phoenix spans answer')) as unknown[]), spanPath: SPAN_PATHS.apiList('data') };
    case 'langfuse-observations':
      return { document: langfuseObservationsDocument(dataOf(doc, file, 'Langfuse public API answer'), file), spanPath: SPAN_PATHS.apiList('data') };
    case 'langsmith-runs':
      return { document: langSmithRunsDocument(runsOf(doc, file), file), spanPath: SPAN_PATHS.apiList(Array.isArray(doc) ? '' : 'runs') };
    case 'tempo-trace':
      return tempoTraceOf(doc, file);
    case 'zipkin-spans':
      return zipkinSpansOf(doc, file);
    case 'genkit-trace':
      return genkitTraceOf(doc, file);
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

const SNAKE = /_([a-z0-9])/g;

/** Protobuf field names (`resource_spans`, `string_value`) to the OTLP/JSON mapping's camelCase; object keys only, never values. */
export function camelKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k.replace(SNAKE, (_m, c: string) => c.toUpperCase())] = camelKeys(x);
  return out;
}

/** The runs of a LangSmith answer: `POST /api/v1/runs/query`'s `{"runs": […]}`, or a list of runs (the SDK's `list_runs`, dumped). */
function runsOf(doc: unknown, file: string): Record<string, unknown>[] {
  const runs = Array.isArray(doc) ? doc : doc !== null && typeof doc === 'object' ? (doc as { runs?: unknown }).runs : undefined;
  if (!Array.isArray(runs) || runs.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) {
    throw new InputError([{ file, line: 1, reason: 'JSON of another shape: the "runs" of a LangSmith runs answer must be a list of objects' }]);
  }
  return runs as Record<string, unknown>[];
}
