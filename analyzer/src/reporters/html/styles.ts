import { RESIDENCY_ORDER } from '@argspan/conventions';
import { SEVERITIES, type Severity } from '../../rules/rule-file.js';

/** Severity colours, strongest first (the same in badges and the chart). */
export const SEVERITY_COLOURS: Readonly<Record<Severity, string>> = {
  critical: '#7f0000',
  high: '#d62728',
  medium: '#ff7f0e',
  low: '#bcbd22',
  info: '#8c8c8c',
};

/** Residency colours in label order: secret and dirty-tree stand out, public labels recede. */
export const RESIDENCY_COLOURS: Readonly<Record<(typeof RESIDENCY_ORDER)[number], string>> = {
  secret: '#d62728',
  'dirty-tree': '#ff7f0e',
  'bulky-public': '#1f77b4',
  'tiny-public': '#9ecae1',
  unknown: '#8c8c8c',
};

/** The two provenances the per-turn chart shows: guessed in red, unknown in purple. */
export const PROVENANCE_COLOURS = { model_inferred: '#d62728', no_evidence: '#9467bd' } as const;

/** Hop event colours: the protocol's steps in order, the outcomes in green and red. */
export const HOP_EVENT_COLOURS: Readonly<Record<string, string>> = {
  'checkpoint.written': '#6baed6',
  probe: '#9e9ac8',
  'lease.acquired': '#fdae6b',
  'lease.wait': '#fdd0a2',
  'lease.expired': '#e6550d',
  'hop.decision': '#bdbdbd',
  'queue.enqueued': '#c7e9c0',
  'queue.drained': '#74c476',
  'hop.sent': '#3182bd',
  'hop.completed': '#31a354',
  'hop.failed': '#d62728',
  'lease.released': '#636363',
  'state.quarantined': '#7f0000',
};

const severityBadges = [...SEVERITIES].map((s) => `.sev-${s}{background:${SEVERITY_COLOURS[s]}}`).join('');

export const STYLES = `
:root{color-scheme:light;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b}
body{margin:0 auto;max-width:1280px;padding:0 20px 40px}
h1{font-size:1.6em;margin:.8em 0 .2em}h2{margin:1.6em 0 .4em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{font-size:1.05em;margin:1.2em 0 .3em}
code,.mono,.ft td{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
.verdict{padding:.6em .9em;border-radius:6px;font-weight:600}.verdict.fail{background:#fde2e1;color:#7f0000}.verdict.pass{background:#e3f5e1;color:#14532d}
.note{color:#555}.none{color:#555;font-style:italic}
table{border-collapse:collapse}th,td{text-align:left;padding:3px 8px;vertical-align:top;border-bottom:1px solid #eee}th{background:#f6f6f6;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.ft{table-layout:fixed;width:100%}.ft th:nth-child(1),.ft td:nth-child(1){width:40%}
.ft td{overflow-wrap:anywhere;padding-left:1.5em}.ft tr.what th{background:#fafafa;font-weight:normal;padding-top:.5em}.ft .tool{font-weight:600}.lazy{content-visibility:auto}
.sev{display:inline-block;color:#fff;border-radius:4px;padding:0 .45em;font-size:.85em;font-weight:600}${severityBadges}
.chart{margin:.6em 0;min-height:2em}.chart:not([data-drawn]){color:#777;font-style:italic}
#filters{display:flex;flex-wrap:wrap;gap:.6em 1.2em;align-items:end;background:#f6f6f6;padding:.6em .8em;border-radius:6px;position:sticky;top:0;z-index:1}
#filters label{display:flex;flex-direction:column;font-size:.85em;color:#444}#filters select{max-width:18em}
.cards{display:flex;flex-wrap:wrap;gap:.6em}.cards div{background:#f6f6f6;border-radius:6px;padding:.4em .8em;min-width:7em}.cards b{display:block;font-size:1.35em}
details summary{cursor:pointer;color:#444}
footer{margin-top:3em;color:#666;font-size:.9em}
`;
