import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../db.js';
import { ARGSPAN_TABLE_STEPS } from './argspan-tables.js';
import { sqlString } from './duckdb-types.js';
import { InputError, NoSpansError, type InputProblem } from './input-error.js';
import { loadFile, type LoadFileOptions } from './load-file.js';
import { attachLogEventsSql, CLEANUP_SQL, DEDUP_SQL, NORMALISE_SQL, STAGING_DDL } from './schema.js';
import { JAEGER_MACROS } from './stage-jaeger.js';
import { phase, type PhaseListener } from '../phases.js';
import { CALL_COPIES_SQL } from '../foreign/load-foreign.js';

export interface LoadStats {
  files: number;
  /** Spans in the normalised `spans` table (duplicates counted once). */
  spans: number;
  /** Span copies dropped because the same trace id + span id was already loaded. */
  duplicates: number;
  /** Of the spans, those whose copies differ in content: one is kept, chosen by content (`DEDUP_SQL`), the others kept aside in `dropped_copies`. */
  conflicts: number;
  /** Of those, the spans whose copy not kept may hold a tool call or argument the kept one does not (`CALL_COPIES_SQL`). */
  callConflicts: number;
  /** Lines, messages or files skipped under allow-partial, with where and why. */
  skipped: InputProblem[];
  /** GenAI log records read from OTLP logs exports, each made an event of the span it names. */
  logRecords: number;
  /** The other log records of those exports (no GenAI message event: an application's own logs): counted, and scanned for credentials only (with `hashKey`), not read as tool calls. */
  otherLogRecords: number;
  /** Coding agents' log records (Claude Code, Gemini CLI, Qwen Code, Codex CLI) of those exports, each read as a span of its own. */
  agentLogRecords: number;
  /** Of the spans, those known only from their log records (the logs given without the trace export that holds them). */
  spansOfLogs: number;
}

export interface LoadOptions extends Omit<LoadFileOptions, 'tmpDir'> {
  /** Called before each file, for progress display. */
  onFile?: (index: number, total: number, file: string) => void;
  /** Called after each load phase with its wall and CPU time. */
  onPhase?: PhaseListener;
  /**
   * Run once the spans are normalised, before argspan's derived tables are built: a scan of every
   * span (the credential re-scan) reads them while they are all still in memory, before the
   * derived tables push some of them out to the spill directory under a tight memory limit.
   */
  beforeArgspanTables?: () => Promise<void>;
}

/**
 * Load trace files into the normalised schema. Each file is staged by its own loader, then
 * spans are de-duplicated, normalised and argspan's derived tables built — once.
 * Throws {@link InputError} for any unreadable input unless `allowPartial`; with it, a run
 * where nothing at all was readable still throws. Input that holds no span at all, however
 * well-formed, throws {@link NoSpansError}: there is nothing to call clean — unless it holds log
 * records (an application's own, alone, are scanned for credentials: the run says how many).
 */
export async function loadTraces(db: Db, files: readonly string[], opts: LoadOptions): Promise<LoadStats> {
  await db.run(STAGING_DDL + JAEGER_MACROS);
  const tmpDir = mkdtempSync(join(tmpdir(), 'argspan-analyze-'));
  const skipped: InputProblem[] = [];
  let staged = 0;
  let logRecords = 0;
  let otherLogRecords = 0;
  let agentLogRecords = 0;
  let logBytes = 0;
  try {
    for (const [i, file] of files.entries()) {
      opts.onFile?.(i, files.length, file);
      const fileId = i + 1;
      try {
        const r = await phase(opts.onPhase, 'stage', () => loadFile(db, fileId, file, { ...opts, tmpDir }));
        staged += r.spans;
        logRecords += r.logRecords ?? 0;
        otherLogRecords += r.otherLogRecords ?? 0;
        agentLogRecords += r.agentLogRecords ?? 0;
        logBytes += r.logBytes ?? 0;
        for (const p of r.skipped) skipped.push(p);
        await db.run(`INSERT INTO files VALUES (${fileId}, ${sqlString(file)}, ${sqlString(r.format)}, ${sqlString(r.compression)}, ${r.spans}, ${r.skipped.length})`);
      } catch (err) {
        if (!(err instanceof InputError) || !opts.allowPartial) throw err;
        await db.run(`DELETE FROM span_structs WHERE file_id = ${fileId}; DELETE FROM log_events WHERE file_id = ${fileId}; DELETE FROM log_resources WHERE file_id = ${fileId}; DELETE FROM log_record_credential_hits WHERE file_id = ${fileId}`);
        for (const p of err.problems) skipped.push(p);
        await db.run(`INSERT INTO files VALUES (${fileId}, ${sqlString(file)}, NULL, NULL, 0, ${err.problems.length})`);
      }
    }
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
  if (staged === 0 && logRecords === 0 && otherLogRecords === 0) {
    if (skipped.length > 0) throw new InputError([...skipped, { file: files.join(', '), reason: 'nothing readable was left to analyse' }]);
    throw new NoSpansError(files);
  }
  await phase(opts.onPhase, 'dedup', () => db.run(DEDUP_SQL));
  const conflicts = Number((await db.one('SELECT count(DISTINCT (trace_id, span_id)) AS n FROM dropped_copies')).n);
  const callConflicts = conflicts > 0 ? Number((await db.one(CALL_COPIES_SQL)).n) : 0;
  const spansOfLogs = logRecords > 0 ? await phase(opts.onPhase, 'log records', () => attachLogRecords(db, logBytes)) : 0;
  if (logRecords === 0) await db.run('DROP TABLE log_events; DROP TABLE log_resources');
  await phase(opts.onPhase, 'normalise', () => db.run(NORMALISE_SQL));
  // Staging-only columns go before the derived tables are built, so their memory is free for them.
  await phase(opts.onPhase, 'cleanup', () => db.run(CLEANUP_SQL));
  await opts.beforeArgspanTables?.();
  await phase(opts.onPhase, 'argspan tables', async () => {
    for (const step of ARGSPAN_TABLE_STEPS) await phase(opts.onPhase, `argspan tables: ${step.table}`, () => db.run(step.sql));
  });
  const spans = Number((await db.one('SELECT count(*) AS n FROM spans')).n);
  return { files: files.length, spans, duplicates: staged + spansOfLogs - spans, conflicts, callConflicts, skipped, logRecords, otherLogRecords, agentLogRecords, spansOfLogs };
}

/**
 * Make the staged GenAI log records their spans' events ({@link attachLogEventsSql}), a share of
 * them at a time: grouping every record at once holds them all in memory (600 MB of records ran
 * DuckDB out of its 1.25 GB). Returns how many spans only log records told of.
 */
async function attachLogRecords(db: Db, stagedBytes: number): Promise<number> {
  const { shares, stageSpans } = attachLogEventsSql(Math.max(1, Math.ceil(stagedBytes / LOG_BYTES_PER_SHARE)));
  for (const share of shares) await db.run(share);
  const n = Number((await db.one('SELECT count(*) AS n FROM log_spans')).n);
  await db.run(stageSpans);
  return n;
}

/** Staged log records grouped at once, at most (see {@link attachLogRecords}). */
const LOG_BYTES_PER_SHARE = 32 * 1024 * 1024;
