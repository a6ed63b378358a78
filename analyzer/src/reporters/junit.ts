import type { AnalysisResult } from '../types.js';
import { DEFAULT_FAIL_ON, failsAt } from '../verdict.js';
import type { ReportOptions } from './index.js';
import { formatProblem } from '../load/input-error.js';
import { uncheckedCounts } from './table.js';
import { xmlEscape as x } from './xml.js';

/**
 * What the run could not check (see {@link uncheckedCounts}) and the input it skipped
 * (`--allow-partial`), as suite properties (the skipped lines and files are named in the suite's
 * `system-err`: see {@link skippedInputs}), so a partial run never looks whole.
 */
function uncheckedProperties({ stats }: AnalysisResult): string[] {
  const props: Record<string, number> = { ...uncheckedCounts(stats), ...(stats.skipped.length ? { skipped_inputs: stats.skipped.length } : {}) };
  const lines = Object.keys(props).length === 0 ? [] : ['    <properties>', ...Object.entries(props).map(([k, v]) => `      <property name="argspan.${k}" value="${v}"/>`), '    </properties>'];
  return lines;
}

/** The skipped lines and files as the suite's `system-err` (after its cases, where the JUnit schema puts it). */
function skippedInputs({ stats }: AnalysisResult): string[] {
  return stats.skipped.length ? [`    <system-err>${x(stats.skipped.map((p) => `skipped, not analysed: ${formatProblem(p)}`).join('\n'))}</system-err>`] : [];
}

/**
 * `--format junit`: one test case per rule that ran. A case fails when its rule has findings that
 * fail the run (at or above `--fail-on`, not a report rule's: as the exit code says); findings below
 * it are listed in the case's `system-out`, so a green run shows green in the checks tab.
 */
export function junitReport(result: AnalysisResult, options: ReportOptions = {}): string {
  const failOn = options.failOn ?? DEFAULT_FAIL_ON;
  const reports = new Set(result.rules.filter((r) => r.kind === 'report').map((r) => r.id));
  const skipped = new Map(result.stats.rules_skipped.map((s) => [s.rule, s.reason]));
  const line = (f: AnalysisResult['findings'][number]) => `${f.severity} ${f.trace_id ?? '-'}/${f.span_id ?? '-'} ${f.tool ?? '-'} ${f.key ?? '-'}: ${f.message}`;
  let failures = 0;
  const cases = result.rules.map((rule) => {
    const mine = result.findings.filter((f) => f.rule === rule.id);
    const open = `    <testcase classname="argspan.${x(rule.kind)}" name="${x(rule.id)}">`;
    if (skipped.has(rule.id)) return `${open}\n      <skipped message="${x(skipped.get(rule.id)!)}"/>\n    </testcase>`;
    if (mine.length === 0) return `${open}</testcase>`;
    const failing = mine.filter((f) => failsAt(f, failOn, reports));
    const below = mine.filter((f) => !failsAt(f, failOn, reports));
    const parts = [open];
    if (failing.length > 0) {
      failures++;
      parts.push(`      <failure type="${x(rule.severity)}" message="${x(`${failing.length} finding(s): ${rule.title}`)}">${x(failing.map(line).join('\n'))}</failure>`);
    }
    if (below.length > 0) parts.push(`      <system-out>${x(`${below.length} finding(s) reported, not failing the run (below --fail-on ${failOn}, or a report):\n${below.map(line).join('\n')}`)}</system-out>`);
    return `${parts.join('\n')}\n    </testcase>`;
  });
  const suite = `tests="${result.rules.length}" failures="${failures}" errors="0" skipped="${skipped.size}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="argspan analyze" ${suite}>`,
    `  <testsuite name="argspan analyze" ${suite}>`,
    ...uncheckedProperties(result),
    ...cases,
    ...skippedInputs(result),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
