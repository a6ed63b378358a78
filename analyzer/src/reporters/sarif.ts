import type { Severity } from '../rules/rule-file.js';
import type { AnalysisResult } from '../types.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' };

/** `--format sarif`: SARIF 2.1.0, one rule descriptor per rule, one result per finding. */
export function sarifReport(result: AnalysisResult): string {
  const index = new Map(result.rules.map((r, i) => [r.id, i]));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'argspan',
            informationUri: 'https://github.com/argspan/argspan',
            rules: result.rules.map((r) => ({
              id: r.id,
              name: r.id,
              shortDescription: { text: r.title },
              fullDescription: { text: r.description },
              help: { text: r.remedy },
              defaultConfiguration: { level: LEVEL[r.severity] },
              properties: { severity: r.severity, kind: r.kind },
            })),
          },
        },
        // Counts of other libraries' calls (only when the traces held any) and of spans read with differing copies (only when some were): what the run could not check.
        ...(result.stats.foreign_calls || result.stats.conflicting_spans
          ? {
              properties: {
                ...(result.stats.foreign_calls
                  ? { foreign_calls: result.stats.foreign_calls, no_evidence_calls: result.stats.no_evidence_calls, unreadable_args_calls: result.stats.unreadable_args_calls }
                  : {}),
                ...(result.stats.conflicting_spans ? { conflicting_spans: result.stats.conflicting_spans } : {}),
              },
            }
          : {}),
        results: result.findings.map((f) => ({
          ruleId: f.rule,
          ...(index.has(f.rule) ? { ruleIndex: index.get(f.rule) } : {}),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              ...(f.file ? { physicalLocation: { artifactLocation: { uri: f.file.split('\\').join('/') } } } : {}),
              logicalLocations: [{ fullyQualifiedName: [f.trace_id, f.span_id, f.tool, f.key].map((p) => p ?? '-').join('/'), kind: 'span' }],
            },
          ],
          partialFingerprints: { 'argspan/v1': f.fingerprint },
          properties: { severity: f.severity, trace_id: f.trace_id, span_id: f.span_id, tool: f.tool, key: f.key, emitter: f.emitter },
        })),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
