import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, type AnalysisResult } from '@argspan/analyzer';
import { EventAttributes as A, HopEvents, Provenance } from '@argspan/conventions';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openReport } from '../analyzer/src/bench/chromium.js';
import { readChartAssets } from '../analyzer/src/reporters/html/chart-assets.js';
import { LAZY_FROM_ROWS, ROWS_PER_BLOCK } from '../analyzer/src/reporters/html/findings-table.js';
import { renderHtmlReport } from '../analyzer/src/reporters/html/render.js';
import { repeatFindings } from '../analyzer/src/synth/repeat-findings.js';
import { ArgspanTraceBuilder } from '../analyzer/src/synth/argspan-trace.js';
import { CANARY_AWS_KEY, FIXTURE_RESOURCE, cleanCall, remoteCall } from '../analyzer/src/synth/rule-cases.js';
import { ROOT, analyzeBin, parseJson } from './analyze-helpers.js';

/** Values planted in the traces that must never reach the report. */
const CANARY_VALUE = 'CANARYVALUE-7f3c1e-never-in-reports';
const CANARY_EXCERPT = 'CANARYEXCERPT-91bd-never-in-reports';
const CANARY_TOKEN = 'ghp_' + 'C4NARYc4naryC4NARYc4naryC4NARYc4nary';
const CANARIES = [CANARY_VALUE, CANARY_EXCERPT, CANARY_TOKEN, CANARY_AWS_KEY];
/** Names from a hostile trace: each would run script if it reached the page as markup. */
const HOSTILE_TOOL = '<script>window.__xss=1</script>';
const HOSTILE_KEY = 'a</script><script>window.__xss=2</script>';
const HOSTILE_RUN = '<img src=x onerror="window.__xss=3">';
const JAEGER = 'http://localhost:16686';

/**
 * Traces with canaries (an argument value and a token in another library's recorded arguments, an
 * excerpt on a public leaf, the dotenv fixture's AWS key in an excerpt), hostile names, a remote
 * hop that completed and one that failed, and another library's calls (a second emitter).
 */
function writeInputs(dir: string): string[] {
  const b = new ArgspanTraceBuilder(4242);
  const turn = b.turn('</script><b>turn</b>', HOSTILE_RUN);
  b.call(turn, cleanCall({ tool: HOSTILE_TOOL, runId: HOSTILE_RUN, args: [
    { key: HOSTILE_KEY, provenance: Provenance.MODEL_INFERRED, residency: 'tiny-public', denylisted: true },
    { key: 'note', provenance: Provenance.USER_EXPLICIT, residency: 'tiny-public', excerpt: CANARY_EXCERPT },
  ] }));
  b.call(turn, remoteCall({ runId: HOSTILE_RUN }));
  b.call(turn, remoteCall({ runId: HOSTILE_RUN, events: [
    { name: HopEvents.CHECKPOINT_WRITTEN, atMs: 1 },
    { name: HopEvents.PROBE, atMs: 2, attrs: { [A.PROBE_OK]: true, [A.RTT_MS]: 0.8 } },
    { name: HopEvents.LEASE_ACQUIRED, atMs: 3 },
    { name: HopEvents.HOP_SENT, atMs: 4 },
    { name: HopEvents.HOP_FAILED, atMs: 9, attrs: { [A.REASON]: 'send-error', [A.HTTP_STATUS]: 503 } },
  ] }, 'fp-2', 'lease-2'));
  const hostile = join(dir, 'hostile.jsonl');
  writeFileSync(hostile, b.lines('agent', 200, FIXTURE_RESOURCE).join('\n') + '\n');
  const foreign = readFileSync(join(ROOT, 'fixtures/traces/foreign/genai-aisdk-otel-function-tool.json'), 'utf8');
  const planted = join(dir, 'foreign-value.json');
  writeFileSync(planted, foreign.replace('{\\"query\\":\\"test\\"}', `{\\"query\\":\\"${CANARY_VALUE}\\",\\"auth\\":\\"${CANARY_TOKEN}\\"}`));
  expect(readFileSync(planted, 'utf8')).toContain(CANARY_VALUE);
  return [hostile, planted, join(ROOT, 'fixtures/traces/dotenv.jsonl'), join(ROOT, 'fixtures/traces/tokyo-invite.jsonl')];
}

describe('argspan analyze --html, opened in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'argspan-html-report-'));
  let inputs: string[];
  let report: string;
  let expected: AnalysisResult;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    inputs = writeInputs(dir);
    const file = join(dir, 'report.html');
    const run = analyzeBin(...inputs, '--format', 'sarif', '--html', file, '--jaeger-url', JAEGER);
    // The exit code is the verdict's, as without --html; SARIF still owns stdout.
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).version).toBe('2.1.0');
    expect(run.stderr).toContain(`wrote the HTML report to ${file}`);
    report = readFileSync(file, 'utf8');
    expected = await analyze({ paths: inputs, overview: true });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => void (m.type() === 'error' || m.type() === 'warning' ? problems.push(`${m.type()}: ${m.text()}`) : undefined));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => void (r.url().startsWith('file:') ? undefined : problems.push(`request: ${r.url()}`)));
    await openReport(page, file);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    // The screenshot stays for a person to look at; the rest goes.
    for (const f of ['hostile.jsonl', 'foreign-value.json', 'report.html']) rmSync(join(dir, f), { force: true });
  });

  it('holds no argument value, excerpt or credential, and stays one self-contained file', () => {
    for (const canary of CANARIES) expect(report).not.toContain(canary);
    expect(report).toContain('Content-Security-Policy');
    expect(report).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!localhost:16686\/trace\/)[a-z0-9.-]+\.[a-z]{2,}\/[^"'\s]*\.(js|css)/i);
  });

  it('loads with no console error, no request and no injected script; the hostile names show as text', async () => {
    expect(problems).toEqual([]);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('#residency table').textContent()).toContain(HOSTILE_TOOL);
    expect(await page.locator('#findings').textContent()).toContain(HOSTILE_KEY);
    expect(await page.locator('#runs table').textContent()).toContain(HOSTILE_RUN);
    // Jaeger links: made by the page's script (one per finding row with a trace id, and the overview's span cells).
    const linked = expected.findings.filter((f) => f.trace_id && /^[0-9a-f]+$/.test(f.trace_id));
    expect(linked.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator(`#findings a[href^="${JAEGER}/trace/"]`).count()).toBe(linked.length);
    const first = linked.find((f) => f.span_id && /^[0-9a-f]+$/.test(f.span_id))!;
    const href = `${JAEGER}/trace/${first.trace_id}?uiFind=${first.span_id}`;
    expect(await page.locator(`#findings a[href="${href}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator(`#turns a[href^="${JAEGER}/trace/"]`).count()).toBeGreaterThan(0);
  });

  it('draws each chart with the counts the analysis found', async () => {
    const overview = expected.overview!;
    const json = parseJson(analyzeBin(...inputs, '--format', 'json'));
    const bySeverity = new Map<string, number>();
    for (const f of json.findings) bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
    const titles = (chart: string, mark: string) => page.locator(`[data-chart=${chart}] g[aria-label="${mark}"] > *`).evaluateAll((els) => els.map((e) => e.querySelector('title')?.textContent ?? ''));
    const severity = await titles('severity', 'bar');
    expect(severity.sort()).toEqual([...bySeverity].map(([s, n]) => `${s}: ${n}`).sort());
    const residency = await titles('residency', 'bar');
    expect(residency.sort()).toEqual(overview.residency_by_tool.rows.map((r) => `${r.tool} · ${r.residency}: ${r.arguments}`).sort());
    const turns = await titles('turns', 'bar');
    expect(turns.reduce((n, t) => n + Number(t.split(': ').pop()), 0)).toBe(overview.turns.rows.reduce((n, r) => n + r.count, 0));
    const dots = await titles('hops', 'dot');
    expect(dots).toHaveLength(overview.hops.rows.reduce((n, h) => n + h.events.length, 0));
    expect(overview.hops.rows.map((h) => h.outcome).sort()).toEqual(['completed', 'completed', 'failed']);
    expect(dots.filter((t) => t.startsWith('hop.failed at 8 ms'))).toHaveLength(1);
  });

  it('filters the findings by tool, emitter, rule and severity', async () => {
    const total = expected.findings.length;
    const status = page.locator('#filter-status');
    await page.selectOption('#filters select[name=tool]', HOSTILE_TOOL);
    await expect.poll(() => status.textContent()).toBe(`Showing ${expected.findings.filter((f) => f.tool === HOSTILE_TOOL).length} of ${total} findings.`);
    await page.click('#filters button[type=reset]');
    await page.selectOption('#filters select[name=emitter]', 'genai-semconv');
    const foreign = expected.findings.filter((f) => f.emitter === 'genai-semconv').length;
    expect(foreign).toBeGreaterThan(0);
    await expect.poll(() => status.textContent()).toBe(`Showing ${foreign} of ${total} findings.`);
    await page.click('#filters button[type=reset]');
    await page.selectOption('#filters select[name=severity]', 'critical');
    await page.selectOption('#filters select[name=rule]', 'credential_in_attribute');
    await expect.poll(() => status.textContent()).toBe(`Showing ${expected.findings.filter((f) => f.rule === 'credential_in_attribute').length} of ${total} findings.`);
    expect(await page.locator('section.group:not([hidden])').count()).toBe(1);
    await page.click('#filters button[type=reset]'); // the page re-applies the filters after the form resets (next task)
    await expect.poll(() => status.textContent()).toBe(`Showing ${total} of ${total} findings.`);
    expect(problems).toEqual([]);
  });

  it('links the trace ids of a long list a block at a time, as each block comes into view', async () => {
    const many = repeatFindings(expected, LAZY_FROM_ROWS + 3 * ROWS_PER_BLOCK);
    const file = join(dir, 'long.html');
    writeFileSync(file, renderHtmlReport(many, { jaegerUrl: JAEGER }, readChartAssets()));
    const long = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await openReport(long, file);
      const blocks = long.locator('#findings div.block.lazy');
      const lastBlock = blocks.last();
      const linkedIn = (block: typeof lastBlock) => block.locator(`a[href^="${JAEGER}/trace/"]`).count();
      expect(await blocks.count()).toBeGreaterThan(3);
      await expect.poll(() => linkedIn(blocks.first())).toBeGreaterThan(0);
      expect(await linkedIn(lastBlock)).toBe(0); // far below the screen: not linked yet
      await lastBlock.scrollIntoViewIfNeeded();
      await expect.poll(() => linkedIn(lastBlock)).toBe(await lastBlock.locator('tr:not(.what)').count());
    } finally {
      await long.close();
      rmSync(file, { force: true });
    }
  });

  it('saves a screenshot of the whole report', async () => {
    const png = join(dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    expect(existsSync(png) && statSync(png).size).toBeGreaterThan(10_000);
    console.log(`HTML report screenshot: ${png}`);
  });
});

describe('argspan analyze --html: usage', () => {
  it('refuses a --jaeger-url that is not an http(s) URL, and an --html file it cannot write, with exit 2', () => {
    const bad = analyzeBin('fixtures/traces/tokyo-invite.jsonl', '--jaeger-url', 'javascript:alert(1)');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--jaeger-url must be an http:// or https:// URL');
    const unwritable = analyzeBin('fixtures/traces/tokyo-invite.jsonl', '--html', join(ROOT, 'no-such-dir', 'r.html'));
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toContain('--html:');
    expect(unwritable.stderr).toContain('cannot be written (ENOENT)');
  });

  it('--format html prints the report on stdout with the same exit code as the table', () => {
    const html = analyzeBin('fixtures/traces/tokyo-invite.jsonl', '--format', 'html');
    const table = analyzeBin('fixtures/traces/tokyo-invite.jsonl');
    expect(html.code).toBe(table.code);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain('Exit 1 — fails CI');
  });
});
