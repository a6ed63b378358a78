import type { AnalysisResult } from '../types.js';
import { uncheckedCounts } from './table.js';
import { xmlEscape as x } from './xml.js';

/** What the run could not check (see {@link uncheckedCounts}), as suite properties. */
function uncheckedProperties({ stats }: AnalysisResult): string[] {
  const props = uncheckedCounts(stats);
  if (Object.keys(props).length === 0) return [];
  return ['    <properties>', ...Object.entries(props).map(([k, v]) => `      <property name="argspan.${k}" value="${v}"/>`), '    </properties>'];
}

/** `--format junit`: one test case per rule that ran; a failing case lists that rule's findings. */
export function junitReport(result: AnalysisResult): string {
  const skipped = new Map(result.stats.rules_skipped.map((s) => [s.rule, s.reason]));
  const cases = result.rules.map((rule) => {
    const mine = result.findings.filter((f) => f.rule === rule.id);
    const open = `    <testcase classname="argspan.${x(rule.kind)}" name="${x(rule.id)}">`;
    if (skipped.has(rule.id)) return `${open}\n      <skipped message="${x(skipped.get(rule.id)!)}"/>\n    </testcase>`;
    if (mine.length === 0) return `${open}</testcase>`;
    const body = mine.map((f) => `${f.severity} ${f.trace_id ?? '-'}/${f.span_id ?? '-'} ${f.tool ?? '-'} ${f.key ?? '-'}: ${f.message}`).join('\n');
    return `${open}\n      <failure type="${x(rule.severity)}" message="${x(`${mine.length} finding(s): ${rule.title}`)}">${x(body)}</failure>\n    </testcase>`;
  });
  const failures = result.rules.filter((r) => result.findings.some((f) => f.rule === r.id)).length;
  const suite = `tests="${result.rules.length}" failures="${failures}" errors="0" skipped="${skipped.size}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="argspan analyze" ${suite}>`,
    `  <testsuite name="argspan analyze" ${suite}>`,
    ...uncheckedProperties(result),
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
