import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Compression } from './detect-format.js';
import { InputError } from './input-error.js';
import { decompressZstd } from './zstd.js';

/** Largest snake_case document or Phoenix answer read (it is converted in memory). Phoenix downloads and answers a selection of spans. */
export const MAX_SNAKE_CASE_BYTES = 512 * 1024 * 1024;

/**
 * An OTLP JSON document written with the protobuf field names (`resource_spans`, `scope_spans`,
 * `trace_id`, `string_value`, …) — what Arize Phoenix's "Download → OTLP JSON" writes — rewritten
 * to the OTLP/JSON mapping's camelCase names into `target`, so the OTLP document reader takes it.
 * Only object keys are renamed, never values (attribute keys are values of `key`).
 */
export async function writeCamelCaseDocument(file: string, compression: Compression, target: string): Promise<void> {
  writeFileSync(target, JSON.stringify(camelKeys(await readDocument(file, compression, 'snake_case OTLP document'))));
}

/**
 * Arize Phoenix's REST answer to `GET /v1/projects/{project}/spans/otlpv1` — `{"data": [spans],
 * "next_cursor": …}`, each span OTLP JSON with protobuf field names and no resource or scope —
 * written to `target` as an OTLP JSON document of those spans, so the OTLP document reader takes it.
 */
export async function writePhoenixSpansDocument(file: string, compression: Compression, target: string): Promise<void> {
  const doc = await readDocument(file, compression, 'Phoenix spans answer');
  const data = doc !== null && typeof doc === 'object' ? (doc as { data?: unknown }).data : undefined;
  if (!Array.isArray(data) || data.some((s) => s === null || typeof s !== 'object' || Array.isArray(s))) {
    throw new InputError([{ file, line: 1, reason: 'JSON of another shape: the "data" of a Phoenix spans answer must be a list of span objects' }]);
  }
  writeFileSync(target, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: camelKeys(data) }] }] }));
}

/** A whole JSON document, decompressed and parsed in memory (at most {@link MAX_SNAKE_CASE_BYTES}); `what` names it in errors. */
async function readDocument(file: string, compression: Compression, what: string): Promise<unknown> {
  const raw = readFileSync(file);
  if (raw.length > MAX_SNAKE_CASE_BYTES) throw new InputError([{ file, reason: `${what} larger than ${MAX_SNAKE_CASE_BYTES} bytes` }]);
  let text: string;
  try {
    text = (compression === 'gzip' ? gunzipSync(raw) : compression === 'zstd' ? await decompressZstd(raw, 4 * MAX_SNAKE_CASE_BYTES) : raw).toString('utf8');
  } catch {
    throw new InputError([{ file, reason: `${compression} data is corrupt or too large` }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError([{ file, line: 1, reason: 'not valid JSON (a truncated or corrupt document)' }]);
  }
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
