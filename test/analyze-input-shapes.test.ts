import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, analyzeBin, parseJson } from './analyze-helpers.js';

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

describe('argspan analyze on OTLP JSON lines with the protobuf field names', () => {
  // `{"resource_spans":…}` per line, as protobuf's JSON printer writes it with the proto field names.
  const snakeKeys = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(snakeKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(x)])) : v;
  const doc = JSON.parse(readFileSync('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json', 'utf8')) as { resourceSpans: { scopeSpans: { spans: { traceId: string; attributes: unknown[] }[] }[] }[] };
  /** The document again under trace id prefix `n`, its first span padded by `pad` bytes. */
  const copy = (n: string, pad = 0) => {
    const d = JSON.parse(JSON.stringify(doc)) as typeof doc;
    for (const s of d.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((ss) => ss.spans))) s.traceId = `${n}${s.traceId.slice(n.length)}`;
    if (pad) d.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push({ key: 'app.note', value: { stringValue: 'x'.repeat(pad) } });
    return d;
  };
  it.each([
    ['LF', '\n', 0],
    ['CRLF', '\r\n', 0],
    ['a first line longer than the 64 KB head detection reads', '\n', 70_000],
  ])('%s: the same spans and findings as the same lines in camelCase', (_name, eol, pad) => {
    const dir = tmp();
    const docs = [copy('aaaa', pad), copy('bbbb')];
    writeFileSync(join(dir, 'camel.jsonl'), docs.map((d) => JSON.stringify(d) + eol).join(''));
    writeFileSync(join(dir, 'snake.jsonl'), docs.map((d) => JSON.stringify(snakeKeys(d)) + eol).join(''));
    const camel = outcome(join(dir, 'camel.jsonl'));
    expect(camel.spans).toBe(8);
    expect(camel.findings).toHaveLength(2);
    expect(outcome(join(dir, 'snake.jsonl'))).toEqual(camel);
  });

  it('a broken line is named by file and line (exit 2); --allow-partial reads the others and says which it skipped', () => {
    const file = join(tmp(), 'snake.jsonl');
    writeFileSync(file, `${JSON.stringify(snakeKeys(copy('aaaa')))}\n{"resource_spans": [\n${JSON.stringify(snakeKeys(copy('bbbb')))}\n`);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:2: not valid JSON (a truncated or corrupt line)`);
    const partial = analyzeBin(file, '--format', 'json', '--allow-partial');
    expect(partial.code).toBe(1);
    expect(parseJson(partial).stats).toMatchObject({ spans: 8, skipped: [{ file, line: 2, reason: 'not valid JSON (a truncated or corrupt line)' }] });
  });
});

describe('argspan analyze given a pipe for a path', () => {
  // A pipe's size reads as 0 and its bytes come once; argspan reads a file several times.
  const REFUSED = 'not a regular file but a pipe or device (<(…), a piped /dev/stdin): argspan reads each file more than once; save the input to a file first';
  const sh = (script: string) => spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  it('/dev/stdin piped and <(…) are refused saying to save the input to a file (exit 2), never "file is empty"; /dev/stdin redirected from a file is read', () => {
    for (const [script, path] of [
      ['cat fixtures/traces/tokyo-invite.jsonl | node packages/cli/bin/argspan.js analyze /dev/stdin', '/dev/stdin'],
      ['node packages/cli/bin/argspan.js analyze <(cat fixtures/traces/tokyo-invite.jsonl)', '/dev/fd/'],
    ]) {
      const run = sh(script!);
      expect(run.status, script).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(path);
      expect(run.stderr).toContain(REFUSED);
      expect(run.stderr).not.toContain('file is empty');
    }
    const file = sh('node packages/cli/bin/argspan.js analyze /dev/stdin --format json < fixtures/traces/tokyo-invite.jsonl');
    expect(file.status).toBe(1);
    expect(parseJson({ code: file.status, stdout: file.stdout, stderr: file.stderr }).stats.spans).toBe(10);
  });
});
