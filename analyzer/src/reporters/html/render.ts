import { createHash } from 'node:crypto';
import type { AnalysisResult } from '../../types.js';
import { exitVerdict, type FailOn } from '../../verdict.js';
import type { ChartAssets } from './chart-assets.js';
import { chartData, severityCounts } from './chart-data.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { html, jsonForScript } from './escape.js';
import { emitterOf, renderFindingsTable } from './findings-table.js';
import { conflictingSpansSentence, logRecordsSentence, unreadableArgsClause } from '../table.js';
import { baselineSection, hopsSection, residencySection, runsSection, table, turnsSection } from './overview-sections.js';
import { STYLES } from './styles.js';

/** Options of the HTML report. */
export interface HtmlReportOptions {
  /** The CI threshold the verdict is stated for. @default 'low' (as `argspan analyze`) */
  failOn?: FailOn;
  /** Jaeger UI base URL (e.g. `http://localhost:16686`): trace ids link to `<url>/trace/<id>?uiFind=<span>`. @default undefined */
  jaegerUrl?: string;
  /** Set when the run wrote its findings as a baseline (`--write-baseline`): it exits 0 and says so. @default undefined */
  wroteBaseline?: string;
}

/**
 * No connection of any kind: the page draws from what it holds. Of scripts, only the ones it
 * carries, each by its hash — so a name from a trace that got past the escaping as markup would
 * still run nothing; inline styles; links (to Jaeger) are navigation, which a CSP does not restrict.
 */
function contentSecurityPolicy(scripts: readonly string[]): string {
  const hashes = scripts.map((code) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
  return `default-src 'none'; script-src ${hashes.join(' ')}; style-src 'unsafe-inline'; img-src data:`;
}

/**
 * The HTML report: one self-contained file. Pure: the chart libraries come in as `assets`
 * (see `readChartAssets`), so the same input always renders the same bytes. Every string from
 * the traces is escaped; no argument value is in the result to begin with (the analyzer keeps
 * labels, counts and keyed hashes only).
 */
export function renderHtmlReport(result: AnalysisResult, options: HtmlReportOptions, assets: ChartAssets): string {
  const { findings, stats, overview } = result;
  const verdict = exitVerdict(findings, options.failOn, result.rules);
  const verdictLine = options.wroteBaseline
    ? `<p class="verdict pass">Exit 0: the ${findings.length + (result.suppressed?.length ?? 0)} finding(s) were written as the baseline <code>${html(options.wroteBaseline)}</code> and are accepted from now on.</p>`
    : `<p class="verdict ${verdict.fails ? 'fail' : 'pass'}">Exit ${verdict.fails ? 1 : 0} — ${verdict.fails ? 'fails CI' : 'passes CI'}: ${html(verdict.reason)}</p>`;
  const notGathered = '<p class=none>Not gathered: this report was made from a result without the overview (<code>analyze({ overview: true })</code>).</p>';
  const values = (pick: (f: (typeof findings)[number]) => string) => [...new Set(findings.map(pick))].sort();
  const select = (name: string, label: string, options: readonly string[]) =>
    `<label>${label}<select name=${name}><option value="">all</option>${options.map((o) => `<option>${html(o)}</option>`).join('')}</select></label>`;
  const filters = findings.length
    ? `<form id=filters hidden data-total="${findings.length}">
${select('severity', 'severity', severityCounts(findings).map((s) => s.severity))}
${select('rule', 'rule', values((f) => f.rule))}
${select('tool', 'tool', values((f) => f.tool ?? '-'))}
${select('emitter', 'emitter', values(emitterOf))}
<button type=reset>Show all</button><span id=filter-status>Showing ${findings.length} of ${findings.length} findings.</span></form>`
    : '';
  const t = overview?.totals;
  const card = (label: string, value: number | string) => `<div><b>${html(value)}</b>${html(label)}</div>`;
  // What argspan's gate did is known of its own calls only: another library's trace does not say whether a call was held, denied or went remote.
  const gateCard = (label: string, pick: (c: NonNullable<typeof t>) => number) =>
    !t || t.gated === t.tool_calls ? card(label, t ? pick(t) : '-') : t.gated === 0 ? card(`${label}: not known for other libraries' calls`, '-') : card(`${label} (of the ${t.gated} calls argspan gated)`, pick(t));
  const cards = [
    card('runs', t?.runs ?? '-'),
    card('turns', t?.turns ?? '-'),
    card('tool calls', t?.tool_calls ?? '-'),
    card('arguments', t?.arguments ?? '-'),
    card('model-inferred', t?.model_inferred ?? '-'),
    card('no evidence', t?.no_evidence ?? '-'),
    gateCard('held for a question', (c) => c.held),
    gateCard('denied', (c) => c.denied),
    gateCard('went remote', (c) => c.remote),
    card('hops', overview?.hops.total ?? '-'),
    card('findings', findings.length),
  ].join('');
  const severityRows = severityCounts(findings).map((s) => [`<span class="sev sev-${s.severity}">${s.severity}</span>`, String(s.count)]);
  const problems = [
    ...(stats.skipped.length ? [`${stats.skipped.length} unreadable line(s) or file(s) were skipped and not analysed (<code>--allow-partial</code>): ${stats.skipped.slice(0, 20).map((p) => `<code>${html(p.file)}${p.line !== undefined ? `:${p.line}` : ''}</code> ${html(p.reason)}`).join('; ')}${stats.skipped.length > 20 ? '; …' : ''}.`] : []),
    ...stats.rules_skipped.map((r) => `Rule <code>${html(r.rule)}</code> not run: ${html(r.reason)}.`),
    ...(stats.suppressed ? [`${stats.suppressed} finding(s) suppressed by the baseline.`] : []),
    ...(stats.foreign_calls
      ? [
          `${stats.foreign_calls} tool call(s) read from other libraries' traces${stats.no_evidence_calls ? `, ${stats.no_evidence_calls} of them in traces without all the model was told (the user's words not recorded, some not as text or cut to the emitter's size limit, or a tool's result hidden)` : ''}` +
            `${unreadableArgsClause(stats.unreadable_args_calls)}.`,
        ]
      : []),
    ...(stats.log_records || stats.other_log_records || stats.agent_log_records ? [logRecordsSentence(stats)] : []),
    ...(stats.conflicting_spans ? [conflictingSpansSentence(stats)] : []),
  ];
  const libraries = assets.libraries.map((l) => `<script data-library="${html(`${l.name}@${l.version}`)}">${l.code}</script>`).join('\n');
  const credits = assets.libraries.map((l) => `${html(l.name)} ${html(l.version)} (${html(l.licence)})`).join(', ');
  return `<!doctype html>
<html lang=en>
<head>
<meta charset=utf-8>
<meta name=viewport content="width=device-width, initial-scale=1">
<meta http-equiv=Content-Security-Policy content="${contentSecurityPolicy([...assets.libraries.map((l) => l.code), CLIENT_SCRIPT])}">
<meta name=generator content="argspan analyze">
<title>argspan analyze report</title>
<style>${STYLES}</style>
</head>
<body${options.jaegerUrl ? ` data-jaeger="${html(options.jaegerUrl)}"` : ''}>
<header>
<h1>argspan analyze report</h1>
<p class=note>${stats.files} file(s), ${stats.spans} span(s), ${stats.rules_run} rule(s) run, analysed in <span id=time-ms>${stats.time_ms}</span> ms. No argument value appears in this report: argspan records labels, counts and keyed hashes, never values.</p>
${verdictLine}
</header>
<section id=summary><h2>Summary</h2>
<div class=cards>${cards}</div>
${problems.length ? `<ul>${problems.map((p) => `<li>${p}</li>`).join('')}</ul>` : ''}
<h3>Findings by severity</h3>
${severityRows.length ? `<div class=chart data-chart=severity>Chart of the same numbers (needs JavaScript).</div>${table(['severity', 'findings'], severityRows, [1])}` : '<p class=none>No findings.</p>'}
</section>
${overview ? baselineSection(overview, findings.length) : ''}
<section id=findings><h2>Findings</h2>
${filters}
${renderFindingsTable(findings, result.rules)}
</section>
<section id=runs><h2>Runs</h2>
${overview ? runsSection(overview) : notGathered}
</section>
<section id=turns><h2>Invented and unevidenced fields per turn</h2>
${overview ? turnsSection(overview) : notGathered}
</section>
<section id=residency><h2>Residency mix per tool</h2>
${overview ? residencySection(overview) : notGathered}
</section>
<section id=hops><h2>Hop timeline</h2>
${overview ? hopsSection(overview) : notGathered}
</section>
<footer>Written by <code>argspan analyze --format html</code>. Self-contained: no request leaves this page. Charts drawn with ${credits}, inlined.</footer>
<script type=application/json id=argspan-data>${jsonForScript(chartData(findings, overview))}</script>
${libraries}
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}
