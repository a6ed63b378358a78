import type { Severity } from '../rules/rule-file.js';
import type { AnalysisResult } from '../types.js';
import { formatProblem } from '../load/input-error.js';
import { uncheckedCounts } from './table.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' };

/** `--format sarif`: SARIF 2.1.0, one rule descriptor per rule, one result per finding. */
export function sarifReport(result: AnalysisResult): string {
  const index = new Map(result.rules.map((r, i) => [r.id, i]));
  const unchecked = uncheckedCounts(result.stats);
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
        // What the run could not check (other libraries' calls, spans read with differing copies), when there is any.
        ...(Object.keys(unchecked).length > 0 ? { properties: unchecked } : {}),
        // What it did not read (--allow-partial) and the rules it did not run, so a partial run never looks whole.
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: [
              ...result.stats.skipped.map((p) => ({ level: 'warning', message: { text: `skipped, not analysed: ${formatProblem(p)}` } })),
              ...result.stats.rules_skipped.map((r) => ({ level: 'note', message: { text: `rule ${r.rule} not run: ${r.reason}` }, descriptor: { id: r.rule } })),
            ],
          },
        ],
        results: result.findings.map((f) => ({
          ruleId: f.rule,
          ...(index.has(f.rule) ? { ruleIndex: index.get(f.rule) } : {}),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              ...(f.file ? { physicalLocation: { artifactLocation: { uri: fileUri(f.file) } } } : {}),
              logicalLocations: [{ fullyQualifiedName: [f.trace_id, f.span_id, f.tool, f.key].map((p) => p ?? '-').join('/'), kind: 'span' }],
            },
          ],
          partialFingerprints: { 'argspan/v2': f.fingerprint },
          properties: { severity: f.severity, trace_id: f.trace_id, span_id: f.span_id, tool: f.tool, key: f.key, emitter: f.emitter },
        })),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}

/**
 * A file's path as the URI reference SARIF asks for: `/`-separated, each segment percent-encoded,
 * so a `#`, `?`, `%` or space in a name (or a control character) is part of the path, not a
 * fragment, a query or an escape; an absolute path as a `file:` URI.
 */
export function fileUri(path: string): string {
  const uri = path.split(/[\\/]/).map(encodeURIComponent).join('/');
  // (an absolute path as an absolute URI: `file:///…`, a Windows drive `file:///C:/…`; a relative one stays relative to the checkout)
  if (uri.startsWith('/')) return `file://${uri}`;
  return /^[A-Za-z]%3A\//.test(uri) ? `file:///${uri.replace('%3A', ':')}` : uri;
}
