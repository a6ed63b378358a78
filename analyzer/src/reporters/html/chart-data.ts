import { RESIDENCY_ORDER } from '@argspan/conventions';
import type { RunOverview } from '../../overview/types.js';
import { SEVERITIES, type Severity } from '../../rules/rule-file.js';
import type { Finding } from '../../rules/run-rules.js';
import { HOP_EVENT_COLOURS, PROVENANCE_COLOURS, RESIDENCY_COLOURS, SEVERITY_COLOURS } from './styles.js';

/** Turns drawn in the per-turn chart (the table lists more). */
export const CHART_TURNS = 30;

/** What the page's charts draw: small aggregates only, never a finding row. */
export interface ChartData {
  severity: { severity: Severity; count: number }[];
  severityColours: { domain: string[]; range: string[] };
  residency: { tool: string; residency: string; arguments: number }[];
  residencyTools: string[];
  residencyColours: { domain: string[]; range: string[] };
  turns: { turn: string; provenance: string; count: number }[];
  turnLabels: string[];
  provenanceColours: { domain: string[]; range: string[] };
  hopEvents: { hop: string; event: string; at_ms: number; rtt_ms: number | null }[];
  hopSpans: { hop: string; end_ms: number }[];
  hopLabels: string[];
  hopEventNames: string[];
  hopEventColours: string[];
}

/** Findings per severity, strongest first, only the severities present. */
export function severityCounts(findings: readonly Finding[]): { severity: Severity; count: number }[] {
  const counts = new Map<Severity, number>();
  for (const f of findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  return [...SEVERITIES].reverse().filter((s) => counts.has(s)).map((s) => ({ severity: s, count: counts.get(s)! }));
}

/** A turn's label in the chart: its name and where it is (labels must be unique per turn). */
export function turnLabel(row: { turn: string | null; trace_id: string; turn_span_id: string | null }): string {
  return `${row.turn ?? 'turn'} · ${row.trace_id.slice(0, 8)}/${(row.turn_span_id ?? '-').slice(0, 6)}`;
}

/** A hop's label in the timeline: its position and tool. */
export function hopLabel(index: number, tool: string | null): string {
  return `#${index + 1} ${tool ?? '(no tool)'}`;
}

export function chartData(findings: readonly Finding[], overview: RunOverview | undefined): ChartData {
  const residencyTools = [...new Set(overview?.residency_by_tool.rows.map((r) => r.tool) ?? [])];
  const turnLabels: string[] = [];
  const turns: ChartData['turns'] = [];
  for (const r of overview?.turns.rows ?? []) {
    const label = turnLabel(r);
    if (!turnLabels.includes(label)) {
      if (turnLabels.length === CHART_TURNS) break;
      turnLabels.push(label);
    }
    const same = turns.find((t) => t.turn === label && t.provenance === r.provenance);
    if (same) same.count += r.count;
    else turns.push({ turn: label, provenance: r.provenance, count: r.count });
  }
  const hops = overview?.hops.rows ?? [];
  const hopLabels = hops.map((h, i) => hopLabel(i, h.tool));
  const hopEvents = hops.flatMap((h, i) => h.events.map((e) => ({ hop: hopLabels[i]!, event: e.event, at_ms: e.at_ms, rtt_ms: e.rtt_ms })));
  const seen = new Set(hopEvents.map((e) => e.event));
  const hopEventNames = [...Object.keys(HOP_EVENT_COLOURS).filter((n) => seen.has(n)), ...[...seen].filter((n) => !(n in HOP_EVENT_COLOURS)).sort()];
  return {
    severity: severityCounts(findings),
    severityColours: { domain: [...SEVERITIES].reverse(), range: [...SEVERITIES].reverse().map((s) => SEVERITY_COLOURS[s]) },
    residency: overview?.residency_by_tool.rows ?? [],
    residencyTools,
    residencyColours: { domain: [...RESIDENCY_ORDER], range: RESIDENCY_ORDER.map((r) => RESIDENCY_COLOURS[r]) },
    turns,
    turnLabels,
    provenanceColours: { domain: ['model_inferred', 'no_evidence'], range: [PROVENANCE_COLOURS.model_inferred, PROVENANCE_COLOURS.no_evidence] },
    hopEvents,
    hopSpans: hops.map((h, i) => ({ hop: hopLabels[i]!, end_ms: h.events.reduce((m, e) => Math.max(m, e.at_ms), 0) })),
    hopLabels,
    hopEventNames,
    hopEventColours: hopEventNames.map((n) => HOP_EVENT_COLOURS[n] ?? '#444'),
  };
}
