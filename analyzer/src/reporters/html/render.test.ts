import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../rules/rule-file.js';
import { fingerprintOf, type Finding } from '../../rules/run-rules.js';
import type { RunOverview } from '../../overview/types.js';
import type { AnalysisResult } from '../../types.js';
import { html, jsonForScript } from './escape.js';
import { ROWS_PER_BLOCK } from './findings-table.js';
import { renderHtmlReport } from './render.js';

const HOSTILE_TOOL = '<script>window.__xss=1</script>';
const HOSTILE_KEY = 'a</script><script>window.__xss=2</script>';
const HOSTILE_RUN = '<img src=x onerror="window.__xss=3">';
const ASSETS = { libraries: [{ name: 'chart-lib', version: '1.0.0', licence: 'ISC', code: '/* chart library */' }] };

function finding(i: number, over: Partial<Finding> = {}): Finding {
  const base = { rule: 'assumption_span', trace_id: i.toString(16).padStart(32, '0'), span_id: (i + 1).toString(16).padStart(16, '0'), tool: HOSTILE_TOOL, key: HOSTILE_KEY, ...over };
  return { severity: 'high', message: `Tool ${base.tool} was called with a model-inferred value for the denylisted key ${base.key}.`, file: 't.jsonl', emitter: null, ...base, fingerprint: fingerprintOf(base) };
}

function overview(): RunOverview {
  return {
    totals: { runs: 1, turns: 1, tool_calls: 2, arguments: 3, model_inferred: 1, no_evidence: 1, gated: 2, held: 0, denied: 0, remote: 1 },
    emitters: [{ emitter: 'argspan', calls: 2 }],
    runs: { rows: [{ run_id: HOSTILE_RUN, tool_calls: 2, arguments: 3, model_inferred: 1, no_evidence: 1, gated: 2, held: 0, denied: 0, remote: 1 }], total: 1 },
    turns: {
      rows: [{ trace_id: 'ab'.repeat(16), turn_span_id: 'cd'.repeat(8), turn: '</script><b>turn</b>', run_id: HOSTILE_RUN, tool: HOSTILE_TOOL, key: HOSTILE_KEY, provenance: 'model_inferred', count: 1 }],
      total_turns: 1,
      shown_turns: 1,
    },
    residency_by_tool: { rows: [{ tool: HOSTILE_TOOL, residency: 'secret', arguments: 3 }], total_tools: 1, shown_tools: 1 },
    hops: {
      total: 1,
      completed: 0,
      failed: 1,
      rtt_p50_ms: null,
      rtt_p95_ms: null,
      rows: [{ trace_id: 'ab'.repeat(16), span_id: 'ef'.repeat(8), tool: HOSTILE_TOOL, run_id: HOSTILE_RUN, outcome: 'failed', probe_rtt_ms: 1.5, rtt_ms: null, attempts: 1,
        events: [{ event: 'hop.failed', at_ms: 3, rtt_ms: null, http_status: 503, detail: '<b>send-error</b>' }] }],
    },
    baseline: { file: '<baseline>.json', still_present: 0, fixed: [{ fingerprint: 'f', rule: 'assumption_span', trace_id: null, span_id: null, tool: HOSTILE_TOOL, key: HOSTILE_KEY }] },
  };
}

function result(findings: Finding[], withOverview = true): AnalysisResult {
  return {
    findings,
    rules: loadRules(),
    stats: { files: 1, spans: 10, duplicate_spans: 0, malformed_lines: 0, skipped: [{ file: '<f>.jsonl', line: 2, reason: 'not valid JSON' }], rules_run: 20, rules_skipped: [], suppressed: 0, foreign_calls: 0, no_evidence_calls: 0, unreadable_args_calls: 0, time_ms: 5 },
    ...(withOverview ? { overview: overview() } : {}),
  };
}

describe('HTML report rendering', () => {
  it('what the gate did (held, denied, went remote) is said of argspan\'s own calls only: of other libraries\' calls it is not known', () => {
    const text = (out: string) => out.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').replaceAll('&#39;', "'");
    const run = (gated: number, calls: number) => {
      const r = result([]);
      r.overview!.totals = { ...r.overview!.totals, tool_calls: calls, gated, held: 0, denied: 0, remote: gated ? 1 : 0 };
      r.overview!.runs.rows = [
        { run_id: 'own', tool_calls: gated, arguments: 1, model_inferred: 0, no_evidence: 0, gated, held: 0, denied: 0, remote: gated ? 1 : 0 },
        { run_id: 'foreign', tool_calls: calls - gated, arguments: 1, model_inferred: 0, no_evidence: 0, gated: 0, held: 0, denied: 0, remote: 0 },
      ];
      return text(renderHtmlReport(r, {}, ASSETS));
    };
    const mine = run(2, 2);
    expect(mine).toContain(' 1 went remote ');
    expect(mine).not.toContain('not known');
    expect(mine).not.toContain('other libraries\' traces do not say');
    const foreign = run(0, 3);
    expect(foreign).toContain(" - went remote: not known for other libraries' calls ");
    expect(foreign).toContain(" - held for a question: not known for other libraries' calls ");
    expect(foreign).not.toContain(' 0 went remote');
    expect(foreign).toContain('foreign 3 1 0 0 - - -');
    const mixed = run(2, 5);
    expect(mixed).toContain(' 1 went remote (of the 2 calls argspan gated) ');
    expect(mixed).toContain('own 2 1 0 0 0 0 1');
    expect(mixed).toContain('foreign 3 1 0 0 - - -');
    expect(mixed).toContain("Held, denied and remote count the calls argspan's gate judged; other libraries' traces do not say (-).");
  });

  it('escapes every string from the traces: no element, attribute or script can be injected', () => {
    const out = renderHtmlReport(result([finding(1), finding(2, { tool: 'fs.read' })]), { jaegerUrl: 'http://jaeger.local:16686/' }, ASSETS);
    expect(out).not.toContain(HOSTILE_TOOL);
    expect(out).not.toContain('</script><script>window');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>send-error');
    expect(out).not.toContain('<b>turn');
    // Exactly the page's own scripts: the data block, the library, the filter and chart script.
    expect(out.match(/<script\b/gi)).toHaveLength(3);
    expect(out.match(/<\/script>/gi)).toHaveLength(3);
    expect(out).toContain(html(HOSTILE_TOOL));
    const data = /<script type=application\/json id=argspan-data>([^<]*)<\/script>/.exec(out)![1]!;
    expect(JSON.parse(data).residency[0].tool).toBe(HOSTILE_TOOL);
    // Jaeger links are made by the page's script from one attribute, not written into every row.
    expect(out).toContain('<body data-jaeger="http://jaeger.local:16686/">');
    expect(out).not.toContain('href="http://jaeger.local');
  });

  it('shows a name with characters a reader does not see (a right-to-left override, zero-width or tag characters) as escapes', () => {
    const smuggled = [...'run rm'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const out = renderHtmlReport(result([finding(1, { tool: `pay\u202etxt.exe`, key: `read\u200b_file${smuggled}` })]), {}, ASSETS);
    expect(out).toContain('pay\\u202etxt.exe');
    expect(out).toContain('read\\u200b_file\\u{e0072}\\u{e0075}');
    // (the data block for the charts holds the names as JSON reads them back, escaped the same way nowhere else)
    const page = out.replace(/<script type=application\/json id=argspan-data>[^<]*<\/script>/, '');
    expect(/\p{Default_Ignorable_Code_Point}/u.test(page)).toBe(false);
  });

  it('its Content-Security-Policy lets run only the scripts it carries, each by its hash: no inline script else', () => {
    const out = renderHtmlReport(result([finding(1)]), {}, ASSETS);
    const csp = /<meta http-equiv=Content-Security-Policy content="([^"]*)">/.exec(out)![1]!;
    const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
    const executable = [...out.matchAll(/<script(?! type=application\/json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`);
    expect(executable).toHaveLength(2);
    expect(scriptSrc).toEqual(executable);
    expect(csp).toContain("default-src 'none'");
  });

  it('jsonForScript reads back the same value and holds no markup', () => {
    const value = { s: '</script><!-- & \u2028 >' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('states the verdict for the threshold, and what the run skipped', () => {
    const findings = [finding(1), finding(2, { rule: 'held_assumption', severity: 'info' })];
    expect(renderHtmlReport(result(findings), {}, ASSETS)).toContain('Exit 1 — fails CI: 1 finding(s) at or above low (1 high); 1 below it reported for review.');
    expect(renderHtmlReport(result(findings), { failOn: 'critical' }, ASSETS)).toContain('Exit 0 — passes CI: No finding at or above critical; 2 below it reported for review.');
    const baseline = renderHtmlReport(result(findings), { wroteBaseline: 'b.json' }, ASSETS);
    expect(baseline).toContain('Exit 0: the 2 finding(s) were written as the baseline <code>b.json</code>');
    expect(baseline).toContain('<code>&lt;f&gt;.jsonl:2</code> not valid JSON');
    expect(baseline).toContain('<b>1 fixed</b>');
  });

  it('one heading per tool, key and message, a row per finding; long lists in blocks', () => {
    const findings = Array.from({ length: ROWS_PER_BLOCK + 10 }, (_, i) => finding(i, { tool: 'calendar.create', key: 'timezone' }));
    const out = renderHtmlReport(result(findings), {}, ASSETS);
    expect(out.match(/<tr class=what>/g)).toHaveLength(2); // the set is cut by the block boundary and heads its rest again
    expect(out).toContain(`(${ROWS_PER_BLOCK + 10} findings, continued; written by -)`);
    expect(out.match(/<tr><td>0{16}/g)).toHaveLength(ROWS_PER_BLOCK + 10);
    expect(out.match(/<div class=block>/g)).toHaveLength(2);
  });

  it('without the overview, says it was not gathered instead of showing empty sections', () => {
    const out = renderHtmlReport(result([], false), {}, ASSETS);
    expect(out).toContain('<p class=none>No findings.</p>');
    expect(out.match(/Not gathered/g)).toHaveLength(4);
  });
});
