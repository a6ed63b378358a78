import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';
import { EXPECTED_SCOPE_FINDINGS, SCOPE_CANARY, scopedDocument } from './support/scoped-document.js';

// A credential in the instrumentation scope (OTLP's `scope.attributes`, its name, its version) is
// shared by every span of the scope: it is found, reported once on the scope's first span, and
// never printed in any output.
const tmp = () => mkdtempSync(join(tmpdir(), 'argspan-scope-'));

/** Protobuf field names, as Arize Phoenix's download writes them. */
function snakeCase(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeCase);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCase(x)]));
}

describe('argspan analyze: credentials in the instrumentation scope', () => {
  const dir = tmp();
  const files = {
    'document.json': JSON.stringify(scopedDocument(), null, 1),
    'lines.jsonl': `${JSON.stringify(scopedDocument())}\n${JSON.stringify(scopedDocument())}\n`,
    'snake.json': JSON.stringify(snakeCase(scopedDocument())),
  };
  it.each(Object.entries(files))('%s: found once per scope text, on its first span, and the value is never printed', (name, text) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    const found = parseJson(run).findings.map((f) => [`span/${(f as unknown as { span_id: string }).span_id}`, f.message]).sort();
    expect(found).toEqual([...EXPECTED_SCOPE_FINDINGS].sort());
    expect(parseJson(run).findings.every((f) => f.rule === 'credential_in_attribute' && f.severity === 'critical')).toBe(true);
    expect(run.stdout + run.stderr).not.toContain(SCOPE_CANARY);
  });

  it('no output format, nor the baseline or the HTML report, holds the credential', () => {
    const file = join(dir, 'document.json');
    writeFileSync(file, files['document.json']);
    for (const format of ['table', 'json', 'junit', 'sarif', 'html']) {
      const run = analyzeBin(file, '--format', format);
      expect(run.code, format).toBe(1);
      expect(run.stdout, format).not.toBe('');
      expect(run.stdout + run.stderr, format).not.toContain(SCOPE_CANARY);
    }
    const baseline = join(dir, 'baseline.json');
    const html = join(dir, 'report.html');
    expect(analyzeBin(file, '--write-baseline', baseline, '--html', html).code).toBe(0);
    expect(readFileSync(baseline, 'utf8')).not.toContain(SCOPE_CANARY);
    expect(readFileSync(html, 'utf8')).not.toContain(SCOPE_CANARY);
  });

  it('a scope attribute written with protobuf value names is refused, not read as empty', () => {
    const file = join(dir, 'mixed.json');
    const doc = scopedDocument() as { resourceSpans: { scopeSpans: { scope: { attributes?: unknown[] } }[] }[] };
    // The reader looks for protobuf value names where the file's bytes hold one: in a scope, it must not read the value as empty.
    doc.resourceSpans[0]!.scopeSpans[0]!.scope.attributes = [{ key: 'deploy.token', value: { string_value: `token ${SCOPE_CANARY}` } }];
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"string_value"');
    expect(run.stdout + run.stderr).not.toContain(SCOPE_CANARY);
  });

  it('Jaeger: the scope is the otel.scope.* tags the collector\'s translator writes, scanned as span attributes', () => {
    const file = join(dir, 'jaeger.json');
    const tags = [{ key: 'otel.scope.name', type: 'string', value: `lib ${SCOPE_CANARY}` }, { key: 'otel.scope.version', type: 'string', value: '1.0' }];
    writeFileSync(file, JSON.stringify({ data: [{ traceID: '5c0be0000000000000000000000000a1', spans: [
      { traceID: '5c0be0000000000000000000000000a1', spanID: '5c0be00000000001', operationName: 'work', references: [], startTime: 1700000000000000, duration: 5, tags, logs: [], processID: 'p1' },
    ], processes: { p1: { serviceName: 'agent', tags: [] } } }] }));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    expect(parseJson(run).findings.map((f) => f.message)).toEqual(['Attribute otel.scope.name on a span holds a value matching the github-pat credential shape.']);
    expect(run.stdout + run.stderr).not.toContain(SCOPE_CANARY);
  });
});
