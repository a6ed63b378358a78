/**
 * `npm run bench:report [-- --findings N] [-- --reference-findings M] [-- --spans S] [-- --runs K]`
 *
 * Does a report of many findings open and draw quickly in a real browser, and stay small?
 * Analyses S spans (default 50,000) of realistic argspan traces with the overview, then makes
 * two results from it: N findings (default 100,000) and M (default 1,000), each the analysis's
 * real findings (their rules, tools, keys and messages) repeated onto distinct trace ids, since
 * a trace set that yields 100k findings would take minutes to analyse. Writes each as an HTML
 * report (once plain, once with --jaeger-url, which adds a link per row) and opens it K times
 * (default 3, alternating) in headless Chromium (Debian's package) from a file:// URL, timing
 * navigation to "every chart drawn, two frames painted". Prints the file sizes, the best open
 * time of each, and N's against M's as a ratio. Targets: N opens and draws in under 3 s, and
 * the file stays under 20 MB.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../analyze.js';
import { readChartAssets } from '../reporters/html/chart-assets.js';
import { renderHtmlReport, type HtmlReportOptions } from '../reporters/html/render.js';
import { writeRealisticTraces } from '../synth/realistic.js';
import { repeatFindings } from '../synth/repeat-findings.js';
import type { AnalysisResult } from '../types.js';
import { launchChromium, openReport } from './chromium.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
  return v;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const findingsN = arg('--findings', 100_000);
  const referenceN = arg('--reference-findings', 1_000);
  const spans = arg('--spans', 50_000);
  const runs = arg('--runs', 3);
  const dir = mkdtempSync(join(tmpdir(), 'argspan-report-bench-'));
  const browser = await launchChromium();
  try {
    const traces = join(dir, 'traces.jsonl');
    const written = await writeRealisticTraces(traces, spans);
    const base = await analyze({ paths: [traces], overview: true });
    if (!base.findings.length) throw new Error('the realistic traces gave no findings');
    console.log(`analysed ${written} spans: ${base.findings.length} real findings (${new Set(base.findings.map((f) => f.rule)).size} rule(s)), ${base.overview!.hops.total} hops, ${base.overview!.turns.total_turns} turns with guessed values`);
    const assets = readChartAssets();
    const variants: { label: string; findings: number; options: HtmlReportOptions }[] = [
      { label: `${findingsN} findings`, findings: findingsN, options: {} },
      { label: `${findingsN} findings, --jaeger-url`, findings: findingsN, options: { jaegerUrl: 'http://localhost:16686' } },
      { label: `${referenceN} findings (reference)`, findings: referenceN, options: {} },
    ];
    const reports = variants.map((v, i) => {
      const result = repeatFindings(base, v.findings);
      const t = performance.now();
      const html = renderHtmlReport(result, v.options, assets);
      const renderMs = performance.now() - t;
      const file = join(dir, `report-${i}.html`);
      writeFileSync(file, html);
      return { ...v, file, bytes: statSync(file).size, renderMs, times: [] as number[] };
    });
    for (let r = 0; r < runs; r++) {
      for (const report of reports) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        report.times.push(await openReport(page, report.file));
        await page.close();
      }
    }
    console.log(`load average (1, 5, 15 min): ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const r of reports) {
      const best = Math.min(...r.times);
      console.log(`  ${r.label}: ${mb(r.bytes)}, written in ${s(r.renderMs)}; opened and drawn in ${s(best)} best of ${runs} (${r.times.map(s).join(', ')})`);
    }
    const [big, linked, ref] = reports as [(typeof reports)[0], (typeof reports)[0], (typeof reports)[0]];
    const bestOf = (r: typeof big) => Math.min(...r.times);
    console.log(`ratio ${findingsN}/${referenceN} findings: ${(bestOf(big) / bestOf(ref)).toFixed(2)}x the open-and-draw time, ${(big.bytes / ref.bytes).toFixed(1)}x the size`);
    console.log(`targets: open and draw < 3 s: ${bestOf(big) < 3000 ? 'met' : 'NOT met'} (${s(bestOf(big))}); file < 20 MB: ${big.bytes < 20e6 ? 'met' : 'NOT met'} (${mb(big.bytes)}; with --jaeger-url ${mb(linked.bytes)})`);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
