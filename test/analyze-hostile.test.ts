import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { MAX_JSON_NESTING, fingerprintOf, type Finding } from '@argspan/analyzer';
import { describe, expect, it } from 'vitest';
import { main } from '../packages/cli/src/main.js';
import { analyzeBin, parseJson, ROOT } from './analyze-helpers.js';
import { framed, zstdRawFrame } from './support/zstd-raw.js';

/** A GitHub token shape: the credential a hostile or careless export plants. */
const CANARY = 'ghp_' + 'C4NARYc4naryC4NARYc4naryC4NARYc4nary';
const TOKYO = 'fixtures/traces/tokyo-invite.jsonl';
const tokyo = readFileSync(join(ROOT, TOKYO), 'utf8').trim();
const tmp = () => mkdtempSync(join(tmpdir(), 'argspan-hostile-'));
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('argspan analyze on hostile input: nothing leaks', () => {
  it('a line that is not UTF-8 is named by file and line, and its credential never printed (plain, gzip, zstd)', () => {
    const dir = tmp();
    const bad = Buffer.concat([Buffer.from(tokyo.replace('"agent"', `"${CANARY}`)), Buffer.from([0xff, 0xfe]), Buffer.from('"')]);
    const text = Buffer.concat([Buffer.from(`${tokyo}\n`), bad, Buffer.from('\n')]);
    const files = { 'utf8.jsonl': text, 'utf8.jsonl.gz': gzipSync(text), 'utf8.jsonl.zst': zstdRawFrame(text) };
    for (const [name, bytes] of Object.entries(files)) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const run = analyzeBin(file);
      expect(run.code, name).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`${file}:2: invalid UTF-8`);
      expect(run.stdout + run.stderr).not.toContain(CANARY);
      const partial = analyzeBin(file, '--allow-partial', '--format', 'json');
      expect(partial.code, name).toBe(1);
      expect(parseJson(partial).stats.skipped).toEqual([{ file, line: 2, reason: 'invalid UTF-8' }]);
      expect(partial.stdout + partial.stderr).not.toContain(CANARY);
    }
  });

  it('a credential where a trace names a tool or a label is redacted in every report, and the fingerprint is unchanged', () => {
    const file = join(tmp(), 'named.jsonl');
    writeFileSync(file, `${tokyo.replaceAll('calendar.create', CANARY).replace('"tiny-public"', `"${CANARY}"`)}\n`);
    for (const format of ['table', 'json', 'junit', 'sarif']) {
      const run = analyzeBin(file, '--format', format, '--reports');
      expect(run.code, format).toBe(1);
      expect(run.stdout + run.stderr, format).not.toContain(CANARY);
      expect(run.stdout, format).toContain('[REDACTED:');
    }
    const redacted = parseJson(analyzeBin(file, '--format', 'json')).findings.find((f) => f.rule === 'assumption_span') as unknown as Finding;
    expect(redacted.tool).toMatch(/^\[REDACTED:[a-z0-9-]+\]$/);
    // A baseline written before the redaction existed still matches: the fingerprint is of the names as traced.
    expect(redacted.fingerprint).toBe(fingerprintOf({ ...redacted, tool: CANARY }));
  });

  it('a credential in a trace file\'s name is redacted in every report, the HTML and every error naming the file', () => {
    const dir = tmp();
    writeFileSync(join(dir, `export-${CANARY}.jsonl`), `${tokyo}\n`);
    writeFileSync(join(dir, `broken-${CANARY}.jsonl`), '{"resourceSpans": [\n');
    const refused = analyzeBin(dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('broken-[REDACTED:');
    expect(refused.stdout + refused.stderr).not.toContain(CANARY);
    const html = join(tmp(), 'report.html');
    for (const format of ['table', 'json', 'junit', 'sarif']) {
      const run = analyzeBin(dir, '--allow-partial', '--format', format, '--html', html);
      expect(run.code, format).toBe(1);
      expect(run.stdout + run.stderr + readFileSync(html, 'utf8'), format).not.toContain(CANARY);
    }
    const out = parseJson(analyzeBin(dir, '--allow-partial', '--format', 'json'));
    expect(out.findings.map((f) => f.file)).toContain(join(dir, 'export-[REDACTED:github-pat].jsonl'));
  });

  it('a credential in a path given as an option is redacted in every message about it and in the HTML report', () => {
    const dir = join(tmp(), `ci-${CANARY}`);
    mkdirSync(dir);
    const input = join(dir, 'export.jsonl');
    writeFileSync(input, `${tokyo}\n`);
    writeFileSync(join(dir, 'not-a-db.db'), 'plain text, not a database');
    const baseline = join(dir, 'baseline.json');
    const html = join(dir, 'report.html');
    const runs = [
      analyzeBin(input, '--write-baseline', baseline),
      analyzeBin(input, '--baseline', baseline, '--format', 'html', '--html', html),
      analyzeBin(input, '--html', input),
      analyzeBin(input, '--write-baseline', input),
      analyzeBin(input, '--baseline', join(dir, 'missing.json')),
      analyzeBin(input, '--rules', join(dir, 'no-rules')),
      analyzeBin(input, '--db', join(dir, 'not-a-db.db')),
      analyzeBin(input, '--html', join(dir, 'no-such-dir', 'r.html')),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 2, 2, 2, 2, 2, 2]);
    expect(runs[0]!.stderr).toContain(`ci-[REDACTED:github-pat]`);
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(CANARY.slice(4, 16));
    expect(readFileSync(html, 'utf8')).toContain('ci-[REDACTED:github-pat]');
    expect(readFileSync(html, 'utf8')).not.toContain(CANARY.slice(4, 16));
  });

  it('credentials in a span\'s name and its status message are findings named by the place, whose fingerprints do not depend on each other', () => {
    const dir = tmp();
    const STATUS_CANARY = 'ghp_' + 'St4TUSc4naryST4TUSc4naryST4TUSc4nary';
    const root = '"name":"invoke_agent calendar-assistant"';
    const status = `"status":{"code":2,"message":"deploy failed for ${STATUS_CANARY}"}`;
    const placed = (name: string) => {
      const file = join(dir, `${name.length}.jsonl`);
      writeFileSync(file, `${tokyo.replace(root, `"name":"${name}",${status}`)}\n`);
      const run = analyzeBin(file, '--format', 'json');
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(CANARY);
      expect(run.stdout + run.stderr).not.toContain(STATUS_CANARY);
      return parseJson(run).findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.key, f.fingerprint]);
    };
    const both = new Map(placed(`invoke_agent ${CANARY}`));
    expect([...both.keys()].sort()).toEqual(['otel.status_description', 'span.name']);
    // The name's token gone (rotated, the agent renamed): the status message's finding is the one the baseline holds.
    expect(placed('invoke_agent calendar-assistant')).toEqual([['otel.status_description', both.get('otel.status_description')]]);
  });

  it('--db on a file that is not a DuckDB database says so, without blaming the memory limit or quoting the file', () => {
    const dir = tmp();
    const notDb = join(dir, 'notes.duckdb');
    writeFileSync(notDb, `token=${CANARY}\n`);
    const run = analyzeBin(TOKYO, '--db', notDb);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`argspan analyze: --db: ${notDb} is not a DuckDB database file (it is left untouched; give a new file name or an existing DuckDB database)\n`);
    expect(readFileSync(notDb, 'utf8')).toBe(`token=${CANARY}\n`);
    // A CSV, JSON or Parquet file DuckDB would open as an in-memory database over it (nothing kept): refused alike.
    for (const [name, body] of [['t.csv', 'a,b\n1,2\n'], ['t.json', '{"a": 1}\n'], ['t.parquet', 'PAR1 not really\n']] as const) {
      const data = join(dir, name);
      writeFileSync(data, body);
      const d = analyzeBin(TOKYO, '--db', data);
      expect(d.code, name).toBe(2);
      expect(d.stderr).toContain(`--db: ${data} is not a DuckDB database file`);
      expect(readFileSync(data, 'utf8')).toBe(body);
    }
    expect(analyzeBin(TOKYO, '--db', dir).stderr).toContain(`--db: ${dir} is a directory`);
    expect(analyzeBin(TOKYO, '--db', join(dir, 'no', 'such', 'x.duckdb')).stderr).toContain('its folder does not exist');
  });

  it('a baseline that cannot be written is bad usage (2), and prints no report', () => {
    const run = analyzeBin(TOKYO, '--write-baseline', join(tmp(), 'missing-folder', 'baseline.json'));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--write-baseline: .* cannot be written \(ENOENT\)/);
  });

  it('an output that is one of the input files is bad usage (2), and the file is left as it was', () => {
    const dir = tmp();
    const trace = join(dir, 'a.jsonl');
    writeFileSync(trace, `${tokyo}\n`);
    for (const [option, args] of [['--write-baseline', [trace]], ['--html', [dir]]] as const) {
      const run = analyzeBin(...args, option, trace);
      expect(run.code, option).toBe(2);
      expect(run.stderr).toContain(`argspan analyze: ${option}: ${trace} is one of the input files; write it elsewhere`);
      expect(readFileSync(trace, 'utf8')).toBe(`${tokyo}\n`);
    }
    // a new baseline beside the traces is fine
    expect(analyzeBin(dir, '--write-baseline', join(dir, 'baseline.json')).code).toBe(0);
  });

  it('a baseline of another version is refused naming the file (2), never read as if it were this one', () => {
    const baseline = join(tmp(), 'baseline.json');
    writeFileSync(baseline, JSON.stringify({ version: 3, findings: [] }));
    const run = analyzeBin(TOKYO, '--baseline', baseline);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${baseline}: baseline of another version than the ones this argspan reads (1, 2)`);
  });

  it('a version 1 baseline (its fingerprints named the trace and span) still accepts what it accepted, known by rule, tool and key', () => {
    const dir = tmp();
    const v2 = join(dir, 'v2.json');
    expect(analyzeBin(TOKYO, '--write-baseline', v2).code).toBe(0);
    const written = JSON.parse(readFileSync(v2, 'utf8')) as { version: number; findings: { fingerprint: string }[] };
    expect(written.version).toBe(2);
    // As argspan wrote it before: version 1, every fingerprint another (trace and span ids hashed in).
    const v1 = join(dir, 'v1.json');
    writeFileSync(v1, JSON.stringify({ version: 1, findings: written.findings.map((f, i) => ({ ...f, fingerprint: `${i}`.padStart(32, 'f') })) }));
    const run = analyzeBin(TOKYO, '--baseline', v1, '--format', 'json');
    expect(run.code).toBe(0);
    expect(parseJson(run).stats.suppressed).toBe(written.findings.length);
  });

  it('an --export-parquet folder that cannot be made is bad usage (2), also under /proc (where a recursive mkdir never returns)', () => {
    for (const dir of [join(tmp(), 'a-file', 'parquet'), '/proc/argspan-none/parquet']) {
      if (dir.includes('a-file')) writeFileSync(dirname(dir), 'x');
      const run = analyzeBin(TOKYO, '--export-parquet', dir);
      expect(run.code, dir).toBe(2);
      expect(run.stderr).toMatch(/--export-parquet: .* cannot be written \((ENOENT|ENOTDIR)\)/);
    }
  });
});

describe('argspan analyze on hostile input: nothing wedges', () => {
  it(`nesting 100k deep exits 2 naming file and line ("nesting deeper than ${MAX_JSON_NESTING} levels"), in every format and compression`, () => {
    const dir = tmp();
    const inAttribute = tokyo.replace('{"stringValue":"agent"}', `{"stringValue":"agent","kvlistValue":${deep(100_000)}}`);
    const inResourceSpans = `{"resourceSpans":[${deep(100_000)}]}`;
    const lines = `${inResourceSpans}\n${inAttribute}\n`;
    const files: Record<string, Buffer> = {
      'lines.jsonl': Buffer.from(lines),
      'lines.jsonl.gz': gzipSync(lines),
      'lines.jsonl.zst': zstdRawFrame(Buffer.from(lines)),
      'document.json': Buffer.from(`{"resourceSpans":[${deep(100_000)}]}`),
      'jaeger.json': Buffer.from(`{"data":[{"traceID":"ab","spans":[{"spanID":"cd","tags":[{"key":"k","type":"string","value":${deep(100_000)}}]}]}]}`),
      'framed-json.bin': framed([Buffer.from(inAttribute)]),
      'framed-gzip.bin': framed([gzipSync(inAttribute)]),
      'framed-zstd.bin': framed([zstdRawFrame(Buffer.from(inAttribute))]),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    // One run over all of them: --allow-partial reads on past each file; nothing readable is left, so it still exits 2.
    const run = analyzeBin(...Object.keys(files).map((f) => join(dir, f)), '--allow-partial');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const named = (name: string, line: number, prefix = '') => `argspan analyze: ${join(dir, name)}:${line}: ${prefix}nesting deeper than ${MAX_JSON_NESTING} levels\n`;
    for (const expected of [
      named('lines.jsonl', 1), named('lines.jsonl', 2), named('lines.jsonl.gz', 1), named('lines.jsonl.gz', 2), named('lines.jsonl.zst', 1), named('lines.jsonl.zst', 2),
      named('document.json', 1), named('jaeger.json', 1),
      named('framed-json.bin', 1, 'framed message 1: '), named('framed-gzip.bin', 1, 'framed message 1: '), named('framed-zstd.bin', 1, 'framed message 1: '),
    ]) expect(run.stderr).toContain(expected);
    // Without --allow-partial the first bad file ends the run, the same way.
    const strict = analyzeBin(join(dir, 'lines.jsonl.zst'));
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(named('lines.jsonl.zst', 1));
  });

  it('100k findings print as a table (the reporter once overflowed the stack and called it bad input)', () => {
    const file = join(tmp(), 'many.jsonl');
    // An AWS access key id shape (AKIA + 16 of A-Z, 2-7) on every span, a different one each time.
    const key = (i: number) => `AKIA${[...createHash('sha256').update(String(i)).digest().subarray(0, 16)].map((b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[b % 32]).join('')}`;
    const line = (first: number) =>
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: 1000 }, (_, k) => ({ traceId: '5b8efff798038103d269b633813fc60c', spanId: (first + k + 1).toString(16).padStart(16, '0'), name: 'chat', attributes: [{ key: 'note', value: { stringValue: `key=${key(first + k)}` } }] })) }] }],
      });
    writeFileSync(file, Array.from({ length: 100 }, (_, i) => line(i * 1000)).join('\n') + '\n');
    const run = analyzeBin(file, '--fail-on', 'critical');
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(1);
    const summary = /^(\d+) finding\(s\) \(\1 critical\) in 1 file\(s\), 100000 span\(s\)\.$/m.exec(run.stdout);
    // The detector passes over a few keys whose random letters look like a placeholder.
    expect(Number(summary?.[1])).toBeGreaterThan(99_000);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('critical  credential_in_attribute'))).toHaveLength(Number(summary?.[1]));
  });
});

describe('argspan analyze: exit code 3 is a bug, never bad input', () => {
  it('an error nobody expected exits 3 with a message stripped of quoted text', async () => {
    let err = '';
    const broken = new Writable({ write: (_chunk, _enc, done) => done() });
    // stdout fails the way a bug would: a throw, carrying a fragment of what it was writing.
    broken.write = () => {
      throw new SyntaxError(`Unexpected token 'g', "{"a":"${CANARY}"}" is not valid JSON`);
    };
    const stderr = new Writable({ write: (chunk, _enc, done) => ((err += String(chunk)), done()) });
    const code = await main(['node', 'argspan', 'analyze', join(ROOT, TOKYO)], { stdin: process.stdin, stdout: broken, stderr });
    expect(code).toBe(3);
    expect(err).toMatch(/^argspan: internal error \(a bug in argspan, not a problem with the input; please report it\): SyntaxError: Unexpected token …$/m);
    expect(err).not.toContain(CANARY);
  });
});
