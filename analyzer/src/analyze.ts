import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ResourceAttributes, type Residency } from '@argspan/conventions';
import { DEFAULT_GATE_POLICY } from '@argspan/core/internal';
import { redactName } from '@argspan/core';
import { randomBytes } from 'node:crypto';
import { loadForeignCalls, type ForeignLoadStats } from './foreign/load-foreign.js';
import { FOREIGN_TABLES } from './foreign/row-tables.js';
import { readBaselineEntries, type BaselineEntry } from './baseline.js';
import { collectOverview } from './overview/collect-overview.js';
import { scanCredentials } from './credential-scan.js';
import { Db } from './db.js';
import { describeDuckDbError, isDuckDbError, isOutOfMemory } from './duckdb-error.js';
import { SCHEMA_TABLES, exportParquet } from './export-parquet.js';
import { sqlString } from './load/duckdb-types.js';
import { expandPathsStrict } from './load/expand-paths.js';
import { DEFAULT_MAX_LINE_BYTES } from './load/load-file.js';
import { loadTraces } from './load/load-traces.js';
import { phase } from './phases.js';
import { loadRules, type Rule } from './rules/rule-file.js';
import { runRules, type Finding, type RuleRun } from './rules/run-rules.js';
import type { AnalysisResult, AnalyzeOptions } from './types.js';
import { UsageError } from './usage-error.js';

/** DuckDB memory limit of a run unless `memoryLimit` says otherwise: keeps peak RSS well under 2 GB. */
export const DEFAULT_MEMORY_LIMIT = '1.25GB';

/**
 * Load trace exports into DuckDB, run the rules and return the findings. Throws `InputError`
 * for unreadable or malformed input (unless `allowPartial` leaves something readable),
 * `RuleError` for a broken rule file and `UsageError` for an option whose value cannot be used
 * (a `--db` file that is not a DuckDB database, an unreadable baseline, a memory limit too
 * small): a CI gate never reports "clean" for data it could not read. Anything else is a bug.
 */
export async function analyze(options: AnalyzeOptions): Promise<AnalysisResult> {
  const started = performance.now();
  const memoryLimit = options.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
  const rules = loadRules(options.rulesDirs ?? []).filter((r) => options.reports || r.kind !== 'report');
  const baselineEntries = options.baseline ? readBaselineOption(options.baseline) : [];
  const suppress = new Set(baselineEntries.map((e) => e.fingerprint));
  if (options.paths.length === 0) throw new UsageError('paths', 'give the trace files, folders or globs to analyse');
  const files = expandPathsStrict(options.paths);
  // An existing file that is not a DuckDB database is refused before DuckDB sees it: DuckDB opens
  // a CSV, JSON or Parquet path as an in-memory database over that file, and nothing would be kept.
  const notDuckDb = options.dbPath !== undefined ? notDuckDbFile(options.dbPath) : undefined;
  if (notDuckDb) throw new UsageError('--db', `${options.dbPath} ${notDuckDb}`);
  const spill = scratchDir();
  const settings = {
    threads: String(options.threads ?? availableParallelism()),
    memory_limit: memoryLimit,
    temp_directory: spill,
  };
  const db = await Db.open(options.dbPath, settings).catch(async (err: unknown) => {
    rmSync(spill, { recursive: true, force: true });
    throw await openFailure(err, options.dbPath, settings);
  });
  try {
    if (options.dbPath) {
      // Replace the analyzer's own objects in an existing database file; leave anything else alone.
      // Views first (they depend on the tables); each object is dropped as what it is, since an
      // older version may have written a view's name as a table.
      const ours = new Set<string>([...SCHEMA_TABLES, 'span_structs', 'dropped_copies', 'dropped_resource_attributes', ...FOREIGN_TABLES]);
      const existing = await db.all(`SELECT table_name AS name, table_type AS type FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_type = 'VIEW' DESC`);
      for (const o of existing.filter((o) => ours.has(String(o.name)))) await db.run(`DROP ${o.type === 'VIEW' ? 'VIEW' : 'TABLE'} ${o.name}`);
    }
    // One key for the run: a credential's hash in credential_hits and in an argument's must agree.
    const hashKey = options.hashKey ?? randomBytes(32);
    const load = await loadTraces(db, files, {
      allowPartial: options.allowPartial ?? false,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      ...(options.onProgress ? { onFile: options.onProgress } : {}),
      ...(options.onPhase ? { onPhase: options.onPhase } : {}),
      hashKey,
      // The re-scan reads every span's string values: before the derived tables, while all are in memory.
      beforeArgspanTables: () => phase(options.onPhase, 'credential scan', () => scanCredentials(db, hashKey, undefined, undefined, options.onPhase)).then(() => undefined),
    });
    const denyResidencies = options.denyResidencies ?? DEFAULT_DENY_RESIDENCIES;
    const foreign = await phase(options.onPhase, 'foreign calls', () =>
      loadForeignCalls(
        db,
        hashKey,
        { remoteAllowlist: options.remoteAllowlist ?? [], denyResidencies },
        { ...(options.onPhase ? { onPhase: options.onPhase } : {}), ...(options.threads !== undefined ? { threads: options.threads } : {}) },
      ),
    );
    await phase(options.onPhase, 'policy', () => buildPolicyTables(db, options.remoteAllowlist ?? [], denyResidencies));
    const run = await runRules(db, rules, options.onPhase);
    const parquetDir = options.exportParquetDir;
    if (parquetDir) await phase(options.onPhase, 'export parquet', () => exportParquet(db, parquetDir)).catch((err: unknown) => {
      throw exportFailure(err, parquetDir);
    });
    const findings = run.findings.filter((f) => !suppress.has(f.fingerprint));
    const baseline = options.baseline;
    const overview = options.overview
      ? await phase(options.onPhase, 'overview', () => collectOverview({ all: (sql) => db.all(sql), quantile: (e, q) => `quantile_cont(${e}, ${q})` }, run.findings, baseline ? { file: baseline, entries: baselineEntries } : undefined))
      : undefined;
    return {
      findings,
      ...(options.baseline ? { suppressed: run.findings.filter((f) => suppress.has(f.fingerprint)) } : {}),
      rules,
      ...(overview ? { overview } : {}),
      stats: {
        files: load.files,
        spans: load.spans,
        duplicate_spans: load.duplicates,
        conflicting_spans: load.conflicts,
        conflicting_call_spans: load.callConflicts,
        malformed_lines: load.skipped.length,
        // (a file is named by whoever wrote it: a credential in its name is redacted, as in a finding)
        skipped: load.skipped.map((p) => ({ ...p, file: redactName(p.file) })),
        ...(load.logRecords > 0 ? { log_records: load.logRecords, spans_from_log_records: load.spansOfLogs } : {}),
        ...(load.otherLogRecords > 0 ? { other_log_records: load.otherLogRecords } : {}),
        ...(load.agentLogRecords > 0 ? { agent_log_records: load.agentLogRecords } : {}),
        ...ruleStats(rules, run, findings, foreign, started),
      },
    };
  } catch (err) {
    if (isOutOfMemory(err)) throw new UsageError('--memory-limit', `DuckDB ran out of memory under the limit of ${memoryLimit}: raise --memory-limit (or lower --threads)`);
    throw err;
  } finally {
    db.close();
    rmSync(spill, { recursive: true, force: true });
  }
}

/** The statistics of a run that every engine counts the same way: rules, suppressions, other libraries' calls, time. */
export function ruleStats(rules: readonly Rule[], run: RuleRun, findings: readonly Finding[], foreign: ForeignLoadStats, started: number) {
  return {
    rules_run: rules.length - run.skipped.length,
    rules_skipped: run.skipped,
    suppressed: run.findings.length - findings.length,
    foreign_calls: foreign.calls,
    no_evidence_calls: foreign.noEvidenceCalls,
    unreadable_args_calls: foreign.unreadableArgsCalls,
    time_ms: Math.round(performance.now() - started),
  };
}

/** DuckDB's spill directory; a temporary folder that cannot be written is the environment's problem, not a bug. */
function scratchDir(): string {
  try {
    return mkdtempSync(join(tmpdir(), 'argspan-duckdb-'));
  } catch (err) {
    throw new UsageError('TMPDIR', `${tmpdir()} cannot hold a temporary folder (${(err as NodeJS.ErrnoException).code ?? 'error'}): point TMPDIR at a writable folder`);
  }
}

export function readBaselineOption(file: string): BaselineEntry[] {
  try {
    return readBaselineEntries(file);
  } catch (err) {
    throw new UsageError('--baseline', err instanceof Error ? err.message : String(err));
  }
}

/**
 * Why DuckDB would not open the database: the `--db` file (not a DuckDB database, a directory,
 * locked by another process, …) or a setting. Never DuckDB's own words, which may quote a file.
 */
export async function openFailure(err: unknown, dbPath: string | undefined, settings: Readonly<{ threads: string; memory_limit: string }>): Promise<Error> {
  const msg = err instanceof Error ? err.message : String(err);
  if (dbPath !== undefined) {
    const why = dbFileProblem(dbPath, msg);
    if (why) return new UsageError('--db', `${dbPath} ${why}`);
  }
  // DuckDB says only "Failed to set config": try each setting alone to name the one it refuses.
  if (!(await Db.accepts({ memory_limit: settings.memory_limit }))) return new UsageError('--memory-limit', `DuckDB refused the memory limit ${JSON.stringify(settings.memory_limit)}`);
  if (!(await Db.accepts({ threads: settings.threads }))) return new UsageError('--threads', `DuckDB refused ${settings.threads} threads`);
  if (dbPath !== undefined) return new UsageError('--db', `${dbPath} could not be opened as a DuckDB database (${describeDuckDbError(err)})`);
  return err instanceof Error ? err : new Error(msg);
}

/** DuckDB database files carry "DUCK" at byte 8 of their header. */
const DUCKDB_MAGIC = Buffer.from('DUCK');

function dbFileProblem(path: string, msg: string): string | undefined {
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return 'is a directory, not a DuckDB database file';
    size = st.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return existsSync(dirname(path)) ? undefined : 'cannot be created: its folder does not exist';
    return `cannot be read (${code})`;
  }
  if (size > 0) {
    const notDuckDb = notDuckDbFile(path);
    if (notDuckDb) return notDuckDb;
  }
  if (/lock/i.test(msg)) return 'is in use by another process (DuckDB could not lock it)';
  if (/version|storage/i.test(msg)) return 'was written by a DuckDB version this one cannot read';
  if (/permission|read-only|EACCES/i.test(msg)) return 'cannot be opened for writing (permission denied)';
  return undefined;
}

/** Why an existing, non-empty file at `path` is not a DuckDB database (its header lacks the magic); undefined for one that is, or for no file. */
function notDuckDbFile(path: string): string | undefined {
  const head = Buffer.alloc(12);
  let fd: number | undefined;
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size === 0) return undefined;
    fd = openSync(path, 'r');
    readSync(fd, head, 0, 12, 0);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : `cannot be read (${code})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return head.subarray(8, 12).equals(DUCKDB_MAGIC) ? undefined : 'is not a DuckDB database file (it is left untouched; give a new file name or an existing DuckDB database)';
}

function exportFailure(err: unknown, dir: string): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return new UsageError('--export-parquet', `${dir} cannot be written (${code})`);
  if (isDuckDbError(err) && !isOutOfMemory(err)) return new UsageError('--export-parquet', `${dir}: Parquet files could not be written (${describeDuckDbError(err)})`);
  return err instanceof Error ? err : new Error(String(err));
}

/** The residencies whose calls the gate denies unless told otherwise (core's `DEFAULT_GATE_POLICY`). */
export const DEFAULT_DENY_RESIDENCIES: readonly Residency[] = DEFAULT_GATE_POLICY.denyResidencies;

/**
 * The policy the rules judge by: `remote_allowlist(tool)` — the tools from the option plus every
 * `argspan.remote.allowlist` resource attribute — and `deny_residencies(residency)`.
 */
async function buildPolicyTables(db: Db, tools: readonly string[], denyResidencies: readonly Residency[]): Promise<void> {
  const given = tools.length ? `SELECT unnest([${tools.map(sqlString).join(', ')}]) AS tool UNION ` : '';
  await db.run(`CREATE TABLE remote_allowlist AS SELECT DISTINCT tool FROM (${given}
    SELECT unnest(coalesce(arr_value, json_text_list(str_value), [str_value])) AS tool FROM resource_attributes WHERE "key" = ${sqlString(ResourceAttributes.REMOTE_ALLOWLIST)}) WHERE tool IS NOT NULL`);
  await db.run(`CREATE TABLE deny_residencies (residency VARCHAR)`);
  if (denyResidencies.length) await db.run(`INSERT INTO deny_residencies VALUES ${denyResidencies.map((r) => `(${sqlString(r)})`).join(', ')}`);
}
