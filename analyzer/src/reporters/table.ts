import { SEVERITIES } from '../rules/rule-file.js';
import type { AnalysisResult } from '../types.js';

const COLUMNS = ['SEVERITY', 'RULE', 'TOOL', 'KEY', 'SPAN', 'MESSAGE'] as const;

/** `--format table`: aligned columns for people, then a summary line. */
export function tableReport(result: AnalysisResult): string {
  const { findings, stats } = result;
  const lines: string[] = [];
  if (findings.length) {
    const rows = findings.map((f) => [f.severity, f.rule, f.tool ?? '-', f.key ?? '-', f.span_id ?? '-', f.message]);
    const widths = COLUMNS.slice(0, -1).map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: readonly string[]) => r.map((c, i) => (i < widths.length ? c.padEnd(widths[i]!) : c)).join('  ').trimEnd();
    lines.push(fmt(COLUMNS), ...rows.map(fmt), '');
  }
  const counts = [...SEVERITIES]
    .reverse()
    .map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  const where = `${stats.files} file(s), ${stats.spans} span(s)`;
  lines.push(findings.length ? `${findings.length} finding(s) (${counts.join(', ')}) in ${where}.` : `No findings in ${where}.`);
  if (stats.suppressed) lines.push(`${stats.suppressed} finding(s) suppressed by the baseline.`);
  if (stats.skipped.length) {
    lines.push(`Skipped ${stats.skipped.length} unreadable line(s) or file(s):`);
    for (const p of stats.skipped) lines.push(`  ${p.file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.reason}`);
  }
  for (const r of stats.rules_skipped) lines.push(`Rule ${r.rule} not run: ${r.reason}.`);
  return lines.join('\n') + '\n';
}
