import type { Rule } from '../../rules/rule-file.js';
import type { Finding } from '../../rules/run-rules.js';
import { html } from './escape.js';

/**
 * Rows per table in the findings list. Each block of rows is its own table in a
 * `content-visibility: auto` box, so the browser lays out only the blocks on screen: one table of
 * 100k rows took over a minute to draw, blocks of 500 draw in a few seconds.
 */
export const ROWS_PER_BLOCK = 500;

/** Estimated height of a row before the browser lays it out (keeps the scroll bar steady). */
const ROW_HEIGHT_PX = 22;

/**
 * Lists up to this many rows are drawn whole; longer ones lay out only the blocks on screen, which
 * a full-page screenshot or a print of a long list may catch half drawn.
 */
export const LAZY_FROM_ROWS = 2000;

/** Columns of every findings table; the page's filter reads cells by these positions. */
export const FINDING_COLUMNS = ['tool', 'key', 'emitter', 'trace id', 'span id', 'message'] as const;
export const TOOL_COLUMN = FINDING_COLUMNS.indexOf('tool');
export const EMITTER_COLUMN = FINDING_COLUMNS.indexOf('emitter');

const HEX = /^[0-9a-f]+$/;

/** The Jaeger UI page of a span: its trace, with the span found (`uiFind`). */
export function jaegerLink(base: string, traceId: string, spanId: string | null): string {
  const root = base.replace(/\/+$/, '');
  return `${root}/trace/${traceId}${spanId && HEX.test(spanId) ? `?uiFind=${spanId}` : ''}`;
}

export interface FindingsTableOptions {
  jaegerUrl?: string;
  /** Emitter of the call behind a finding's span, keyed `trace_id/span_id`. */
  emitters: Readonly<Record<string, string>>;
}

/**
 * The findings, grouped by rule (strongest severity first, as the findings are sorted), each
 * group a heading with the rule's title and description and its rows in blocks of
 * {@link ROWS_PER_BLOCK}. Plain HTML: readable without the page's script, which only filters.
 * End tags of cells and rows are left out (HTML allows it) to keep 100k rows small.
 */
export function renderFindingsTable(findings: readonly Finding[], rules: readonly Rule[], options: FindingsTableOptions): string {
  if (findings.length === 0) return '<p class=none>No findings.</p>';
  const byId = new Map(rules.map((r) => [r.id, r]));
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= findings.length; i++) {
    if (i < findings.length && findings[i]!.rule === findings[start]!.rule) continue;
    out.push(renderGroup(findings, start, i, byId.get(findings[start]!.rule), out.length, findings.length > LAZY_FROM_ROWS, options));
    start = i;
  }
  return out.join('\n');
}

function renderGroup(
  findings: readonly Finding[],
  from: number,
  to: number,
  rule: Rule | undefined,
  index: number,
  lazy: boolean,
  options: FindingsTableOptions,
): string {
  const first = findings[from]!;
  const count = to - from;
  const head = `<section class=group id="rule-${index}" data-rule="${html(first.rule)}" data-severity="${html(first.severity)}">
<h3><span class="sev sev-${html(first.severity)}">${html(first.severity)}</span> <code>${html(first.rule)}</code> ${html(rule?.title ?? '')} <small>(<span class=shown>${count}</span> of ${count})</small></h3>
${rule ? `<details><summary>What it means and what to do</summary><p>${html(rule.description)}</p><p><b>What to do:</b> ${html(rule.remedy)}</p></details>` : ''}
<table class=ft><thead><tr>${FINDING_COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr></thead></table>`;
  const blocks: string[] = [];
  for (let b = from; b < to; b += ROWS_PER_BLOCK) {
    const end = Math.min(to, b + ROWS_PER_BLOCK);
    const rows: string[] = [];
    for (let i = b; i < end; i++) rows.push(renderRow(findings[i]!, options));
    const box = lazy ? ` class="block lazy" style="contain-intrinsic-size:auto ${(end - b) * ROW_HEIGHT_PX}px"` : ' class=block';
    blocks.push(`<div${box}><table class=ft><tbody>\n${rows.join('\n')}\n</tbody></table></div>`);
  }
  return `${head}\n${blocks.join('\n')}\n</section>`;
}

function renderRow(f: Finding, options: FindingsTableOptions): string {
  const emitter = f.trace_id && f.span_id ? options.emitters[`${f.trace_id}/${f.span_id}`] : undefined;
  const trace = f.trace_id ?? '-';
  const traceCell = options.jaegerUrl && f.trace_id && HEX.test(f.trace_id) ? `<a href="${html(jaegerLink(options.jaegerUrl, f.trace_id, f.span_id))}">${trace}</a>` : html(trace);
  return `<tr><td>${html(f.tool ?? '-')}<td>${html(f.key ?? '-')}<td>${html(emitter ?? '-')}<td>${traceCell}<td>${html(f.span_id ?? '-')}<td>${html(f.message)}`;
}
