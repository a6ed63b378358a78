import { appendFileSync, closeSync, openSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createValueHasher } from '@argspan/core';
import type { Db } from '../db.js';
import { phase, type PhaseListener } from '../phases.js';
import { describeDuckDbError, isOutOfMemory, NOT_JSON } from '../duckdb-error.js';
import { compressionOf, detectFormat, linesRelation, type Compression, type DetectedInput } from './detect-format.js';
import { columnsArg, OTLP_ATTRIBUTES, otlpTypes, sqlString, type ValueShapes } from './duckdb-types.js';
import { DOCUMENT_NOT_JSON, InputError, type InputProblem } from './input-error.js';
import { MAX_JSON_NESTING, type ByteScanResult } from './json-byte-scan.js';
import { LOG_EVENT_TYPE, SHAPE_PROBLEMS } from './schema.js';
import { scanTraceFile, valueShapesOf, type TraceFileScan } from './scan-trace-file.js';
import { camelCaseLine, readConverted, writeConvertedDocument } from './converted-documents.js';
import { malformedSpansAt, SPAN_PATHS, type SpanPath } from './malformed-span-positions.js';
import { malformedJaegerSpansSql, stageJaegerSql, jaegerTraces } from './stage-jaeger.js';
import { malformedOtlpSpansSql, stageOtlpSql } from './stage-otlp.js';
import { bomLength, LINE_TOO_LONG, LineWriter, MAX_HELD_LINE_BYTES, readLinesOfFile, rewriteLinesOfFile, StopReading } from './lines.js';
import { isJsonLine, isLogsLine, LogsLineReader, otherRecordTexts, type LogEventRow } from './otlp-logs.js';
import { LogRecordCredentials, type LogRecordText } from '../log-record-credentials.js';
import { ZstdDataError, decompressZstd } from './zstd.js';
import { sdkObjectLine, splitJsonObjects } from './sdk-objects.js';
import { genkitLogLine } from './genkit-logs.js';
import { TEMPO_PARTIAL } from './tempo-trace.js';

/** A line of OTLP logs in a file read as trace lines: the file is read again as both. */
const LOGS_AMONG_TRACES = 'OTLP logs ("resourceLogs") among trace lines';

/** DuckDB's default `maximum_object_size` for read_json: 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface LoadFileOptions {
  /** Analyse the readable rest of a damaged file instead of failing. */
  allowPartial: boolean;
  /** Largest JSON line accepted. */
  maxLineBytes: number;
  /** Scratch directory for de-framed collector output. */
  tmpDir: string;
  /** Told the time of the byte scan (`stage: byte scan`). */
  onPhase?: PhaseListener;
  /**
   * The run's hash key: the credentials in an OTLP logs export's application log records (no
   * GenAI message event) are staged in `log_record_credential_hits` as their keyed hashes under it.
   * Without it those records are counted only (a load that runs no rules).
   */
  hashKey?: Uint8Array;
}

export interface FileLoad extends DetectedInput {
  /** Spans staged from this file (before duplicates across files are dropped). */
  spans: number;
  /** GenAI log records staged from this file (an OTLP logs export), as their spans' events. */
  logRecords?: number;
  /** Its other log records (no GenAI message event: an application's own logs): counted, scanned for credentials (with `hashKey`), not read as tool calls. */
  otherLogRecords?: number;
  /** Its coding agents' log records (Claude Code, Gemini CLI, Qwen Code, Codex CLI), each read as a span of its own (`coding-agent-records.ts`). */
  agentLogRecords?: number;
  /** Bytes of those records as staged (what attaching them to their spans works through). */
  logBytes?: number;
  /** Lines, messages or spans skipped under `allowPartial`. */
  skipped: InputProblem[];
}

/** read_json's columns of an OTLP export message with the value forms `shapes` (see `TraceFileScan`). */
const otlpColumns = (shapes: ValueShapes) => columnsArg({ resourceSpans: otlpTypes(shapes).resourceSpans });
// records=true: DuckDB's record detection walks every nesting level recursively (a stack overflow
// on deep input); the columns are given, so there is nothing to detect.
const DOC_OPTS = `format='auto', records=true, maximum_object_size=1073741824`;
const TOO_DEEP = `nesting deeper than ${MAX_JSON_NESTING} levels`;
const PROTOBUF = 'collector framed output with protobuf messages is not supported: configure the file exporter with format: json';

/**
 * Stage one file into `span_structs`. Throws {@link InputError} naming the file (and line) when it
 * cannot be read, or when a span in it is malformed (unless `allowPartial`, which skips what is
 * bad and reports it). Before DuckDB parses anything, the whole file is scanned byte by byte
 * ({@link scanTraceFile}) for nesting deeper than DuckDB's JSON reader survives and for bytes
 * that are not UTF-8. Only OTLP JSON lines (the bulk format) are read under the database's
 * memory limit: the whole-document and framed readers reserve twice the maximum object size
 * (1 GiB) of buffer up front, so they run under DuckDB's default limit.
 */
export async function loadFile(db: Db, fileId: number, file: string, opts: LoadFileOptions): Promise<FileLoad> {
  let detected: DetectedInput;
  try {
    detected = await detectFormat(file);
  } catch (err) {
    throw unreadable(err, file);
  }
  if (detected.format === 'otlp-lines') {
    // A logs line further in than the format detection looks (one exporter writing both signals): read as such a file.
    const asLogs = () => db.run(`DELETE FROM span_structs WHERE file_id = ${fileId}`).then(() => loadLogs(db, fileId, file, { ...detected, format: 'otlp-logs' }, opts));
    try {
      const lines = await loadLines(db, fileId, file, detected, opts);
      if (lines.skipped.some((p) => p.reason === LOGS_AMONG_TRACES)) return { ...detected, format: 'otlp-logs', ...(await asLogs()) };
      return { ...detected, ...lines };
    } catch (err) {
      if (!(err instanceof InputError) || !err.problems.some((p) => p.reason === LOGS_AMONG_TRACES)) throw err;
      return { ...detected, format: 'otlp-logs', ...(await asLogs()) };
    }
  }
  if (detected.format === 'otlp-lines-snake-case') return { ...detected, ...(await loadSnakeCaseLines(db, fileId, file, detected, opts)) };
  if (detected.format === 'otlp-logs') return { ...detected, ...(await loadLogs(db, fileId, file, detected, opts)) };
  if (detected.format === 'sdk-objects') return { ...detected, ...(await loadSdkObjects(db, fileId, file, detected, opts)) };
  if (detected.format === 'genkit-logs') return { ...detected, ...(await loadGenkitLogs(db, fileId, file, detected, opts)) };
  if (detected.format === 'collector-framed') return { ...detected, ...(await db.withDefaultMemoryLimit(() => loadFramed(db, fileId, file, opts))) };
  const scan = await phase(opts.onPhase, 'stage: byte scan', () => scanTraceFile(file, detected.compression, 'document'));
  const found = scanProblems(file, scan);
  if (found.length) throw new InputError(found);
  return db.withDefaultMemoryLimit(() => loadDocument(db, fileId, file, detected, opts, scan.valueShapes));
}

/** A file-system error (missing, unreadable) as an {@link InputError}; anything else as it is. */
function unreadable(err: unknown, file: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (!(err instanceof InputError) && typeof code === 'string' && /^E[A-Z]+$/.test(code)) return new InputError([{ file, reason: code === 'ENOENT' ? 'no such file or directory' : `file cannot be read (${code})` }]);
  return err;
}

function scanProblems(file: string, scan: ByteScanResult): InputProblem[] {
  return [
    ...scan.tooDeep.map((line) => ({ file, line, reason: TOO_DEEP })),
    ...scan.invalidUtf8.map((line) => ({ file, line, reason: 'invalid UTF-8' })),
  ].sort((a, b) => a.line - b.line);
}

async function loadDocument(db: Db, fileId: number, file: string, detected: DetectedInput, opts: LoadFileOptions, shapes: ValueShapes): Promise<FileLoad> {
  const f = sqlString(file);
  const comp = jsonCompression(detected.compression);
  switch (detected.format) {
    case 'otlp-document': {
      const source = `read_json(${f}, ${DOC_OPTS}, compression=${comp}, columns=${otlpColumns(shapes)})`;
      const where = { sql: malformedOtlpSpansSql(source, 'NULL', shapes), path: SPAN_PATHS.otlp };
      return { ...detected, ...(await loadWhole(db, fileId, file, stageOtlpSql(fileId, source, 'NULL', shapes), where, opts)) };
    }
    case 'otlp-document-snake-case':
    case 'phoenix-otlp-spans':
    case 'langfuse-observations':
    case 'langsmith-runs':
    case 'tempo-trace':
    case 'zipkin-spans':
    case 'genkit-trace': {
      const converted = join(opts.tmpDir, `converted-${fileId}.json`);
      // JSON lines too: snake_case ones whose first line is longer than the head detection reads, Tempo's answers one a line.
      const written = await writeConvertedDocument(file, detected.format, detected.compression, converted);
      const partial = ('lines' in written ? written.partialLines : written.partial ? [1] : []).map((line) => ({ file, line, reason: TEMPO_PARTIAL }));
      if ('lines' in written) {
        const read = await withPartialTraces(partial, opts, () => loadScratchLines(db, fileId, file, converted, opts, { path: written.spanPath }));
        return { ...detected, ...(detected.format === 'otlp-document-snake-case' ? { format: 'otlp-lines-snake-case' as const } : {}), ...read };
      }
      // Converted documents hold camelCase names only, whatever the source held.
      const convertedShapes = { ...valueShapesOf(written.text), protobufNames: false };
      const source = `read_json(${sqlString(converted)}, ${DOC_OPTS}, columns=${otlpColumns(convertedShapes)})`;
      const where = { sql: malformedOtlpSpansSql(source, 'NULL', convertedShapes), path: written.spanPath };
      return { ...detected, ...(await withPartialTraces(partial, opts, () => loadWhole(db, fileId, file, stageOtlpSql(fileId, source, 'NULL', convertedShapes), where, opts))) };
    }
    case 'otlp-result': {
      const source = `(SELECT result.resourceSpans AS resourceSpans FROM read_json(${f}, ${DOC_OPTS}, compression=${comp}, columns=${columnsArg({ result: `STRUCT(resourceSpans ${otlpTypes(shapes).resourceSpans})` })}))`;
      const where = { sql: malformedOtlpSpansSql(source, 'NULL', shapes), path: SPAN_PATHS.otlpResult };
      return { ...detected, ...(await loadWhole(db, fileId, file, stageOtlpSql(fileId, source, 'NULL', shapes), where, opts)) };
    }
    case 'jaeger-envelope':
    case 'jaeger-trace': {
      const envelope = detected.format === 'jaeger-envelope';
      const where = { sql: malformedJaegerSpansSql(jaegerTraces(file, envelope, true)), path: SPAN_PATHS.jaeger };
      return { ...detected, ...(await loadWhole(db, fileId, file, stageJaegerSql(fileId, jaegerTraces(file, envelope)), where, opts, JAEGER_SHAPE)) };
    }
    default:
      throw new Error(`no document reader for ${detected.format}`);
  }
}

/**
 * `read`, with `partial` (the lines or document that say they hold part of their trace only) among
 * its problems: a partial trace is not read as a whole one, so they fail the file as its other
 * problems do, all named together; under `allowPartial` they are listed as skipped.
 */
async function withPartialTraces(
  partial: InputProblem[],
  opts: LoadFileOptions,
  read: () => Promise<{ spans: number; skipped: InputProblem[] }>,
): Promise<{ spans: number; skipped: InputProblem[] }> {
  const byLine = (problems: InputProblem[]) => problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  let r: { spans: number; skipped: InputProblem[] };
  try {
    r = await read();
  } catch (err) {
    if (err instanceof InputError && partial.length) throw new InputError(byLine([...partial, ...err.problems]));
    throw err;
  }
  if (partial.length && !opts.allowPartial) throw new InputError(partial);
  return { spans: r.spans, skipped: byLine([...partial, ...r.skipped]) };
}

/** What a Jaeger document's trace data must be (other APIs answer `{"data":[…]}` too). */
const JAEGER_SHAPE = '"data" (or the document) holds no Jaeger traces: expected objects with "traceID" and a "spans" array';

/** read_json's name for a compression (read_csv calls no compression `none`, read_json `uncompressed`). */
function jsonCompression(c: Compression): string {
  return sqlString(c === 'none' ? 'uncompressed' : c);
}

interface Staged {
  /** Well-formed spans. */
  spans: number;
  /** Records without the trace data field. */
  bad: number;
  /** Spans failing a check of `SPAN_PROBLEMS`. */
  malformed: number;
}

async function countStaged(db: Db, fileId: number): Promise<Staged> {
  const r = await db.one(`SELECT count(*) FILTER (WHERE NOT bad AND problem IS NULL AND span_id IS NOT NULL) AS spans, count(*) FILTER (WHERE bad) AS bad,
    count(*) FILTER (WHERE NOT bad AND problem IS NOT NULL) AS malformed FROM span_structs WHERE file_id = ${fileId}`);
  return { spans: Number(r.spans), bad: Number(r.bad), malformed: Number(r.malformed) };
}

/**
 * The malformed spans staged from a file, one problem per line (when known) and kind, counted.
 * Under `allowPartial` they are deleted (the file's good spans stay); otherwise the caller throws.
 */
async function malformedSpans(db: Db, fileId: number, file: string): Promise<InputProblem[]> {
  const rows = await db.all(`SELECT line, problem, count(*) AS n FROM span_structs WHERE file_id = ${fileId} AND NOT bad AND problem IS NOT NULL GROUP BY ALL ORDER BY line NULLS FIRST, problem`);
  return rows.map((r) => {
    const n = Number(r.n);
    const reason = `${n === 1 ? 'malformed span' : `${n} malformed spans`}: ${String(r.problem)}`;
    return r.line === null ? { file, reason } : { file, line: Number(r.line), reason };
  });
}

/**
 * The malformed spans staged from a file, named by where they are ({@link malformedSpansAt}); by
 * file and line only ({@link malformedSpans}) should that second read find none or fail, so a
 * malformed span is reported either way.
 */
async function placedMalformedSpans(db: Db, fileId: number, file: string, where: SpanPositions): Promise<InputProblem[]> {
  try {
    const placed = await malformedSpansAt(db, file, where.sql, where.path);
    if (placed.length) return placed;
  } catch (err) {
    if (isOutOfMemory(err)) throw err;
  }
  return malformedSpans(db, fileId, file);
}

/**
 * The records staged from a file that are not the OTLP JSON it was read as ({@link SHAPE_PROBLEMS}),
 * one problem per line (line 1 for a document). A record found so by one of its spans (an
 * attribute value with protobuf field names) is marked bad whole first, as the others are, so
 * none of its spans is analysed or reported as malformed.
 */
async function shapeProblems(db: Db, fileId: number, file: string): Promise<InputProblem[]> {
  const shapes = Object.values(SHAPE_PROBLEMS).map(sqlString).join(', ');
  await db.run(`UPDATE span_structs SET bad = true, problem = w.problem
    FROM (SELECT line, min(problem) AS problem FROM span_structs WHERE file_id = ${fileId} AND problem IN (${shapes}) GROUP BY line) w
    WHERE span_structs.file_id = ${fileId} AND span_structs.line IS NOT DISTINCT FROM w.line`);
  const rows = await db.all(`SELECT DISTINCT line, problem FROM span_structs WHERE file_id = ${fileId} AND problem IN (${shapes}) ORDER BY line`);
  return rows.map((r) => ({ file, line: r.line === null ? 1 : Number(r.line), reason: String(r.problem) }));
}

/** Where a file's malformed spans are: the staging query with ordinality (`line`, `idx`, `problem`, `spans`) and how its indexes are named. */
interface SpanPositions {
  sql: string;
  path: SpanPath;
}

/**
 * A whole-document format: DuckDB reads it in one go; a failure names the file and what kind of
 * failure it was. Malformed spans are named by their place in the document, found by reading it
 * again with `where` (only then: well-formed input is read once).
 */
async function loadWhole(db: Db, fileId: number, file: string, sql: string, where: SpanPositions, opts: LoadFileOptions, shape = 'the trace data field is missing or null'): Promise<{ spans: number; skipped: InputProblem[] }> {
  try {
    await db.run(sql);
  } catch (err) {
    if (isOutOfMemory(err)) throw err;
    const why = describeDuckDbError(err);
    // (a document that does not parse is named as the other readers name one: where it opens, cut off or corrupt)
    throw new InputError([why === NOT_JSON ? { file, line: 1, reason: DOCUMENT_NOT_JSON } : { file, reason: `could not be read as its detected format: ${why}` }]);
  }
  const staged = await countStaged(db, fileId);
  const shaped = staged.bad > 0 || staged.malformed > 0 ? await shapeProblems(db, fileId, file) : [];
  if (shaped.length) throw new InputError(shaped);
  if (staged.bad > 0) throw new InputError([{ file, line: 1, reason: `JSON of another shape: ${shape}` }]);
  if (staged.malformed === 0) return { spans: staged.spans, skipped: [] };
  const malformed = await placedMalformedSpans(db, fileId, file, where);
  if (!opts.allowPartial) throw new InputError(malformed);
  await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId} AND problem IS NOT NULL`);
  return { spans: staged.spans, skipped: malformed };
}

/**
 * OTLP JSON lines. Fast path: DuckDB's typed read of the whole file. Only when the byte scan
 * flagged a line, the read fails, or it finds records without `resourceSpans` or malformed spans,
 * is the file read again line by line to say which lines are bad; with `allowPartial` the good
 * lines are then staged from that second read.
 */
async function loadLines(db: Db, fileId: number, file: string, detected: DetectedInput, opts: LoadFileOptions, path = SPAN_PATHS.otlp): Promise<{ spans: number; skipped: InputProblem[] }> {
  const scan = await phase(opts.onPhase, 'stage: byte scan', () => scanTraceFile(file, detected.compression, 'lines', opts.maxLineBytes));
  let readError: unknown;
  if (scan.tooDeep.length === 0 && scan.invalidUtf8.length === 0 && scan.longestLine <= opts.maxLineBytes) {
    // DuckDB's newline-delimited reader refuses a byte order mark; its 'auto' reader skips one (and reads JSON lines too).
    const source = `read_json(${sqlString(file)}, format=${detected.bom ? "'auto'" : "'newline_delimited'"}, records=true, compression=${jsonCompression(detected.compression)}, maximum_object_size=${opts.maxLineBytes}, columns=${otlpColumns(scan.valueShapes)})`;
    try {
      // Row order inside one file does not matter here (bad lines are found by the second read), and
      // not preserving it lets DuckDB stage a large file with less memory.
      await db.run('SET preserve_insertion_order = false');
      await db.run(stageOtlpSql(fileId, source, 'NULL', scan.valueShapes)).finally(() => db.run('SET preserve_insertion_order = true'));
      const staged = await countStaged(db, fileId);
      if (staged.bad === 0 && staged.malformed === 0) return { spans: staged.spans, skipped: [] };
    } catch (err) {
      if (isOutOfMemory(err)) throw err;
      readError = err;
    }
    await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId}`);
  }
  return db.withDefaultMemoryLimit(async () => {
    const problems = await diagnoseLines(db, file, detected, opts.maxLineBytes, scan);
    // Every line is JSON of the right outline but the typed read failed: a value of the wrong type, found line by line below.
    try {
      for (const p of await stageGoodLines(db, fileId, file, opts, scan.valueShapes)) problems.push(p);
      if (problems.length === 0 && readError !== undefined) {
        await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId}`);
        throw new InputError([{ file, reason: `could not be read: ${describeDuckDbError(readError)}` }]);
      }
      for (const p of await shapeProblems(db, fileId, file)) problems.push(p);
      for (const p of await malformedLineSpans(db, fileId, file, opts, scan.valueShapes, path)) problems.push(p);
    } finally {
      await db.run('DROP TABLE IF EXISTS good_lines');
    }
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    if (problems.length === 0) throw new InputError([{ file, reason: 'could not be read: DuckDB refused the file but no line was found at fault' }]);
    if (!opts.allowPartial) {
      await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId}`);
      throw new InputError(problems);
    }
    await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId} AND (bad OR problem IS NOT NULL)`);
    const { spans } = await countStaged(db, fileId);
    return { spans, skipped: problems };
  });
}

/** Key under which each good line carries its line number through the typed re-read. */
const LINE_KEY = 'argspan.input_line';

/**
 * Stage the lines `diagnoseLines` found good, with their line numbers, so malformed spans can be
 * named by line too (they stay in `good_lines`, line and text, for {@link malformedLineSpans}).
 * They are re-read with the same typed read_json as the fast path (a lenient json_transform
 * would turn a value of the wrong type into NULL without a word): each good line
 * is copied, byte for byte but for its line number put first, to a scratch file. When that
 * read fails, some line holds a value of the wrong type (JSON of the right outline, which the
 * line diagnosis passes): the lines are halved until each failing read is one line, which is
 * returned as a problem; all other lines are staged.
 */
async function stageGoodLines(db: Db, fileId: number, file: string, opts: LoadFileOptions, shapes: ValueShapes): Promise<InputProblem[]> {
  await db.run(`CREATE OR REPLACE TEMP TABLE good_lines AS
    SELECT line, '{"${LINE_KEY}":' || line || ',' || substr(ltrim(l, ' \t\r' || chr(65279)), 2) AS text FROM diag_lines WHERE ok`);
  await db.run('DROP TABLE diag_lines');
  const lines = (await db.all('SELECT line FROM good_lines ORDER BY line')).map((r) => Number(r.line));
  const problems: InputProblem[] = [];
  /** Stage the good lines `lines[from..to)`; false, with nothing staged, when a value in one of them has the wrong type. */
  const stage = async (from: number, to: number): Promise<{ ok: true } | { ok: false; err: unknown }> => {
    const scratch = join(opts.tmpDir, `good-lines-${fileId}.jsonl`);
    await copyGoodLines(db, `line BETWEEN ${lines[from]!} AND ${lines[to - 1]!}`, scratch);
    try {
      await db.run(stageOtlpSql(fileId, goodLinesSource(scratch, opts, shapes), 'line', shapes));
      return { ok: true };
    } catch (err) {
      if (isOutOfMemory(err)) throw err;
      return { ok: false, err };
    } finally {
      rmSync(scratch, { force: true });
    }
  };
  // A statement that fails stages nothing, so the lines are halved until each failing read is one
  // line: that line is named, the rest staged (one bad line costs about two reads of the file).
  const bisect = async (from: number, to: number): Promise<void> => {
    if (from >= to) return;
    const staged = await stage(from, to);
    if (staged.ok) return;
    if (to - from === 1) {
      problems.push({ file, line: lines[from]!, reason: `a value of the wrong type for its field (${describeDuckDbError(staged.err)})` });
      if (problems.length >= MAX_WRONG_TYPE_LINES) throw new TooManyWrongTypeLines();
      return;
    }
    const mid = (from + to) >>> 1;
    await bisect(from, mid);
    await bisect(mid, to);
  };
  try {
    await bisect(0, lines.length);
  } catch (err) {
    if (!(err instanceof TooManyWrongTypeLines)) throw err;
    await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId}`);
    throw new InputError([...problems, { file, reason: `${MAX_WRONG_TYPE_LINES} or more lines hold a value of the wrong type for its field; stopped looking` }]);
  }
  return problems;
}

/** Copy the good lines `where` holds, byte for byte (with their line numbers first), to `scratch`, in order. */
async function copyGoodLines(db: Db, where: string, scratch: string): Promise<void> {
  await db.run(`COPY (SELECT text FROM good_lines WHERE ${where} ORDER BY line) TO ${sqlString(scratch)} (FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER E'\\x01')`);
}

/** The typed read of good lines copied to `scratch` (each with its line number first, see {@link stageGoodLines}). */
function goodLinesSource(scratch: string, opts: LoadFileOptions, shapes: ValueShapes): string {
  const columns = columnsArg({ [LINE_KEY]: 'INTEGER', resourceSpans: otlpTypes(shapes).resourceSpans });
  return `(SELECT "${LINE_KEY}" AS line, resourceSpans FROM read_json(${sqlString(scratch)}, format='newline_delimited', records=true, maximum_object_size=${opts.maxLineBytes + 64}, columns=${columns}))`;
}

/**
 * The malformed spans staged from the good lines, named by line and, where a line holds more
 * than one span, by where in it they are (`path`, as {@link malformedSpansAt} words it): only the
 * lines holding a malformed span are read again, with the staging query's ordinality.
 */
async function malformedLineSpans(db: Db, fileId: number, file: string, opts: LoadFileOptions, shapes: ValueShapes, path: SpanPath): Promise<InputProblem[]> {
  const malformed = `SELECT DISTINCT line FROM span_structs WHERE file_id = ${fileId} AND NOT bad AND problem IS NOT NULL`;
  if (Number((await db.one(`SELECT count(*) AS n FROM (${malformed})`)).n) === 0) return [];
  const scratch = join(opts.tmpDir, `malformed-lines-${fileId}.jsonl`);
  try {
    await copyGoodLines(db, `line IN (${malformed})`, scratch);
    return await placedMalformedSpans(db, fileId, file, { sql: malformedOtlpSpansSql(goodLinesSource(scratch, opts, shapes), 'line', shapes), path });
  } finally {
    rmSync(scratch, { force: true });
  }
}

/** Lines with a wrong-typed value named at most, each found by halving: past it the file is refused whole. */
const MAX_WRONG_TYPE_LINES = 100;

class TooManyWrongTypeLines extends Error {}

/** Put line numbers into a one-column temp table (an appender: the list may be long). */
async function linesTable(db: Db, table: string, lines: readonly number[]): Promise<void> {
  await db.run(`CREATE OR REPLACE TEMP TABLE ${table} (line INTEGER)`);
  const appender = await db.conn.createAppender(table, 'main', 'temp');
  for (const line of lines) {
    appender.appendInteger(line);
    appender.endRow();
  }
  appender.closeSync();
}

/**
 * Read a JSON-lines file line by line (DuckDB decompresses) and name every bad line. Leaves
 * `diag_lines` (line, l, ok). DuckDB cannot read a line that is not UTF-8 (and its error quotes
 * the line): such lines, known from the byte scan, are left out of the read, and the line
 * numbers of the rest are shifted back into place.
 */
async function diagnoseLines(db: Db, file: string, detected: DetectedInput, maxLineBytes: number, scan: ByteScanResult & Pick<TraceFileScan, 'tooLong'>): Promise<InputProblem[]> {
  // Lines DuckDB is not given: not UTF-8 (its error would quote the line), or longer than the limit
  // (the byte scan measured them; held whole they could take gigabytes). The rest are numbered back into place.
  const utf8 = new Set(scan.invalidUtf8);
  const tooLong = scan.tooLong.filter((t) => !utf8.has(t.line));
  const skipped = [...scan.invalidUtf8, ...tooLong.map((t) => t.line)].sort((a, b) => a - b);
  // (DuckDB refuses a line whose bytes and line break are past its max_line_size)
  const maxLineSize = tooLong.length > 0 ? maxLineBytes + (detected.crlf ? 2 : 1) : undefined;
  try {
    await db.run(`CREATE OR REPLACE TEMP TABLE diag_lines AS SELECT CAST(row_number() OVER () AS INTEGER) AS line, l, NULL::VARCHAR AS reason FROM ${linesRelation(file, detected.compression, detected.crlf, maxLineSize, skipped.length > 0)}`);
  } catch (err) {
    if (isOutOfMemory(err)) throw err;
    throw new InputError([{ file, reason: `could not be read line by line: ${describeDuckDbError(err)}` }]);
  }
  if (skipped.length > 0) {
    const rows = Number((await db.one('SELECT count(*) AS n FROM diag_lines')).n);
    if (rows + skipped.length !== scan.lines) {
      const what = tooLong.length === 0 ? 'invalid UTF-8' : utf8.size === 0 ? 'lines too long to read' : 'invalid UTF-8 and lines too long to read';
      throw new InputError([{ file, reason: `${what}, and its lines could not be told apart from the rest` }]);
    }
    await linesTable(db, 'skipped_lines', skipped);
    // The skipped line with rank k has (line - k) read lines before it: a read row r comes after every skipped line with fewer.
    await db.run(`CREATE OR REPLACE TEMP TABLE skipped_gaps AS SELECT line - row_number() OVER (ORDER BY line) AS read_before FROM skipped_lines;
      UPDATE diag_lines d SET line = d.line + (SELECT count(*) FROM skipped_gaps g WHERE g.read_before < d.line);
      DROP TABLE skipped_gaps; DROP TABLE skipped_lines;`);
  }
  if (scan.tooDeep.length) {
    await linesTable(db, 'deep_lines', scan.tooDeep);
    await db.run(`UPDATE diag_lines SET reason = ${sqlString(TOO_DEEP)} WHERE line IN (SELECT line FROM deep_lines); DROP TABLE deep_lines;`);
  }
  await db.run(`UPDATE diag_lines SET reason = CASE
      WHEN strlen(l) > ${maxLineBytes} THEN 'line is ' || strlen(l) || ${sqlString(tooLongTail(maxLineBytes))}
      WHEN NOT json_valid(l) THEN CASE WHEN json_valid(regexp_replace(l, ${sqlString(SURROGATE_ESCAPE)}, '\\\\ufffd', 'g')) THEN ${sqlString(LONE_SURROGATE)} ELSE 'not valid JSON (a truncated or corrupt line)' END
      WHEN json_type(l) <> 'OBJECT' THEN 'JSON of another shape: not an object'
      WHEN json_type(l, '$.resourceLogs') = 'ARRAY' AND json_type(l, '$.resourceSpans') IS NULL THEN ${sqlString(LOGS_AMONG_TRACES)}
      WHEN json_type(l, '$.resourceSpans') IS DISTINCT FROM 'ARRAY' THEN 'JSON of another shape: no "resourceSpans" array'
    END WHERE reason IS NULL AND l IS NOT NULL AND trim(l) <> ''`);
  await db.run(`ALTER TABLE diag_lines ADD COLUMN ok BOOLEAN; UPDATE diag_lines SET ok = (reason IS NULL AND l IS NOT NULL AND trim(l) <> '')`);
  const rows = await db.all(`SELECT line, reason FROM diag_lines WHERE reason IS NOT NULL ORDER BY line`);
  const problems: InputProblem[] = rows.map((r) => ({ file, line: Number(r.line), reason: String(r.reason) }));
  for (const line of scan.invalidUtf8) problems.push({ file, line, reason: 'invalid UTF-8' });
  for (const { line, bytes } of tooLong) problems.push({ file, line, reason: tooLongReason(String(bytes), maxLineBytes) });
  return problems.sort((a, b) => a.line! - b.line!);
}

/** A `\\u` escape of a UTF-16 surrogate: lone ones are JSON's grammar but no character, and DuckDB refuses the line. */
const SURROGATE_ESCAPE = String.raw`\\u[dD][89a-fA-F][0-9a-fA-F]{2}`;
/** Why a line valid but for such escapes is refused (a text cut inside an emoji and written with ASCII escapes, as Python's json does). */
const LONE_SURROGATE = 'a \\u escape of half a character (a lone UTF-16 surrogate, as a text cut inside an emoji is written): JSON DuckDB cannot read';

function tooLongReason(bytes: string, maxLineBytes: number): string {
  return `line is ${bytes}${tooLongTail(maxLineBytes)}`;
}

function tooLongTail(maxLineBytes: number): string {
  return ` bytes, larger than the maximum JSON object size (${maxLineBytes} bytes; raise it with --max-line-bytes)`;
}

/**
 * The collector file exporter's framed output: a 4-byte big-endian length before each message.
 * Each message (plain JSON, gzip or zstd, decompressed here with a size cap so a decompression
 * bomb cannot exhaust memory) becomes one JSON line, so line numbers are message numbers.
 * Protobuf messages are reported as not supported.
 */
async function loadFramed(db: Db, fileId: number, file: string, opts: LoadFileOptions): Promise<Pick<FileLoad, 'spans' | 'skipped' | 'logRecords' | 'otherLogRecords' | 'agentLogRecords' | 'logBytes'>> {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  const skipped: InputProblem[] = [];
  // DuckDB refuses a line past about twice the maximum object size; a message is never allowed more.
  const maxMessageBytes = 2 * opts.maxLineBytes;
  let kind: Compression | undefined;
  const target = join(opts.tmpDir, `framed-${fileId}.json`);
  writeFileSync(target, '');
  let at = 0;
  let n = 0;
  /** Whether a message holds log records (the exporter in a logs pipeline too). */
  let logs = false;
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
      kind ??= c;
      // Every message written after this one is one line; a skipped message stays an empty line, so line n is message n.
      let body: Buffer = Buffer.alloc(0);
      if (kind !== c) skipped.push({ file, line: n, reason: `framed message ${n} uses a different compression than message 1` });
      else {
        try {
          body = c === 'gzip' ? gunzipSync(msg, { maxOutputLength: maxMessageBytes }) : c === 'zstd' ? await decompressZstd(msg, maxMessageBytes) : msg;
        } catch (err) {
          skipped.push({ file, line: n, reason: `framed message ${n}: ${messageFailure(err, c)}` });
        }
      }
      if (body.length > 0 && body[0] !== 0x7b) throw new InputError([{ file, line: n, reason: PROTOBUF }]);
      logs ||= isLogsLine(body.toString('latin1', 0, 64));
      appendFileSync(target, Buffer.concat([body, Buffer.from('\n')]));
    }
  } finally {
    closeSync(fd);
  }
  if (skipped.length && !opts.allowPartial) throw new InputError(skipped);
  if (kind === undefined) throw new InputError([{ file, reason: 'no complete framed message' }]);
  if (logs) {
    const ofFile = problemsOf(file, 'framed message');
    const r = await loadLogs(db, fileId, target, { format: 'otlp-logs', compression: 'none' }, opts).catch((err: unknown) => {
      throw err instanceof InputError ? new InputError(err.problems.map(ofFile)) : err;
    });
    return { spans: r.spans, skipped: [...skipped, ...r.skipped.map(ofFile)], logRecords: r.logRecords, otherLogRecords: r.otherLogRecords, agentLogRecords: r.agentLogRecords, logBytes: r.logBytes };
  }
  const r = await loadScratchLines(db, fileId, file, target, opts, { unit: 'framed message' });
  return { spans: r.spans, skipped: [...skipped, ...r.skipped] };
}

/**
 * The OpenTelemetry JS SDK's objects written as JSON one after another (Gemini CLI's
 * `telemetry.outfile`; see `sdk-objects.ts`), read whole (up to {@link MAX_CONVERTED_BYTES}): each
 * span and log record made one OTLP JSON line of a scratch file, line n for the file's n-th
 * object (a metrics export an empty line), then read as OTLP lines are, log records joined to
 * their spans. A problem names the line of the file where its object opens.
 */
async function loadSdkObjects(db: Db, fileId: number, file: string, detected: DetectedInput, opts: LoadFileOptions): Promise<Pick<FileLoad, 'spans' | 'skipped' | 'logRecords' | 'otherLogRecords' | 'agentLogRecords' | 'logBytes'>> {
  const bytes = await readConverted(file, 'file of OpenTelemetry SDK objects', detected.compression);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new InputError([{ file, reason: 'invalid UTF-8' }]);
  }
  const { values, stop, tooDeep } = splitJsonObjects(text);
  const deep = new Set(tooDeep);
  const problems: InputProblem[] = [];
  const target = join(opts.tmpDir, `sdk-objects-${fileId}.jsonl`);
  const lines = new LineWriter(target);
  let logs = false;
  try {
    values.forEach((v, i) => {
      if (deep.has(v.line)) return problems.push({ file, line: v.line, reason: TOO_DEEP });
      const converted = sdkObjectLine(text.slice(v.start, v.end));
      if (converted.kind === 'problem') problems.push({ file, line: v.line, reason: converted.reason });
      else if (converted.kind !== 'metrics') {
        lines.write(i + 1, converted.line);
        logs ||= converted.kind === 'log';
      }
    });
    if (stop) problems.push({ file, ...stop });
    lines.close();
    if (problems.length > 0 && !opts.allowPartial) throw new InputError(problems);
    if (!lines.opened) return { spans: 0, skipped: problems };
    // (a scratch line's problem is its object's: named at the line the object opens)
    const ofFile = (p: InputProblem): InputProblem => ({ ...p, file, ...(p.line !== undefined ? { line: values[p.line - 1]?.line ?? p.line } : {}) });
    const read = await (logs ? loadLogs(db, fileId, target, { format: 'otlp-logs', compression: 'none' }, opts) : loadLines(db, fileId, target, { format: 'otlp-lines', compression: 'none' }, opts)).catch((err: unknown) => {
      throw err instanceof InputError ? new InputError(err.problems.map(ofFile)) : err;
    });
    return { ...read, skipped: [...problems, ...read.skipped.map(ofFile)].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  } finally {
    lines.close();
    rmSync(target, { force: true });
  }
}

/**
 * Genkit's log store (see `genkit-logs.ts`): each record made the OTLP logs line it came from, line
 * for line into a scratch file, then read as an OTLP logs export is (an application's records read
 * for credentials); a problem names the line of the file.
 */
async function loadGenkitLogs(db: Db, fileId: number, file: string, detected: DetectedInput, opts: LoadFileOptions): Promise<Pick<FileLoad, 'spans' | 'skipped' | 'logRecords' | 'otherLogRecords' | 'agentLogRecords' | 'logBytes'>> {
  const target = join(opts.tmpDir, `genkit-logs-${fileId}.jsonl`);
  const tooLong: InputProblem[] = [];
  try {
    await rewriteLinesOfFile(file, detected.compression, target, (raw) => genkitLogLine(raw), (line) => tooLong.push({ file, line, reason: LINE_TOO_LONG }));
    if (tooLong.length > 0 && !opts.allowPartial) throw new InputError(tooLong);
    const ofFile = problemsOf(file);
    const read = await loadLogs(db, fileId, target, { format: 'otlp-logs', compression: 'none' }, opts).catch((err: unknown) => {
      throw err instanceof InputError ? new InputError(err.problems.map(ofFile)) : err;
    });
    return { ...read, skipped: [...tooLong, ...read.skipped.map(ofFile)].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  } finally {
    rmSync(target, { force: true });
  }
}

/** A problem found in a scratch file made from `file`, one line per `unit` (a framed message), as a problem of `file`. */
function problemsOf(file: string, unit?: string): (p: InputProblem) => InputProblem {
  return (p) => ({ ...p, file, reason: p.line && unit ? `${unit} ${p.line}: ${p.reason}` : p.reason });
}

/**
 * snake_case OTLP JSON lines: renamed to camelCase line for line into a scratch file (the lines
 * the byte scan flags copied as they are, for the line-by-line reader to name), then read as
 * OTLP JSON lines.
 */
async function loadSnakeCaseLines(db: Db, fileId: number, file: string, detected: DetectedInput, opts: LoadFileOptions): Promise<{ spans: number; skipped: InputProblem[] }> {
  const scan = await phase(opts.onPhase, 'stage: byte scan', () => scanTraceFile(file, detected.compression, 'lines'));
  const target = join(opts.tmpDir, `camel-case-${fileId}.jsonl`);
  const asIs = new Set([...scan.tooDeep, ...scan.invalidUtf8]);
  const tooLong: InputProblem[] = [];
  await rewriteLinesOfFile(file, detected.compression, target, (raw, line) => camelCaseLine(raw, asIs.has(line)), (line) => tooLong.push({ file, line, reason: LINE_TOO_LONG }));
  if (tooLong.length > 0 && !opts.allowPartial) throw new InputError(tooLong);
  const r = await loadScratchLines(db, fileId, file, target, opts, { path: SPAN_PATHS.otlpSnakeCase });
  return { spans: r.spans, skipped: [...tooLong, ...r.skipped].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
}

/**
 * Read `scratch`, OTLP JSON lines made from `file` one line (or framed message: `unit`) for
 * each, and tell its problems of `file`, a malformed span's place in its line named by `path`
 * (the field names `file` has).
 */
async function loadScratchLines(
  db: Db,
  fileId: number,
  file: string,
  scratch: string,
  opts: LoadFileOptions,
  { unit, path = SPAN_PATHS.otlp }: { unit?: string; path?: SpanPath } = {},
): Promise<{ spans: number; skipped: InputProblem[] }> {
  const ofFile = problemsOf(file, unit);
  const r = await loadLines(db, fileId, scratch, { format: 'otlp-lines', compression: 'none' }, opts, path).catch((err: unknown) => {
    if (err instanceof InputError) throw new InputError(err.problems.map(ofFile));
    throw err;
  });
  return { spans: r.spans, skipped: r.skipped.map(ofFile) };
}

function messageFailure(err: unknown, c: Compression): string {
  if (err instanceof RangeError || (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return 'decompressed, it is larger than the maximum JSON object size (raise it with --max-line-bytes)';
  if (err instanceof ZstdDataError) return err.message;
  if (c === 'gzip') return 'gzip data is corrupt';
  throw err;
}

/**
 * An OTLP logs export (see `otlp-logs.ts`): its GenAI log records staged in `log_events`, which
 * `loadTraces` makes their spans' events once every file is in; lines of traces in the same file
 * (one exporter writing both signals) staged as spans, read as OTLP JSON lines are. A record that
 * cannot be read (no span to join it to, a value of the wrong type) is named by its place and
 * fails the file unless `allowPartial`. JSON lines (the collector's file exporter) are streamed,
 * whatever their size; a single document is read whole, up to {@link MAX_CONVERTED_BYTES}.
 */
async function loadLogs(
  db: Db,
  fileId: number,
  file: string,
  detected: DetectedInput,
  opts: LoadFileOptions,
): Promise<Required<Pick<FileLoad, 'spans' | 'skipped' | 'logRecords' | 'otherLogRecords' | 'agentLogRecords' | 'logBytes'>>> {
  const lines = await firstLineIsJson(file, detected.compression);
  const scan = await phase(opts.onPhase, 'stage: byte scan', () => scanTraceFile(file, detected.compression, lines ? 'lines' : 'document'));
  if (!lines && scanProblems(file, scan).length > 0) throw new InputError(scanProblems(file, scan));
  const unreadable = new Map<number, string>([...scan.tooDeep.map((l) => [l, TOO_DEEP] as const), ...scan.invalidUtf8.map((l) => [l, 'invalid UTF-8'] as const)]);
  const events = new LogEventsFile(join(opts.tmpDir, `log-events-${fileId}.jsonl`));
  const scratch = join(opts.tmpDir, `traces-in-logs-${fileId}.jsonl`);
  const traceLines = new LineWriter(scratch);
  // An application's own records: their texts read for credentials as they stream by, only the hits kept.
  const credentials = opts.hashKey ? new LogRecordCredentials(createValueHasher(opts.hashKey)) : undefined;
  // (And the resource and scope of every record, GenAI records too: a logs export's resource need not be its traces'.)
  const credentialScan = credentials && {
    onOtherRecord: (record: unknown) => {
      const r = otherRecordTexts(record);
      if (r) for (const t of r.texts) credentials.text(r.traceId, r.spanId, r.timeUnixNano, t);
    },
    onSharedTexts: (timeUnixNano: string | null, shared: readonly LogRecordText[]) => {
      for (const t of shared) credentials.text(null, null, timeUnixNano, t);
    },
  };
  try {
    const reader = new LogsLineReader(file, (row) => events.write(row), {
      onOtherLine: (raw, line) => traceLines.write(line, raw),
      // (a coding agent's records, spans of their own: read as the traces lines of a file holding both signals are)
      onRecordSpans: (message, line) => traceLines.write(line, message),
      unreadable,
      ...credentialScan,
    });
    if (lines) {
      await readLinesOfFile(file, detected.compression, (raw, line) => reader.line(raw, line), {
        maxLineBytes: MAX_HELD_LINE_BYTES,
        onTooLong: (line) => reader.tooLong(line),
      });
    } else {
      const bytes = await readConverted(file, 'OTLP logs export', detected.compression);
      reader.document(bytes.toString('utf8', bomLength(bytes)));
    }
    traceLines.close();
    const read = reader.result();
    if (read.problems.length > 0 && !opts.allowPartial) throw new InputError(read.problems);
    const skipped = [...read.problems];
    let spans = 0;
    if (traceLines.opened) {
      const traces = await loadScratchLines(db, fileId, file, scratch, opts);
      spans = traces.spans;
      skipped.push(...traces.skipped);
    }
    await events.stage(db, fileId);
    if (credentials) await stageLogRecordCredentials(db, fileId, credentials);
    return { spans, skipped: skipped.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)), logRecords: read.events, otherLogRecords: read.others, agentLogRecords: read.agentRecords, logBytes: events.bytes };
  } finally {
    traceLines.close();
    rmSync(scratch, { force: true });
    events.remove();
  }
}

/** The credentials found in a file's application log records, into `log_record_credential_hits` (hashes only). */
async function stageLogRecordCredentials(db: Db, fileId: number, credentials: LogRecordCredentials): Promise<void> {
  const rows = credentials.rows();
  if (rows.length === 0) return;
  const appender = await db.conn.createAppender('log_record_credential_hits');
  for (const r of rows) {
    appender.appendInteger(fileId);
    for (const v of [r.trace_id, r.span_id, r.scope, r.key, r.rule_id, r.credential_hash]) {
      if (v === null) appender.appendNull();
      else appender.appendVarchar(v);
    }
    appender.appendInteger(r.records);
    if (r.first_time === null) appender.appendNull();
    else appender.appendVarchar(r.first_time);
    appender.endRow();
  }
  appender.closeSync();
}

/** Whether a file is JSON lines: its first line that is not blank a JSON value of its own (else the file is one document). */
async function firstLineIsJson(file: string, compression: Compression): Promise<boolean> {
  let json = false;
  const decided = (lines: boolean) => {
    json = lines;
    throw new StopReading();
  };
  await readLinesOfFile(
    file,
    compression,
    (raw) => {
      const text = raw.toString('utf8');
      if (text.trim() !== '') decided(isJsonLine(text));
    },
    // (a first line too long to hold: read as lines, which names it)
    { maxLineBytes: MAX_HELD_LINE_BYTES, onTooLong: () => decided(true) },
  );
  return json;
}

/**
 * GenAI log records on their way to `log_events`: written to a scratch JSON-lines file as they are
 * read, then read by DuckDB with their types. A record names its resource by number: the
 * resource's attributes go to `log_resources` once, not with each of its records.
 */
class LogEventsFile {
  private readonly records: JsonLinesScratch;
  private readonly resources: JsonLinesScratch;
  /** Resources written, by their JSON text; past {@link RESOURCES_REMEMBERED}, a resource not among them is written again. */
  private readonly resourceNos = new Map<string, number>();
  private lastResource: { of: readonly unknown[]; no: number } | undefined;

  constructor(path: string) {
    this.records = new JsonLinesScratch(path);
    this.resources = new JsonLinesScratch(`${path}.resources`);
  }

  /** Bytes of records written. */
  get bytes(): number {
    return this.records.bytes;
  }

  write({ resource, ...row }: LogEventRow): void {
    this.records.write(JSON.stringify({ ...row, resourceNo: this.resourceNo(resource) }));
  }

  async stage(db: Db, fileId: number): Promise<void> {
    if (this.records.rows === 0) return;
    await db.run(`INSERT INTO log_resources SELECT ${fileId}, "no", hash(attributes), attributes
      FROM ${this.resources.readJson({ no: 'INTEGER', attributes: OTLP_ATTRIBUTES })}`);
    const columns = { traceId: 'VARCHAR', spanId: 'VARCHAR', timeUnixNano: 'VARCHAR', name: 'VARCHAR', attributes: OTLP_ATTRIBUTES, resourceNo: 'INTEGER', scopeName: 'VARCHAR', scopeVersion: 'VARCHAR' };
    await db.run(`INSERT INTO log_events SELECT ${fileId}, row_number() OVER (), traceId, spanId, TRY_CAST(timeUnixNano AS BIGINT), resourceNo, scopeName, scopeVersion,
      {timeUnixNano: timeUnixNano, "name": "name", attributes: attributes}::${LOG_EVENT_TYPE}
      FROM ${this.records.readJson(columns)}`);
  }

  remove(): void {
    this.records.remove();
    this.resources.remove();
  }

  /** The number of a resource's attributes in this file (the records of one resource share its list). */
  private resourceNo(resource: readonly unknown[]): number {
    if (this.lastResource?.of === resource) return this.lastResource.no;
    const text = JSON.stringify(resource);
    let no = this.resourceNos.get(text);
    if (no === undefined) {
      no = this.resources.rows;
      this.resources.write(`{"no":${no},"attributes":${text}}`);
      if (this.resourceNos.size < RESOURCES_REMEMBERED) this.resourceNos.set(text, no);
    }
    this.lastResource = { of: resource, no };
    return no;
  }
}

/** Distinct resources a {@link LogEventsFile} remembers (an export has a few: one per process that wrote it). */
const RESOURCES_REMEMBERED = 4096;

/** A scratch file of JSON lines, written a megabyte at a time, for DuckDB to read with given types. */
class JsonLinesScratch {
  private readonly fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private largest = 0;
  rows = 0;
  bytes = 0;

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    this.largest = Math.max(this.largest, bytes);
    this.pending.push(line);
    this.pendingBytes += bytes + 1;
    this.bytes += bytes + 1;
    this.rows++;
    if (this.pendingBytes >= 1 << 20) this.flush();
  }

  /** SQL: the lines written, as a `read_json` of `columns` (what is pending written first). */
  readJson(columns: Record<string, string>): string {
    this.flush();
    // The reader reserves buffer for its largest object: the largest line, not the document readers' 1 GiB.
    return `read_json(${sqlString(this.path)}, format='newline_delimited', records=true, maximum_object_size=${this.largest + 1024}, columns=${columnsArg(columns)})`;
  }

  remove(): void {
    closeSync(this.fd);
    rmSync(this.path, { force: true });
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    writeSync(this.fd, this.pending.join('\n') + '\n');
    this.pending = [];
    this.pendingBytes = 0;
  }
}
