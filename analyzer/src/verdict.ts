import { SEVERITIES, type Rule, type Severity } from './rules/rule-file.js';
import { atOrAbove, type Finding } from './rules/run-rules.js';

/** The CI threshold: findings at or above this severity fail the run; `none` never fails it. */
export type FailOn = Severity | 'none';

/** The threshold `argspan analyze` uses unless `--fail-on` says otherwise. */
export const DEFAULT_FAIL_ON: FailOn = 'low';

/** Whether a run's findings fail CI under a threshold, and why, in one sentence. */
export interface ExitVerdict {
  fails: boolean;
  /** Findings at or above the threshold. */
  failing: number;
  reason: string;
}

/**
 * The verdict `argspan analyze` exits with (1 when `fails`, else 0), and the sentence the HTML
 * report shows. Given `rules`, the findings of report rules (`kind: report`, which `--reports`
 * adds: a summary per run, not a problem) never fail it, so asking for reports never changes the exit.
 */
export function exitVerdict(findings: readonly Finding[], failOn: FailOn = DEFAULT_FAIL_ON, rules: readonly Pick<Rule, 'id' | 'kind'>[] = []): ExitVerdict {
  if (failOn === 'none') return { fails: false, failing: 0, reason: `--fail-on none: ${findings.length} finding(s) reported, none fails the run.` };
  const reports = new Set(rules.filter((r) => r.kind === 'report').map((r) => r.id));
  const counts = new Map<Severity, number>();
  let failing = 0;
  for (const f of findings) {
    if (!failsAt(f, failOn, reports)) continue;
    failing++;
    counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  }
  const below = findings.length - failing;
  const belowNote = below ? `; ${below} below it reported for review` : '';
  if (!failing) return { fails: false, failing, reason: `No finding at or above ${failOn}${belowNote}.` };
  const bySeverity = [...SEVERITIES].reverse().filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${s}`).join(', ');
  return { fails: true, failing, reason: `${failing} finding(s) at or above ${failOn} (${bySeverity})${belowNote}.` };
}

/** Whether a finding fails the run at `failOn`: at or above it, and not a report rule's (see {@link exitVerdict}). */
export function failsAt(f: Pick<Finding, 'severity' | 'rule'>, failOn: FailOn, reportRules: ReadonlySet<string>): boolean {
  return failOn !== 'none' && atOrAbove(f.severity, failOn) && !reportRules.has(f.rule);
}
