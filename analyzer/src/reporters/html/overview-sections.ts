import { RESIDENCY_ORDER } from '@argspan/conventions';
import type { HopRow, RunOverview } from '../../overview/types.js';
import { html } from './escape.js';

/** A table of rows; cells are already HTML. Numeric columns (`n`) align right. */
export function table(head: readonly string[], rows: readonly (readonly string[])[], numeric: readonly number[] = []): string {
  const cls = (i: number) => (numeric.includes(i) ? ' class=n' : '');
  return `<table><thead><tr>${head.map((h, i) => `<th${cls(i)}>${html(h)}</th>`).join('')}</tr></thead><tbody>
${rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${c}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>`;
}

/** "Showing 500 of 1234 runs." when a list was cut. */
function shownOf(shown: number, total: number, what: string): string {
  return shown < total ? `<p class=note>Showing the first ${shown} of ${total} ${what}.</p>` : '';
}

/** A trace and span id; with a Jaeger URL the page's script links it (`data-trace`, `data-span`: see CLIENT_SCRIPT). */
export function spanRef(traceId: string | null, spanId: string | null): string {
  const ids = traceId ? ` data-trace="${html(traceId)}"${spanId ? ` data-span="${html(spanId)}"` : ''}` : '';
  return `<span class=mono${ids}>${html(traceId ?? '-')}/${html(spanId ?? '-')}</span>`;
}

const count = (n: number) => String(n);
const ms = (v: number | null) => (v === null ? '-' : `${Math.round(v * 100) / 100} ms`);

export function runsSection(o: RunOverview): string {
  if (o.runs.total === 0) return '<p class=none>No tool calls.</p>';
  // (a run of other libraries' calls only: whether they were held, denied or went remote, their traces do not say)
  const rows = o.runs.rows.map((r) => [
    `<code>${html(r.run_id)}</code>`,
    ...[r.tool_calls, r.arguments, r.model_inferred, r.no_evidence].map(count),
    ...[r.held, r.denied, r.remote].map((n) => (r.gated === 0 ? '-' : count(n))),
  ]);
  const foreign = o.totals.gated < o.totals.tool_calls
    ? ' Held, denied and remote count the calls argspan\'s gate judged; other libraries\' traces do not say (-).'
    : '';
  return `<p class=note>Runs with the most guessed or unevidenced values first.${foreign}</p>
${table(['run', 'tool calls', 'arguments', 'model-inferred', 'no evidence', 'held', 'denied', 'remote'], rows, [1, 2, 3, 4, 5, 6, 7])}
${shownOf(o.runs.rows.length, o.runs.total, 'runs')}`;
}

export function turnsSection(o: RunOverview): string {
  if (o.turns.total_turns === 0) return '<p class=none>No argument value was model-inferred or without evidence.</p>';
  const rows = o.turns.rows.map((r) => [
    html(r.turn ?? '(turn not in the traces)'),
    spanRef(r.trace_id, r.turn_span_id),
    `<code>${html(r.run_id ?? '-')}</code>`,
    html(r.tool),
    `<code>${html(r.key)}</code>`,
    html(r.provenance),
    count(r.count),
  ]);
  return `<p class=note><b>model_inferred</b>: the value appears nowhere the model could have read it (it guessed). <b>no_evidence</b>: the trace holds no user text (or, by the call's time, some not recorded as text), so a guess cannot be told from the user's value.</p>
<div class=chart data-chart=turns>Chart of the ${Math.min(o.turns.total_turns, 30)} turns with the most such values (needs JavaScript; the table has the same numbers).</div>
${table(['turn', 'trace/turn span', 'run', 'tool', 'key', 'provenance', 'values'], rows, [6])}
${shownOf(o.turns.shown_turns, o.turns.total_turns, 'turns')}`;
}

export function residencySection(o: RunOverview): string {
  if (o.residency_by_tool.total_tools === 0) return '<p class=none>No argument spans.</p>';
  const byTool = new Map<string, Map<string, number>>();
  for (const r of o.residency_by_tool.rows) {
    const m = byTool.get(r.tool) ?? new Map<string, number>();
    m.set(r.residency, r.arguments);
    byTool.set(r.tool, m);
  }
  const labels = RESIDENCY_ORDER.filter((l) => o.residency_by_tool.rows.some((r) => r.residency === l));
  const rows = [...byTool].map(([tool, m]) => [html(tool || '(no tool)'), ...labels.map((l) => count(m.get(l) ?? 0))]);
  return `<p class=note>Argument leaves per tool by residency: <b>secret</b> and <b>dirty-tree</b> values must not leave the machine.</p>
<div class=chart data-chart=residency>Chart of the same numbers (needs JavaScript).</div>
${table(['tool', ...labels], rows, labels.map((_, i) => i + 1))}
${shownOf(o.residency_by_tool.shown_tools, o.residency_by_tool.total_tools, 'tools (most arguments first)')}`;
}

/** One hop's events as a readable path: `checkpoint.written 0 ms → probe 1.2 ms (round trip 0.8 ms) → …`. */
function hopPath(h: HopRow): string {
  return h.events
    .map((e) => {
      const extra = [e.rtt_ms !== null ? `round trip ${ms(e.rtt_ms)}` : '', e.http_status !== null ? `HTTP ${e.http_status}` : '', e.detail ? html(e.detail) : '']
        .filter(Boolean)
        .join(', ');
      return `${html(e.event)} ${ms(e.at_ms)}${extra ? ` (${extra})` : ''}`;
    })
    .join(' → ');
}

export function hopsSection(o: RunOverview): string {
  const h = o.hops;
  if (h.total === 0) return '<p class=none>No remote hop events (checkpoint, probe, lease, send) in these traces.</p>';
  const rows = h.rows.map((r, i) => [
    count(i + 1),
    html(r.tool ?? '(no tool)'),
    spanRef(r.trace_id, r.span_id),
    `<code>${html(r.run_id ?? '-')}</code>`,
    html(r.outcome),
    ms(r.probe_rtt_ms),
    ms(r.rtt_ms),
    count(r.attempts),
    hopPath(r),
  ]);
  return `<p>${h.total} hop(s): ${h.completed} completed, ${h.failed} failed, ${h.total - h.completed - h.failed} queued or without an outcome.
Round trip of completed hops: median ${ms(h.rtt_p50_ms)}, 95th percentile ${ms(h.rtt_p95_ms)}.</p>
<p class=note>Each hop follows the write-ahead protocol: checkpoint → probe → lease → sent → completed or failed. Times are milliseconds since the hop's first event.</p>
<div class=chart data-chart=hops>Timeline of the same events (needs JavaScript).</div>
${table(['#', 'tool', 'trace/span', 'run', 'outcome', 'probe round trip', 'round trip', 'sends', 'events'], rows, [0, 5, 6, 7])}
${shownOf(h.rows.length, h.total, 'hops (earliest first)')}`;
}

/** Fixed baseline entries listed (all are counted). */
const FIXED_SHOWN = 1000;

export function baselineSection(o: RunOverview, newFindings: number): string {
  const b = o.baseline;
  if (!b) return '';
  const rows = b.fixed.slice(0, FIXED_SHOWN).map((e) => [`<code>${html(e.rule)}</code>`, html(e.tool ?? '-'), `<code>${html(e.key ?? '-')}</code>`, spanRef(e.trace_id, e.span_id)]);
  return `<section id=baseline><h2>Against the baseline</h2>
<p>Compared with <code>${html(b.file)}</code>: <b>${newFindings} new</b> finding(s) (the findings below: the baseline does not list them),
<b>${b.fixed.length} fixed</b> (listed in the baseline, no longer found), ${b.still_present} still present and accepted by the baseline (not shown).</p>
${rows.length ? `<h3>Fixed</h3>${table(['rule', 'tool', 'key', 'trace/span'], rows)}${shownOf(rows.length, b.fixed.length, 'fixed findings')}` : ''}
</section>`;
}
