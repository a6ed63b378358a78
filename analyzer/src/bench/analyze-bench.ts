/**
 * `npm run bench:analyze [-- --spans N] [-- --scale-spans M]`
 *
 * Generates N spans (default 1,000,000) of realistic argspan traces as OTLP JSON lines in a temp
 * dir, then times in this same process:
 *   (a) DuckDB's own typed read of the file into a table (read_json with the explicit OTLP
 *       column types; the auto-detected read is printed too, for reference), and
 *   (b) the full analyze(): format detection, load, de-duplication, normalisation, argspan
 *       tables, credential re-scan, every gate rule and check.
 * Prints b/a (target <= 1.5), peak RSS (target <= 2 GB) and a scaling check against a second
 * size (default N/4; pass --scale-spans 4000000 for the 4M check), as time per span.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../analyze.js';
import { Db } from '../db.js';
import { OTLP_RESOURCE_SPANS, columnsArg, sqlString } from '../load/duckdb-types.js';
import { writeRealisticTraces } from '../synth/realistic.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
  return v;
}

const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function timed(label: string, fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  console.log(`  ${label.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(7)} s   peak RSS ${rssMb()} MB`);
  return ms;
}

async function duckdbRead(file: string, explicit: boolean): Promise<void> {
  const db = await Db.open();
  try {
    const cols = explicit ? `, format='newline_delimited', columns=${columnsArg({ resourceSpans: OTLP_RESOURCE_SPANS })}` : '';
    await db.run(`CREATE TABLE t AS SELECT * FROM read_json(${sqlString(file)}${cols})`);
  } finally {
    db.close();
  }
}

async function measure(dir: string, spans: number): Promise<{ spans: number; a: number; b: number }> {
  const file = join(dir, `traces-${spans}.jsonl`);
  const t = performance.now();
  const written = await writeRealisticTraces(file, spans);
  console.log(`\n${written} spans, ${(statSync(file).size / 1e6).toFixed(0)} MB of OTLP JSON lines (generated in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  const a1 = await timed('(a) DuckDB typed read_json -> table', () => duckdbRead(file, true));
  await timed('    (for reference) auto-detected read_json', () => duckdbRead(file, false));
  let findings = 0;
  const b = await timed('(b) full analyze()', async () => {
    const r = await analyze({ paths: [file] });
    findings = r.findings.length;
    if (r.stats.spans !== written) throw new Error(`analyze loaded ${r.stats.spans} spans, expected ${written}`);
  });
  const a2 = await timed('(a) DuckDB typed read_json -> table, again', () => duckdbRead(file, true));
  const a = Math.min(a1, a2);
  console.log(`  findings: ${findings}`);
  console.log(`  ratio b/a = ${(b / a).toFixed(2)}  (target <= 1.5; a = best of two reads)`);
  rmSync(file);
  return { spans: written, a, b };
}

async function main(): Promise<void> {
  const n = arg('--spans', 1_000_000);
  const m = arg('--scale-spans', Math.max(1, Math.floor(n / 4)));
  const dir = mkdtempSync(join(tmpdir(), 'argspan-bench-'));
  try {
    console.log(`argspan analyze benchmark: ${n} spans, scaling check against ${m} spans`);
    const small = await measure(dir, Math.min(n, m));
    const big = await measure(dir, Math.max(n, m));
    const perSpan = (r: { spans: number; b: number }) => (r.b * 1000) / r.spans;
    console.log('\nscaling (full analyze, time per span):');
    console.log(`  ${small.spans} spans: ${perSpan(small).toFixed(2)} µs/span`);
    console.log(`  ${big.spans} spans: ${perSpan(big).toFixed(2)} µs/span`);
    console.log(`  ${big.spans}/${small.spans} time ratio ${(big.b / small.b).toFixed(2)} for ${(big.spans / small.spans).toFixed(2)}x the spans (linear = ${(big.spans / small.spans).toFixed(2)})`);
    console.log(`peak RSS ${rssMb()} MB (target <= 2048 MB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
