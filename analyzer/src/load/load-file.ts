import { closeSync, openSync, readSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Db } from '../db.js';
import { compressionOf, detectFormat, firstLine, linesRelation, type Compression, type DetectedInput } from './detect-format.js';
import { OTLP_RESOURCE_SPANS, columnsArg, sqlString } from './duckdb-types.js';
import { InputError, type InputProblem } from './input-error.js';
import { stageJaegerSql, jaegerTraces } from './stage-jaeger.js';
import { stageOtlpSql } from './stage-otlp.js';

/** DuckDB's default `maximum_object_size` for read_json: 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface LoadFileOptions {
  /** Analyse the readable rest of a damaged file instead of failing. */
  allowPartial: boolean;
  /** Largest JSON line accepted. */
  maxLineBytes: number;
  /** Scratch directory for de-framed collector output. */
  tmpDir: string;
}

export interface FileLoad extends DetectedInput {
  /** Spans staged from this file (before duplicates across files are dropped). */
  spans: number;
  /** Lines or messages skipped under `allowPartial`. */
  skipped: InputProblem[];
}

const COLUMNS = columnsArg({ resourceSpans: OTLP_RESOURCE_SPANS });
const DOC_OPTS = `format='auto', maximum_object_size=1073741824`;

/**
 * Stage one file into `span_structs`. Throws {@link InputError} naming the file (and line) when it
 * cannot be read. Only OTLP JSON lines (the bulk format) are read under the database's memory
 * limit: the whole-document and framed readers reserve twice the maximum object size (1 GiB) of
 * buffer up front, so they run under DuckDB's default limit, as before there was one.
 */
export async function loadFile(db: Db, fileId: number, file: string, opts: LoadFileOptions): Promise<FileLoad> {
  const detected = await detectFormat(db, file);
  if (detected.format === 'otlp-lines') return { ...detected, ...(await loadLines(db, fileId, file, detected, opts)) };
  return db.withDefaultMemoryLimit(() => loadDocument(db, fileId, file, detected, opts));
}

async function loadDocument(db: Db, fileId: number, file: string, detected: DetectedInput, opts: LoadFileOptions): Promise<FileLoad> {
  const f = sqlString(file);
  const comp = jsonCompression(detected.compression);
  switch (detected.format) {
    case 'otlp-lines':
      return { ...detected, ...(await loadLines(db, fileId, file, detected, opts)) };
    case 'otlp-document':
      return { ...detected, ...(await loadWhole(db, fileId, file, stageOtlpSql(fileId, `read_json(${f}, ${DOC_OPTS}, compression=${comp}, columns=${COLUMNS})`))) };
    case 'otlp-result':
      return {
        ...detected,
        ...(await loadWhole(
          db,
          fileId,
          file,
          stageOtlpSql(fileId, `(SELECT result.resourceSpans AS resourceSpans FROM read_json(${f}, ${DOC_OPTS}, compression=${comp}, columns=${columnsArg({ result: `STRUCT(resourceSpans ${OTLP_RESOURCE_SPANS})` })}))`),
        )),
      };
    case 'jaeger-envelope':
    case 'jaeger-trace':
      return { ...detected, ...(await loadWhole(db, fileId, file, stageJaegerSql(fileId, jaegerTraces(file, detected.format === 'jaeger-envelope')))) };
    case 'collector-framed':
      return { ...detected, ...(await loadFramed(db, fileId, file, opts)) };
  }
}

/** read_json's name for a compression (read_csv calls no compression `none`, read_json `uncompressed`). */
function jsonCompression(c: Compression): string {
  return sqlString(c === 'none' ? 'uncompressed' : c);
}

/** A DuckDB error message with every quoted fragment (which may hold data from the file) blanked. */
export function safeDuckDbMessage(err: unknown): string {
  return firstLine(err)
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/but got (\w+):.*$/, 'but got $1')
    .replace(/^[A-Za-z ]*Error: /, '');
}

async function countStaged(db: Db, fileId: number): Promise<{ spans: number; bad: number }> {
  const r = await db.one(`SELECT count(*) FILTER (WHERE NOT bad AND span_id IS NOT NULL) AS spans, count(*) FILTER (WHERE bad) AS bad FROM span_structs WHERE file_id = ${fileId}`);
  return { spans: Number(r.spans), bad: Number(r.bad) };
}

/** A whole-document format: DuckDB reads it in one go; any failure names the file and DuckDB's line. */
async function loadWhole(db: Db, fileId: number, file: string, sql: string): Promise<{ spans: number; skipped: InputProblem[] }> {
  try {
    await db.run(sql);
  } catch (err) {
    throw new InputError([{ file, reason: `could not be read as its detected format: ${safeDuckDbMessage(err)}` }]);
  }
  const { spans, bad } = await countStaged(db, fileId);
  if (bad > 0) throw new InputError([{ file, line: 1, reason: 'JSON of another shape: the trace data field is missing or null' }]);
  return { spans, skipped: [] };
}

/**
 * OTLP JSON lines. Fast path: DuckDB's typed read of the whole file. Only when that fails (or
 * finds records without `resourceSpans`) is the file read again line by line to say which lines
 * are bad; with `allowPartial` the good lines are then staged from that second read.
 */
async function loadLines(db: Db, fileId: number, file: string, detected: DetectedInput, opts: LoadFileOptions): Promise<{ spans: number; skipped: InputProblem[] }> {
  const source = `read_json(${sqlString(file)}, format='newline_delimited', compression=${jsonCompression(detected.compression)}, maximum_object_size=${opts.maxLineBytes}, columns=${COLUMNS})`;
  let readError: unknown;
  try {
    // Row order inside one file does not matter here (bad lines are found by the second read), and
    // not preserving it lets DuckDB stage a large file with less memory.
    await db.run('SET preserve_insertion_order = false');
    await db.run(stageOtlpSql(fileId, source)).finally(() => db.run('SET preserve_insertion_order = true'));
    const { spans, bad } = await countStaged(db, fileId);
    if (bad === 0) return { spans, skipped: [] };
    await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId}`);
  } catch (err) {
    readError = err;
  }
  const problems = await db.withDefaultMemoryLimit(() => diagnoseLines(db, file, detected, opts.maxLineBytes));
  if (problems.length === 0) {
    problems.push({ file, reason: `could not be read: ${safeDuckDbMessage(readError)}` });
    throw new InputError(problems);
  }
  if (!opts.allowPartial) throw new InputError(problems);
  const structure = sqlString(JSON.stringify({ resourceSpans: OTLP_RESOURCE_SPANS }));
  await db.run(stageOtlpSql(fileId, `(SELECT json_transform(l, ${structure}).resourceSpans AS resourceSpans FROM diag_lines WHERE ok)`));
  await db.run('DROP TABLE diag_lines');
  const { spans } = await countStaged(db, fileId);
  return { spans, skipped: problems };
}

/** Read a JSON-lines file line by line (DuckDB decompresses) and name every bad line. Leaves `diag_lines` (line, l, ok). */
async function diagnoseLines(db: Db, file: string, detected: DetectedInput, maxLineBytes: number): Promise<InputProblem[]> {
  await db.run(`CREATE OR REPLACE TEMP TABLE diag_lines AS SELECT row_number() OVER () AS line, l, NULL::VARCHAR AS reason FROM ${linesRelation(file, detected.compression, detected.crlf)}`);
  await db.run(`UPDATE diag_lines SET reason = CASE
      WHEN strlen(l) > ${maxLineBytes} THEN 'line is ' || strlen(l) || ' bytes, larger than the maximum JSON object size (${maxLineBytes} bytes; raise it with --max-line-bytes)'
      WHEN NOT json_valid(l) THEN 'not valid JSON (a truncated or corrupt line)'
      WHEN json_type(l) <> 'OBJECT' THEN 'JSON of another shape: not an object'
      WHEN json_type(l, '$.resourceSpans') IS DISTINCT FROM 'ARRAY' THEN 'JSON of another shape: no "resourceSpans" array'
    END WHERE l IS NOT NULL AND trim(l) <> ''`);
  await db.run(`ALTER TABLE diag_lines ADD COLUMN ok BOOLEAN; UPDATE diag_lines SET ok = (reason IS NULL AND l IS NOT NULL AND trim(l) <> '')`);
  const rows = await db.all(`SELECT line, reason FROM diag_lines WHERE reason IS NOT NULL ORDER BY line`);
  return rows.map((r) => ({ file, line: Number(r.line), reason: String(r.reason) }));
}

/**
 * The collector file exporter's framed output: a 4-byte big-endian length before each message.
 * JSON messages (plain or gzip) become one JSON line each, so line numbers are message numbers;
 * zstd messages are concatenated (a valid zstd stream) for DuckDB to decompress. Protobuf
 * messages are reported as not supported.
 */
async function loadFramed(db: Db, fileId: number, file: string, opts: LoadFileOptions): Promise<{ spans: number; skipped: InputProblem[] }> {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  const skipped: InputProblem[] = [];
  let kind: 'json' | 'gzip' | 'zstd' | undefined;
  const out = join(opts.tmpDir, `framed-${fileId}.json`);
  let target = out;
  let at = 0;
  let n = 0;
  try {
    const header = Buffer.alloc(4);
    while (at < size) {
      n += 1;
      if (readSync(fd, header, 0, 4, at) < 4) {
        skipped.push({ file, line: n, reason: `framed message ${n} is truncated: incomplete 4-byte length prefix` });
        break;
      }
      const len = header.readUInt32BE(0);
      if (len === 0 || at + 4 + len > size) {
        skipped.push({ file, line: n, reason: `framed message ${n} is truncated: length prefix says ${len} bytes, ${size - at - 4} remain` });
        break;
      }
      const msg = Buffer.alloc(len);
      readSync(fd, msg, 0, len, at + 4);
      at += 4 + len;
      const c = compressionOf(msg);
      const k = c === 'none' ? 'json' : c;
      if (kind === undefined) {
        kind = k;
        target = kind === 'zstd' ? `${out}.zst` : out;
        writeFileSync(target, '');
      } else if (kind !== k) {
        skipped.push({ file, line: n, reason: `framed message ${n} uses a different compression than message 1` });
        continue;
      }
      if (kind === 'zstd') {
        appendFileSync(target, msg);
        continue;
      }
      let body: Buffer;
      try {
        body = kind === 'gzip' ? gunzipSync(msg) : msg;
      } catch {
        skipped.push({ file, line: n, reason: `framed message ${n}: gzip data is corrupt` });
        continue;
      }
      if (body[0] !== 0x7b) throw new InputError([{ file, line: n, reason: 'collector framed output with protobuf messages is not supported: configure the file exporter with format: json' }]);
      appendFileSync(target, Buffer.concat([body, Buffer.from('\n')]));
    }
  } finally {
    closeSync(fd);
  }
  if (skipped.length && !opts.allowPartial) throw new InputError(skipped);
  if (kind === undefined) throw new InputError([{ file, reason: 'no complete framed message' }]);
  if (kind === 'zstd') {
    const head = await db.all(`SELECT l FROM ${linesRelation(target, 'zstd')} LIMIT 1`).catch(() => []);
    const first = String(head[0]?.l ?? '');
    if (!first.startsWith('{')) throw new InputError([{ file, line: 1, reason: 'collector framed output with protobuf messages is not supported: configure the file exporter with format: json' }]);
    const r = await loadWhole(db, fileId, file, stageOtlpSql(fileId, `read_json(${sqlString(target)}, format='unstructured', maximum_object_size=${opts.maxLineBytes}, compression='zstd', columns=${COLUMNS})`));
    return { spans: r.spans, skipped };
  }
  const r = await loadLines(db, fileId, target, { format: 'otlp-lines', compression: 'none' }, opts).catch((err: unknown) => {
    if (err instanceof InputError) throw new InputError(err.problems.map((p) => ({ ...p, file, reason: p.line ? `framed message ${p.line}: ${p.reason}` : p.reason })));
    throw err;
  });
  return { spans: r.spans, skipped: [...skipped, ...r.skipped.map((p) => ({ ...p, file }))] };
}
