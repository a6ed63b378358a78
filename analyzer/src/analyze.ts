import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResourceAttributes, type Residency } from '@argspan/conventions';
import { DEFAULT_GATE_POLICY, createValueHasher } from '@argspan/core';
import { randomBytes } from 'node:crypto';
import { loadForeignCalls } from './foreign/load-foreign.js';
import { readBaseline } from './baseline.js';
import { scanCredentials } from './credential-scan.js';
import { Db } from './db.js';
import { SCHEMA_TABLES, exportParquet } from './export-parquet.js';
import { sqlString } from './load/duckdb-types.js';
import { expandPathsStrict } from './load/expand-paths.js';
import { DEFAULT_MAX_LINE_BYTES } from './load/load-file.js';
import { loadTraces } from './load/load-traces.js';
import { phase } from './phases.js';
import { loadRules } from './rules/rule-file.js';
import { runRules } from './rules/run-rules.js';
import type { AnalysisResult, AnalyzeOptions } from './types.js';

/** DuckDB memory limit of a run unless `memoryLimit` says otherwise: keeps peak RSS well under 2 GB. */
export const DEFAULT_MEMORY_LIMIT = '1.25GB';

/**
 * Load trace exports into DuckDB, run the rules and return the findings. Throws `InputError`
 * for unreadable input (unless `allowPartial` leaves something readable) and `RuleError` for a
 * broken rule file: a CI gate never reports "clean" for data it could not read.
 */
export async function analyze(options: AnalyzeOptions): Promise<AnalysisResult> {
  const started = performance.now();
  const rules = loadRules(options.rulesDirs ?? []).filter((r) => options.reports || r.kind !== 'report');
  const suppress = options.baseline ? readBaseline(options.baseline) : new Set<string>();
  const files = expandPathsStrict(options.paths);
  const spill = mkdtempSync(join(tmpdir(), 'argspan-duckdb-'));
  const db = await Db.open(options.dbPath, {
    threads: String(options.threads ?? availableParallelism()),
    memory_limit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
    temp_directory: spill,
  }).catch((err: unknown) => {
    rmSync(spill, { recursive: true, force: true });
    throw new Error(`DuckDB did not accept the settings (memoryLimit ${JSON.stringify(options.memoryLimit ?? DEFAULT_MEMORY_LIMIT)}, threads ${options.threads ?? 'default'}): ${err instanceof Error ? err.message : String(err)}`);
  });
  try {
    if (options.dbPath) {
      // Replace the analyzer's own objects in an existing database file; leave anything else alone.
      // Views first (they depend on the tables); each object is dropped as what it is, since an
      // older version may have written a view's name as a table.
      const ours = new Set<string>([...SCHEMA_TABLES, 'span_structs']);
      const existing = await db.all(`SELECT table_name AS name, table_type AS type FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_type = 'VIEW' DESC`);
      for (const o of existing.filter((o) => ours.has(String(o.name)))) await db.run(`DROP ${o.type === 'VIEW' ? 'VIEW' : 'TABLE'} ${o.name}`);
    }
    const load = await loadTraces(db, files, {
      allowPartial: options.allowPartial ?? false,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      ...(options.onProgress ? { onFile: options.onProgress } : {}),
      ...(options.onPhase ? { onPhase: options.onPhase } : {}),
      // The re-scan reads every span's string values: before the derived tables, while all are in memory.
      beforeArgspanTables: () => phase(options.onPhase, 'credential scan', () => scanCredentials(db, undefined, undefined, options.onPhase)).then(() => undefined),
    });
    const denyResidencies = options.denyResidencies ?? DEFAULT_DENY_RESIDENCIES;
    const foreign = await phase(options.onPhase, 'foreign calls', () =>
      loadForeignCalls(db, createValueHasher(options.hashKey ?? randomBytes(32)), { remoteAllowlist: options.remoteAllowlist ?? [], denyResidencies }),
    );
    await phase(options.onPhase, 'policy', () => buildPolicyTables(db, options.remoteAllowlist ?? [], denyResidencies));
    const run = await runRules(db, rules, options.onPhase);
    const parquetDir = options.exportParquetDir;
    if (parquetDir) await phase(options.onPhase, 'export parquet', () => exportParquet(db, parquetDir));
    const findings = run.findings.filter((f) => !suppress.has(f.fingerprint));
    return {
      findings,
      rules,
      stats: {
        files: load.files,
        spans: load.spans,
        duplicate_spans: load.duplicates,
        malformed_lines: load.skipped.length,
        skipped: load.skipped,
        rules_run: rules.length - run.skipped.length,
        rules_skipped: run.skipped,
        suppressed: run.findings.length - findings.length,
        foreign_calls: foreign.calls,
        no_evidence_calls: foreign.noEvidenceCalls,
        time_ms: Math.round(performance.now() - started),
      },
    };
  } finally {
    db.close();
    rmSync(spill, { recursive: true, force: true });
  }
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
    SELECT unnest(coalesce(arr_value, [str_value])) AS tool FROM resource_attributes WHERE "key" = ${sqlString(ResourceAttributes.REMOTE_ALLOWLIST)}) WHERE tool IS NOT NULL`);
  await db.run(`CREATE TABLE deny_residencies (residency VARCHAR)`);
  if (denyResidencies.length) await db.run(`INSERT INTO deny_residencies VALUES ${denyResidencies.map((r) => `(${sqlString(r)})`).join(', ')}`);
}
