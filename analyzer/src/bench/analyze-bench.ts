/**
 * `npm run bench:analyze [-- --spans N] [-- --scale-spans M]`
 *
 * Generates N spans (default 1,000,000) of realistic argspan traces as OTLP JSON lines in a temp
 * dir, then times in this same process:
 *   (a) DuckDB's own typed read of the file into a table (read_json with the explicit OTLP
 *       column types; the auto-detected read is printed too, for reference, unless --no-auto-read), and
 *   (b) the full analyze(): format detection, load, de-duplication, normalisation, argspan
 *       tables, credential re-scan, every gate rule and check.
 * Each is run `--runs` times (default 2, alternating) and the best of each is compared: the
 * machine is shared, so the fastest run is the one least disturbed by other jobs.
 * Prints b/a (target <= 1.5) as wall and CPU ratios, the time of each analyze() phase (from
 * its fastest run), peak RSS (target <= 2 GB) and a scaling check against a second size
 * (default N/4; `--spans 4000000 --scale-spans 1000000` for the 4M check), as time per span.
 *
 * `npm run bench:analyze -- --foreign [--spans N]` instead compares other libraries' traces with
 * argspan's own: N spans of foreign agent runs (eight emitters' shapes laid out as their recorded
 * fixtures: tool spans with 5–20-leaf argument blobs, model spans with prompts, the last holding the
 * whole exchange) against N argspan-native spans, each through the full
 * analyze(), alternating, best of `--runs`; prints foreign/native (target <= 2) and peak RSS
 * (target <= 2 GB). `--threads T` runs both with T threads (`1`: other libraries' calls are
 * classified in the main thread).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../analyze.js';
import type { PhaseListener } from '../phases.js';
import { Db } from '../db.js';
import { OTLP_RESOURCE_SPANS, columnsArg, sqlString } from '../load/duckdb-types.js';
import { writeForeignTraces } from '../synth/foreign-traces.js';
import { writeRealisticTraces } from '../synth/realistic.js';
import { arg } from './args.js';

interface Timing {
  /** Wall time, ms. */
  wall: number;
  /** CPU time of this process (JS and DuckDB's threads), ms: steadier than wall time on a shared machine. */
  cpu: number;
  /** Highest resident set size seen while it ran (sampled every 50 ms), MiB (as "MB" in the output, like maxRSS). */
  rss: number;
}

async function timed(label: string, fn: () => Promise<unknown>): Promise<Timing> {
  let rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  const sampler = setInterval(() => (rss = Math.max(rss, Math.round(process.memoryUsage().rss / 2 ** 20))), 50);
  const t = performance.now();
  const c = process.cpuUsage();
  try {
    await fn();
  } finally {
    clearInterval(sampler);
  }
  const wall = performance.now() - t;
  const used = process.cpuUsage(c);
  const cpu = (used.user + used.system) / 1000;
  console.log(`  ${label.padEnd(44)} ${(wall / 1000).toFixed(2).padStart(7)} s wall ${(cpu / 1000).toFixed(2).padStart(7)} s cpu   RSS peak ${rss} MB`);
  return { wall, cpu, rss };
}

const best = (x: Timing, y: Timing): Timing => ({ wall: Math.min(x.wall, y.wall), cpu: Math.min(x.cpu, y.cpu), rss: Math.max(x.rss, y.rss) });

async function duckdbRead(file: string, explicit: boolean): Promise<void> {
  const db = await Db.open();
  try {
    const cols = explicit ? `, format='newline_delimited', columns=${columnsArg({ resourceSpans: OTLP_RESOURCE_SPANS })}` : '';
    await db.run(`CREATE TABLE t AS SELECT * FROM read_json(${sqlString(file)}${cols})`);
  } finally {
    db.close();
  }
}

interface Phase {
  name: string;
  wall: number;
  cpu: number;
}

/**
 * Print the phases of one analyze() run; the rules are summed into one line plus the three
 * costliest, and sub-phases (`phase: part`) are shown under their phase, not summed again.
 */
function printPhases(phases: readonly Phase[], total: Timing): void {
  const isRule = (p: Phase) => p.name.startsWith('rule ');
  const isPart = (p: Phase) => p.name.includes(': ');
  const rules = phases.filter(isRule);
  const byName = new Map<string, Phase>();
  for (const p of phases.filter((p) => !isRule(p) && !isPart(p))) {
    const seen = byName.get(p.name);
    byName.set(p.name, seen ? { name: p.name, wall: seen.wall + p.wall, cpu: seen.cpu + p.cpu } : p);
  }
  const shown = [...byName.values()];
  if (rules.length) shown.push({ name: `rules (${rules.length})`, wall: rules.reduce((s, p) => s + p.wall, 0), cpu: rules.reduce((s, p) => s + p.cpu, 0) });
  const accounted = shown.reduce((s, p) => s + p.wall, 0);
  console.log('  phases of the fastest analyze() run:');
  const line = (p: Phase, indent = '    ') =>
    console.log(`${indent}${p.name.padEnd(44 - indent.length)} ${(p.wall / 1000).toFixed(2).padStart(7)} s wall ${(p.cpu / 1000).toFixed(2).padStart(7)} s cpu  ${((100 * p.wall) / total.wall).toFixed(0).padStart(3)}%`);
  for (const p of shown) {
    line(p);
    for (const part of phases.filter((x) => isPart(x) && x.name.startsWith(`${p.name}: `))) line(part, '      ');
  }
  for (const p of [...rules].sort((x, y) => y.wall - x.wall).slice(0, 3)) line(p, '      ');
  line({ name: 'other (rule setup, result, close)', wall: total.wall - accounted, cpu: 0 });
}

async function measure(dir: string, spans: number, runs: number, autoRead: boolean): Promise<{ spans: number; a: Timing; b: Timing }> {
  const file = join(dir, `traces-${spans}.jsonl`);
  const t = performance.now();
  const written = await writeRealisticTraces(file, spans);
  console.log(`\n${written} spans, ${(statSync(file).size / 1e6).toFixed(0)} MB of OTLP JSON lines (generated in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  if (autoRead) await timed('    (for reference) auto-detected read_json', () => duckdbRead(file, false));
  let a: Timing | undefined;
  let b: Timing | undefined;
  let phases: Phase[] = [];
  let findings = 0;
  for (let i = 1; i <= runs; i++) {
    const ai = await timed(`(a) DuckDB typed read_json -> table, run ${i}`, () => duckdbRead(file, true));
    a = a ? best(a, ai) : ai;
    const runPhases: Phase[] = [];
    const onPhase: PhaseListener = (name, wall, cpu) => runPhases.push({ name, wall, cpu });
    const bi = await timed(`(b) full analyze(), run ${i}`, async () => {
      const r = await analyze({ paths: [file], onPhase });
      findings = r.findings.length;
      if (r.stats.spans !== written) throw new Error(`analyze loaded ${r.stats.spans} spans, expected ${written}`);
    });
    if (!b || bi.wall < b.wall) phases = runPhases;
    b = b ? best(b, bi) : bi;
  }
  if (!a || !b) throw new Error('--runs must be at least 1');
  console.log(`  findings: ${findings}`);
  printPhases(phases, b);
  console.log(`  best of ${runs}: (a) ${(a.wall / 1000).toFixed(2)} s wall ${(a.cpu / 1000).toFixed(2)} s cpu, (b) ${(b.wall / 1000).toFixed(2)} s wall ${(b.cpu / 1000).toFixed(2)} s cpu`);
  console.log(`  ratio b/a = ${(b.wall / a.wall).toFixed(2)} wall, ${(b.cpu / a.cpu).toFixed(2)} cpu  (target <= 1.5); RSS peak during analyze() ${b.rss} MB (target <= 2048)`);
  rmSync(file);
  return { spans: written, a, b };
}

/** Foreign traces against argspan-native ones of the same span count, through the full analyze(). */
async function measureForeign(dir: string, spans: number, runs: number, threads: number | undefined): Promise<void> {
  const native = join(dir, 'native.jsonl');
  const foreign = join(dir, 'foreign.jsonl');
  const n = await writeRealisticTraces(native, spans);
  const f = await writeForeignTraces(foreign, spans);
  console.log(`native: ${n} spans, ${(statSync(native).size / 1e6).toFixed(0)} MB; foreign: ${f.spans} spans (${f.calls} tool calls), ${(statSync(foreign).size / 1e6).toFixed(0)} MB`);
  let a: Timing | undefined;
  let b: Timing | undefined;
  let phases: Phase[] = [];
  let calls = 0;
  for (let i = 1; i <= runs; i++) {
    const ai = await timed(`(a) analyze() argspan-native, run ${i}`, () => analyze({ paths: [native], ...(threads !== undefined ? { threads } : {}) }));
    a = a ? best(a, ai) : ai;
    const runPhases: Phase[] = [];
    const bi = await timed(`(b) analyze() foreign, run ${i}`, async () => {
      const r = await analyze({ paths: [foreign], ...(threads !== undefined ? { threads } : {}), onPhase: (name, wall, cpu) => runPhases.push({ name, wall, cpu }) });
      calls = r.stats.foreign_calls;
      if (r.stats.spans !== f.spans || calls !== f.calls) throw new Error(`analyze read ${r.stats.spans} spans and ${calls} foreign calls, expected ${f.spans} and ${f.calls}`);
    });
    if (!b || bi.wall < b.wall) phases = runPhases;
    b = b ? best(b, bi) : bi;
  }
  if (!a || !b) throw new Error('--runs must be at least 1');
  console.log(`  foreign tool calls read: ${calls}`);
  printPhases(phases, b);
  console.log(`  best of ${runs}: native ${(a.wall / 1000).toFixed(2)} s wall, foreign ${(b.wall / 1000).toFixed(2)} s wall`);
  console.log(`  ratio foreign/native = ${(b.wall / a.wall).toFixed(2)} wall, ${(b.cpu / a.cpu).toFixed(2)} cpu (target <= 2); RSS peak during the foreign analyze() ${b.rss} MB (target <= 2048)`);
}

async function main(): Promise<void> {
  const n = arg('--spans', 1_000_000);
  if (process.argv.includes('--foreign')) {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-bench-'));
    try {
      const threads = process.argv.includes('--threads') ? arg('--threads', 1) : undefined;
      console.log(`argspan analyze benchmark, other libraries' traces: ${n} spans each, best of ${arg('--runs', 2)} runs, ${threads ?? `${availableParallelism()} (all)`} threads`);
      await measureForeign(dir, n, arg('--runs', 2), threads);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  const m = arg('--scale-spans', Math.max(1, Math.floor(n / 4)));
  const runs = arg('--runs', 2);
  const autoRead = !process.argv.includes('--no-auto-read');
  const dir = mkdtempSync(join(tmpdir(), 'argspan-bench-'));
  try {
    console.log(`argspan analyze benchmark: ${n} spans, scaling check against ${m} spans, best of ${runs} runs each`);
    const small = await measure(dir, Math.min(n, m), runs, autoRead);
    const big = await measure(dir, Math.max(n, m), runs, autoRead);
    const perSpan = (r: { spans: number; b: Timing }, k: keyof Timing) => (r.b[k] * 1000) / r.spans;
    console.log('\nscaling (full analyze, time per span):');
    for (const r of [small, big]) console.log(`  ${r.spans} spans: ${perSpan(r, 'wall').toFixed(2)} µs/span wall, ${perSpan(r, 'cpu').toFixed(2)} µs/span cpu`);
    const x = big.spans / small.spans;
    console.log(`  ${x.toFixed(2)}x the spans took ${(big.b.wall / small.b.wall).toFixed(2)}x the wall time, ${(big.b.cpu / small.b.cpu).toFixed(2)}x the cpu time (linear = ${x.toFixed(2)})`);
    console.log(`RSS peak during analyze(): ${Math.max(small.b.rss, big.b.rss)} MB (target <= 2048 MB); process peak, with the reference reads: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
