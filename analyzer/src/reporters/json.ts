import type { AnalysisResult } from '../types.js';

/** `--format json`: one object, `findings` and `stats`. */
export function jsonReport(result: AnalysisResult): string {
  const findings = result.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    message: f.message,
    trace_id: f.trace_id,
    span_id: f.span_id,
    tool: f.tool,
    key: f.key,
    emitter: f.emitter,
    file: f.file,
    fingerprint: f.fingerprint,
  }));
  return JSON.stringify({ findings, stats: result.stats }, null, 2) + '\n';
}
