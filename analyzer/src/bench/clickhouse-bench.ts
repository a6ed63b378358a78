/**
 * `npm run bench:clickhouse [-- --spans N] [-- --runs K] [-- --foreign]`
 *
 * (`--foreign`: other libraries' agent runs, eight emitters' shapes, instead of argspan's own spans.)
 * The same generated argspan traces (N spans, default 1,000,000) analysed by both engines:
 *   DuckDB      analyze() of the OTLP JSON-lines file (load, normalise, derived tables, rules), and
 *   ClickHouse  analyzeClickHouse() of the same spans in the collector exporter's otel_traces
 *               table (chdb, the real engine in process, on disk), loaded beforehand in the
 *               exporter's row format — the load is the collector's job and is timed apart.
 * Each analysis runs in a child process of its own (so one engine's memory never counts against
 * the other; the peak is the child's maxRSS), `--runs` times alternating (default 1), best of each.
 * Prints wall and CPU time and peak RSS side by side, and checks that both found the same findings.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { analyze } from '../analyze.js';
import { analyzeClickHouse } from '../clickhouse/analyze-clickhouse.js';
import type { PhaseListener } from '../phases.js';
import { chdbClient } from '../synth/chdb-client.js';
import { chString } from '../clickhouse/sql.js';
import { exporterRows, otelTracesDdl } from '../synth/collector-rows.js';
import { writeForeignTraces } from '../synth/foreign-traces.js';
import { writeRealisticTraces } from '../synth/realistic.js';
import { arg } from './args.js';
import type { AnalysisResult } from '../types.js';

const SELF = fileURLToPath(import.meta.url);

/** What one child reports. */
interface Measured {
  wall: number;
  cpu: number;
  /** The child's peak resident set size, MiB. */
  rss: number;
  findings: number;
  /** SHA-256 of the sorted fingerprints: equal when both engines found the same. */
  digest: string;
  spans: number;
  foreignCalls: number;
  phases: { name: string; wall: number }[];
}

/** In a child: run one engine's analysis and print what it measured as one JSON line. */
async function child(engine: string, source: string): Promise<void> {
  const phases: { name: string; wall: number }[] = [];
  const onPhase: PhaseListener = (name, wall) => phases.push({ name, wall });
  const t = performance.now();
  const c = process.cpuUsage();
  let result: AnalysisResult;
  if (engine === 'duckdb') {
    result = await analyze({ paths: [source], onPhase });
  } else {
    const client = chdbClient(source);
    try {
      result = await analyzeClickHouse({ client, onPhase });
    } finally {
      await client.close();
    }
  }
  const used = process.cpuUsage(c);
  const fingerprints = result.findings.map((f) => f.fingerprint).sort();
  const out: Measured = {
    wall: performance.now() - t,
    cpu: (used.user + used.system) / 1000,
    rss: Math.round(process.resourceUsage().maxRSS / 1024),
    findings: result.findings.length,
    digest: createHash('sha256').update(fingerprints.join('\n')).digest('hex').slice(0, 16),
    spans: result.stats.spans,
    foreignCalls: result.stats.foreign_calls,
    phases: [
      ...phases.filter((p) => !p.name.startsWith('rule ') && !p.name.includes(': ')),
      { name: 'rules', wall: phases.filter((p) => p.name.startsWith('rule ')).reduce((sum, p) => sum + p.wall, 0) },
    ],
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function runChild(engine: string, source: string): Measured {
  const r = spawnSync(process.execPath, [SELF, '--child', engine, source], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${engine} run failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measured;
}

/**
 * Write the spans of an OTLP JSON-lines file into chdb's otel_traces at `dir`, as the collector's
 * exporter would: the rows as JSONEachRow in a file beside it, which the engine reads in one INSERT.
 */
async function loadClickHouse(file: string, dir: string): Promise<void> {
  const rowsFile = join(dir, '..', 'otel_traces.ndjson');
  const out = createWriteStream(rowsFile);
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const text = exporterRows(JSON.parse(line)).map((r) => JSON.stringify(r)).join('\n');
    if (!out.write(`${text}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const client = chdbClient(dir);
  try {
    await client.command({ query: otelTracesDdl() });
    await client.command({ query: `INSERT INTO otel_traces SELECT * FROM file(${chString(rowsFile)}, JSONEachRow)` });
    // One part per partition, as in a table the exporter has written into for a while and ClickHouse has merged.
    await client.command({ query: 'OPTIMIZE TABLE otel_traces FINAL' });
  } finally {
    await client.close();
    rmSync(rowsFile, { force: true });
  }
}

const secs = (ms: number) => `${(ms / 1000).toFixed(2).padStart(8)} s`;

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) return child(process.argv[childAt + 1]!, process.argv[childAt + 2]!);
  const spans = arg('--spans', 1_000_000);
  const runs = arg('--runs', 1);
  const dir = mkdtempSync(join(tmpdir(), 'argspan-bench-ch-'));
  try {
    const file = join(dir, 'traces.jsonl');
    let t = performance.now();
    const foreign = process.argv.includes('--foreign');
    // The foreign writer also counts the tool calls it wrote; the span count is what is printed.
    const written = foreign ? (await writeForeignTraces(file, spans)).spans : await writeRealisticTraces(file, spans);
    console.log(`argspan analyze, DuckDB against ClickHouse (chdb in process): ${written} ${foreign ? 'spans of other libraries\' traces' : 'spans'}, ${(statSync(file).size / 1e6).toFixed(0)} MB of OTLP JSON lines (generated in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    t = performance.now();
    const chDir = join(dir, 'chdb');
    const load = spawnSync(process.execPath, [SELF, '--load', file, chDir], { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] });
    if (load.status !== 0) throw new Error('loading ClickHouse failed');
    console.log(`  loaded into otel_traces in the exporter's row format in ${((performance.now() - t) / 1000).toFixed(1)} s (the collector's job; not part of the analysis)`);
    let duck: Measured | undefined;
    let ch: Measured | undefined;
    for (let i = 1; i <= runs; i++) {
      const d = runChild('duckdb', file);
      console.log(`  run ${i}: DuckDB     ${secs(d.wall)} wall ${secs(d.cpu)} cpu   peak RSS ${d.rss} MB   ${d.findings} findings`);
      const c = runChild('clickhouse', chDir);
      console.log(`  run ${i}: ClickHouse ${secs(c.wall)} wall ${secs(c.cpu)} cpu   peak RSS ${c.rss} MB   ${c.findings} findings`);
      if (!duck || d.wall < duck.wall) duck = d;
      if (!ch || c.wall < ch.wall) ch = c;
    }
    if (!duck || !ch) return;
    console.log(`\n  best of ${runs}, ${written} spans:`);
    console.log(`                 analysis wall  analysis cpu   peak RSS`);
    console.log(`  DuckDB     ${secs(duck.wall)}     ${secs(duck.cpu)}   ${String(duck.rss).padStart(6)} MB   (load from the JSON file included: DuckDB has no table to start from)`);
    console.log(`  ClickHouse ${secs(ch.wall)}     ${secs(ch.cpu)}   ${String(ch.rss).padStart(6)} MB   (the table was loaded beforehand)`);
    console.log(`  ratio ClickHouse/DuckDB: ${(ch.wall / duck.wall).toFixed(2)} wall, ${(ch.cpu / duck.cpu).toFixed(2)} cpu, ${(ch.rss / duck.rss).toFixed(2)} peak RSS`);
    console.log(`  same findings: ${duck.digest === ch.digest && duck.findings === ch.findings ? 'yes' : 'NO'} (${duck.findings} / ${ch.findings}); spans ${duck.spans} / ${ch.spans}; other libraries' calls ${duck.foreignCalls} / ${ch.foreignCalls}`);
    console.log('  phases (wall):');
    for (const [name, m] of [['DuckDB', duck], ['ClickHouse', ch]] as const) console.log(`    ${name.padEnd(10)} ${m.phases.map((p) => `${p.name} ${(p.wall / 1000).toFixed(2)} s`).join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--load')) {
  const i = process.argv.indexOf('--load');
  await loadClickHouse(process.argv[i + 1]!, process.argv[i + 2]!);
} else {
  await main();
}
