import { formatProblem } from '../load/input-error.js';
import { SEVERITIES } from '../rules/rule-file.js';
import type { AnalysisResult, AnalysisStats } from '../types.js';
import { terminalText } from '../terminal-text.js';

const COLUMNS = ['SEVERITY', 'RULE', 'TOOL', 'KEY', 'SPAN', 'MESSAGE'] as const;

/**
 * `--format table`: aligned columns for people, then a summary line. Built with loops, never by
 * spreading the findings into a call: a spread of 100k arguments overflows the stack.
 */
export function tableReport(result: AnalysisResult): string {
  const { findings, stats } = result;
  const lines: string[] = [];
  if (findings.length) {
    const rows = findings.map((f) => [f.severity, f.rule, f.tool ?? '-', f.key ?? '-', f.span_id ?? '-', f.message].map(terminalText));
    const widths = COLUMNS.slice(0, -1).map((c) => c.length);
    for (const r of rows) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, r[i]!.length);
    const fmt = (r: readonly string[]) => r.map((c, i) => (i < widths.length ? c.padEnd(widths[i]!) : c)).join('  ').trimEnd();
    lines.push(fmt(COLUMNS));
    for (const r of rows) lines.push(fmt(r));
    lines.push('');
  }
  const bySeverity = new Map<string, number>();
  for (const f of findings) bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
  const counts = [...SEVERITIES]
    .reverse()
    .filter((s) => bySeverity.has(s))
    .map((s) => `${bySeverity.get(s)} ${s}`);
  const where = stats.source !== undefined ? `${stats.spans} span(s) of ${stats.source}` : `${stats.files} file(s), ${stats.spans} span(s)`;
  if (findings.length) lines.push(`${findings.length} finding(s) (${counts.join(', ')}) in ${where}.`);
  else if (stats.skipped.length) lines.push(`No findings in the readable part of ${where}: ${stats.skipped.length} unreadable line(s) or file(s) were skipped and not analysed.`);
  else lines.push(`No findings in ${where}.`);
  if (stats.suppressed) lines.push(`${stats.suppressed} finding(s) suppressed by the baseline.`);
  if (stats.foreign_calls) {
    const none = stats.no_evidence_calls ? `; ${stats.no_evidence_calls} in traces without all the model was told (the user's words not recorded, some not as text or cut to the emitter's size limit, or a tool's result hidden), so guesses cannot be told from the user's values there` : '';
    const unread = unreadableArgsClause(stats.unreadable_args_calls);
    lines.push(`Read ${stats.foreign_calls} tool call(s) from other libraries' traces${none}${unread}.`);
  }
  if (stats.log_records || stats.other_log_records || stats.agent_log_records) lines.push(logRecordsSentence(stats));
  if (stats.conflicting_spans) lines.push(conflictingSpansSentence(stats));
  if (stats.skipped.length) {
    lines.push(`Skipped ${stats.skipped.length} unreadable line(s) or file(s):`);
    for (const p of stats.skipped) lines.push(`  ${formatProblem(p)}`);
  }
  for (const r of stats.rules_skipped) lines.push(`Rule ${r.rule} not run: ${r.reason}.`);
  return lines.join('\n') + '\n';
}

/** The clause both the table and the HTML report add about other libraries' calls whose arguments could not be read ('' for none). */
export function unreadableArgsClause(calls: number): string {
  return calls ? `; ${calls} without readable arguments (not recorded, not text, cut off, not JSON, past 100,000 leaves or nested past 32 levels), so nothing in them (or past the limit) was checked` : '';
}

/** The sentence both the table and the HTML report give about the log records read, and those not read (plain text: nothing in it needs escaping). */
export function logRecordsSentence(stats: AnalysisStats): string {
  const parts: string[] = [];
  if (stats.log_records) {
    const alone = stats.spans_from_log_records ? `; ${stats.spans_from_log_records} span(s) known only from their log records (the trace export holding them was not given)` : '';
    parts.push(`Read ${stats.log_records} GenAI log record(s) as their spans' events${alone}`);
  }
  if (stats.agent_log_records) {
    parts.push(`${parts.length ? 'read' : 'Read'} ${stats.agent_log_records} coding-agent log record(s) (Claude Code, Gemini CLI, Qwen Code, Codex CLI: tool calls, prompts, model calls) as spans of their own`);
  }
  if (stats.other_log_records) {
    parts.push(`${stats.other_log_records} ${stats.log_records ? 'other ' : ''}log record(s) (no GenAI message event: an application's own logs) were scanned for credentials only (their bodies, attributes and keys, resources and instrumentation scopes), not read as tool calls or messages`);
  }
  return `${parts.join('; ')}.`;
}

/**
 * The sentence every report gives about spans read more than once with different content (plain
 * text): only one copy of each was analysed, so a finding only the others would give is missing;
 * and of those, the spans where a copy not analysed may hold a tool call the analysed one does not.
 */
export function conflictingSpansSentence(stats: Pick<AnalysisStats, 'conflicting_spans' | 'conflicting_call_spans'>): string {
  const calls = stats.conflicting_call_spans
    ? ` In ${stats.conflicting_call_spans} of them a copy not analysed may hold another library's tool call or argument the analysed copy does not (it differs in its name, attributes or message events): its calls were not analysed.`
    : '';
  return `${stats.conflicting_spans} span(s) were read more than once with different content (the same trace and span id): one copy of each was analysed, chosen by its content, not by input order; credentials were looked for in every copy.${calls}`;
}

/**
 * What a run could not check, as counts for the machine-readable reports (SARIF run properties,
 * JUnit suite properties): other libraries' calls (only when the traces held any), spans read
 * with differing copies, with those whose copy not analysed may hold a call (only when some were),
 * and an application's own log records (scanned for credentials only, not read as tool calls). Empty when there is nothing to say.
 */
export function uncheckedCounts(stats: AnalysisStats): Record<string, number> {
  return {
    ...(stats.foreign_calls ? { foreign_calls: stats.foreign_calls, no_evidence_calls: stats.no_evidence_calls, unreadable_args_calls: stats.unreadable_args_calls } : {}),
    ...(stats.conflicting_spans ? { conflicting_spans: stats.conflicting_spans, conflicting_call_spans: stats.conflicting_call_spans } : {}),
    ...(stats.other_log_records ? { other_log_records: stats.other_log_records } : {}),
  };
}
