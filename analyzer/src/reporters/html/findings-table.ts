import type { Rule } from '../../rules/rule-file.js';
import type { Finding } from '../../rules/run-rules.js';
import { html } from './escape.js';

/**
 * Rows per table in the findings list. Each block of rows is its own table; in a long list each
 * block is a `content-visibility: auto` box, so the browser lays out only the blocks on screen:
 * one table of 100k rows took over a minute to draw, blocks of 500 draw in seconds.
 */
export const ROWS_PER_BLOCK = 500;

/** Estimated height of a row before the browser lays it out (keeps the scroll bar steady). */
const ROW_HEIGHT_PX = 22;

/**
 * Lists up to this many rows are drawn whole; longer ones lay out only the blocks on screen, which
 * a full-page screenshot or a print of a long list may catch half drawn.
 */
export const LAZY_FROM_ROWS = 2000;

/** Columns of a finding's row; the tool, key, message and emitter head the rows they share. */
export const FINDING_COLUMNS = ['trace id', 'span id'] as const;

/** Findings of one rule that say the same thing (tool, key, message) about different spans written by one emitter. */
interface Same {
  tool: string;
  key: string;
  message: string;
  emitter: string;
  findings: Finding[];
}

/**
 * The findings, grouped by rule (strongest severity first, as the findings are sorted), each
 * group a heading with the rule's title and description; within it, the findings that share a
 * tool, key, message and emitter under one heading row, followed by one row per finding (trace
 * id, span id). Plain HTML tables, readable without the page's script, which only filters. A
 * night of runs repeats the same few findings across many traces: saying each once keeps 100k
 * findings small. End tags of cells and rows are left out (HTML allows it) for the same reason.
 */
export function renderFindingsTable(findings: readonly Finding[], rules: readonly Rule[]): string {
  if (findings.length === 0) return '<p class=none>No findings.</p>';
  const byId = new Map(rules.map((r) => [r.id, r]));
  const lazy = findings.length > LAZY_FROM_ROWS;
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= findings.length; i++) {
    if (i < findings.length && findings[i]!.rule === findings[start]!.rule) continue;
    out.push(renderGroup(findings.slice(start, i), byId.get(findings[start]!.rule), out.length, lazy));
    start = i;
  }
  return out.join('\n');
}

/** Who recorded a finding's span (`Finding.emitter`), `-` when not known. */
export function emitterOf(f: Finding): string {
  return f.emitter ?? '-';
}

/** One rule's findings as {@link Same} sets, in order of first appearance. */
function sameSets(findings: readonly Finding[]): Same[] {
  const sets = new Map<string, Same>();
  for (const f of findings) {
    const tool = f.tool ?? '-';
    const key = f.key ?? '-';
    const emitter = emitterOf(f);
    const id = `${tool}\u0000${key}\u0000${f.message}\u0000${emitter}`;
    let set = sets.get(id);
    if (!set) sets.set(id, (set = { tool, key, message: f.message, emitter, findings: [] }));
    set.findings.push(f);
  }
  return [...sets.values()];
}

function renderGroup(findings: readonly Finding[], rule: Rule | undefined, index: number, lazy: boolean): string {
  const first = findings[0]!;
  const count = findings.length;
  const head = `<section class=group id="rule-${index}" data-rule="${html(first.rule)}" data-severity="${html(first.severity)}">
<h3><span class="sev sev-${html(first.severity)}">${html(first.severity)}</span> <code>${html(first.rule)}</code> ${html(rule?.title ?? '')} <small>(<span class=shown>${count}</span> of ${count})</small></h3>
${rule ? `<details><summary>What it means and what to do</summary><p>${html(rule.description)}</p><p><b>What to do:</b> ${html(rule.remedy)}</p></details>` : ''}
<table class=ft><thead><tr>${FINDING_COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr></thead></table>`;
  // Blocks of ROWS_PER_BLOCK rows; a set cut by a block boundary heads its rest again.
  const blocks: string[] = [];
  let rows: string[] = [];
  let inBlock = 0;
  const closeBlock = () => {
    if (!rows.length) return;
    const box = lazy ? ` class="block lazy" style="contain-intrinsic-size:auto ${(inBlock + 1) * ROW_HEIGHT_PX}px"` : ' class=block';
    blocks.push(`<div${box}><table class=ft>\n${rows.join('\n')}\n</tbody></table></div>`);
    rows = [];
    inBlock = 0;
  };
  for (const set of sameSets(findings)) {
    let from = 0;
    while (from < set.findings.length) {
      if (inBlock >= ROWS_PER_BLOCK) closeBlock();
      const take = Math.min(set.findings.length - from, ROWS_PER_BLOCK - inBlock);
      if (rows.length) rows.push('</tbody>');
      rows.push(setHeading(set, from > 0));
      for (let i = from; i < from + take; i++) rows.push(renderRow(set.findings[i]!));
      inBlock += take;
      from += take;
    }
  }
  closeBlock();
  return `${head}\n${blocks.join('\n')}\n</section>`;
}

function setHeading(set: Same, continued: boolean): string {
  const n = set.findings.length;
  return `<tbody data-tool="${html(set.tool)}" data-emitter="${html(set.emitter)}"><tr class=what><th colspan=2><span class=tool>${html(set.tool)}</span> · <code>${html(set.key)}</code> — ${html(set.message)} <small>(${n} finding${n === 1 ? '' : 's'}${continued ? ', continued' : ''}; written by ${html(set.emitter)})</small></th></tr>`;
}

/** A finding's row: trace id, span id. (With a Jaeger URL the page's script links the trace id: see CLIENT_SCRIPT.) */
function renderRow(f: Finding): string {
  return `<tr><td>${html(f.trace_id ?? '-')}<td>${html(f.span_id ?? '-')}`;
}
