import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';

/**
 * `argspan analyze` on inputs written a little differently from the exports it was built on: a
 * byte order mark, protobuf field names on JSON lines, a pipe for a path.
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'argspan-input-shapes-'));
const compact = (file: string) => `${JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))}\n`;

/** Exit code, span count and findings (without the file name, which differs between copies). */
function outcome(...args: string[]) {
  const run = analyzeBin(...args, '--format', 'json');
  expect(run.code, run.stderr).toBeLessThan(2);
  const out = parseJson(run);
  return { code: run.code, spans: out.stats.spans, findings: out.findings.map((f) => ({ ...f, file: undefined })) };
}

describe('argspan analyze on files that open with a UTF-8 byte order mark', () => {
  // Windows tools (PowerShell 5's Out-File, Notepad) write one; it is read as if it were not there.
  it.each([
    ['OTLP JSON lines', () => readFileSync('fixtures/traces/tokyo-invite.jsonl', 'utf8')],
    ['an OTLP document on one line', () => compact('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json')],
    ['a pretty-printed OTLP document', () => readFileSync('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json', 'utf8')],
    ['a Jaeger JSON document', () => readFileSync('fixtures/traces/formats/jaeger-envelope.json', 'utf8')],
    ['Phoenix\'s snake_case OTLP download', () => readFileSync('fixtures/traces/foreign/derived/phoenix-export-google-adk-weather.json', 'utf8')],
    ['a Phoenix spans/otlpv1 answer', () => readFileSync('fixtures/traces/foreign/derived/phoenix-rest-anthropic-timezone.json', 'utf8')],
    ['a Langfuse observations answer', () => readFileSync('fixtures/traces/foreign/derived/langfuse-api-observations-write-document.json', 'utf8')],
    ['a LangSmith runs answer', () => readFileSync('fixtures/traces/foreign/derived/langsmith-api-runs-traceable-tool.json', 'utf8')],
  ])('%s: the same spans and findings as without it', (_name, text) => {
    const dir = tmp();
    writeFileSync(join(dir, 'plain.json'), text());
    writeFileSync(join(dir, 'bom.json'), `\uFEFF${text()}`);
    const plain = outcome(join(dir, 'plain.json'));
    expect(plain.spans).toBeGreaterThan(0);
    expect(outcome(join(dir, 'bom.json'))).toEqual(plain);
  });
});
