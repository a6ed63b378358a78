import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_AWS_KEY } from '../analyzer/src/synth/rule-cases.js';
import { exporterLogRowsOfFile, exporterRows, exporterRowsOfFile, otelLogsDdl, otelTracesDdl } from '../analyzer/src/synth/collector-rows.js';
import { ROOT, analyzeBin, parseJson, type Run } from './analyze-helpers.js';
import { startClickHouseHttp, type ClickHouseHttp } from './support/clickhouse-http.js';
import { EXPECTED_SCOPE_FINDINGS, SCOPE_CANARY, scopedDocument } from './support/scoped-document.js';

// The real binary against ClickHouse's HTTP interface on loopback (the real engine behind it, in
// this process): the nightly command a platform team runs, with credentials from the environment.
const FILES = ['fixtures/traces/tokyo-invite.jsonl', 'fixtures/traces/dotenv.jsonl'];
const USER = 'argspan';
const PASSWORD = 'pw-C4NARY-7f3a';

let server: ClickHouseHttp;
const dir = mkdtempSync(join(tmpdir(), 'argspan-ch-cli-'));

beforeAll(async () => {
  server = await startClickHouseHttp({ user: USER, password: PASSWORD });
  server.query(otelTracesDdl());
  const rows = FILES.flatMap((f) => exporterRowsOfFile(join(ROOT, f)));
  server.query(`INSERT INTO otel_traces FORMAT JSONEachRow\n${rows.map((r) => JSON.stringify(r)).join('\n')}`);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The binary, run without blocking this process (which answers its HTTP requests). */
function argspan(args: readonly string[], env: Record<string, string> = { CLICKHOUSE_USER: USER, CLICKHOUSE_PASSWORD: PASSWORD }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['packages/cli/bin/argspan.js', 'analyze', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const clickhouse = (...more: string[]) => ['--engine', 'clickhouse', '--clickhouse-url', server.url, ...more];

describe('argspan analyze --engine clickhouse (HTTP)', () => {
  it('prints the findings DuckDB prints for the same spans, and exits 1', async () => {
    const ch = await argspan(clickhouse('--format', 'json', '--reports'));
    expect(ch.stderr).toBe('');
    expect(ch.code).toBe(1);
    const duck = parseJson(analyzeBin(...FILES, '--format', 'json', '--reports'));
    const got = parseJson(ch);
    expect(got.findings).toEqual(duck.findings.map((f) => ({ ...f, file: null })));
    expect(got.stats).toMatchObject({ files: 0, source: 'clickhouse default.otel_traces', spans: duck.stats.spans });
    for (const out of [ch.stdout, ch.stderr]) {
      expect(out).not.toContain(CANARY_AWS_KEY);
      expect(out).not.toContain(PASSWORD);
    }
  });

  it('shares baselines with the DuckDB engine: a baseline written from the exports suppresses the same findings', async () => {
    const baseline = join(dir, 'baseline.json');
    expect(analyzeBin(...FILES, '--write-baseline', baseline).code).toBe(0);
    const run = await argspan(clickhouse('--baseline', baseline, '--format', 'json'));
    expect(run.code).toBe(0);
    expect(parseJson(run).findings).toEqual([]);
    expect(parseJson(run).stats.suppressed).toBeGreaterThan(0);
  });

  it('writes the HTML report: the overview DuckDB gathers from the exports (runs, turns, residency, hops), with --html beside SARIF too', async () => {
    const dataOf = (html: string) => JSON.parse(/<script type=application\/json id=argspan-data>(.*?)<\/script>/s.exec(html)![1]!) as unknown;
    const jaeger = ['--jaeger-url', 'http://jaeger.internal:16686'];
    const ch = await argspan(clickhouse('--format', 'html', ...jaeger));
    expect(ch.code).toBe(1);
    const duck = analyzeBin(...FILES, '--format', 'html', ...jaeger);
    expect(dataOf(ch.stdout)).toEqual(dataOf(duck.stdout));
    // The hop timeline and the turn of each guessed field, as DuckDB's report shows them.
    // (Checked as booleans: a failure would print the whole page.)
    expect(ch.stdout.includes('invoke_agent calendar-assistant')).toBe(true);
    expect(ch.stdout.includes('jaeger.internal:16686')).toBe(true);
    expect(ch.stdout.includes('Not gathered')).toBe(false);
    const html = join(dir, 'report.html');
    const sarif = await argspan(clickhouse('--format', 'sarif', '--html', html));
    expect(sarif.code).toBe(1);
    expect(JSON.parse(sarif.stdout).version).toBe('2.1.0');
    expect(dataOf(readFileSync(html, 'utf8'))).toEqual(dataOf(duck.stdout));
    for (const out of [ch.stdout, ch.stderr, readFileSync(html, 'utf8')]) {
      expect(out.includes(CANARY_AWS_KEY) || out.includes(PASSWORD)).toBe(false);
    }
  });

  it('a window with no trace in it is clean, and says what it read', async () => {
    const run = await argspan(clickhouse('--since', '2020-01-01', '--until', '2020-01-02'));
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'No findings in 0 span(s) of clickhouse default.otel_traces, traces starting from 2020-01-01T00:00:00.000Z before 2020-01-02T00:00:00.000Z.\n',
    );
  });

  it('exits 2 naming the problem: wrong password, no such table, a rule ClickHouse refuses — never the password or a value', async () => {
    const denied = await argspan(clickhouse(), { CLICKHOUSE_USER: USER, CLICKHOUSE_PASSWORD: 'wrong' });
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('ClickHouse error AUTHENTICATION_FAILED');

    const missing = await argspan(clickhouse('--table', 'no_such_table'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`argspan analyze: --table: default.no_such_table does not exist on ${server.url} (or this user may not read it)\n`);

    const ruleDir = mkdtempSync(join(dir, 'duckdb-only-'));
    writeFileSync(
      join(ruleDir, 'hits_listed.sql'),
      readFileSync(join(ROOT, 'analyzer/rules/ask_without_question.sql'), 'utf8')
        .replace('id: ask_without_question', 'id: hits_listed')
        .replace(/FROM tool_calls c\nWHERE .*/s, "FROM tool_calls c WHERE len(c.gate_hits) > 0 AND list_contains(c.gate_hits, 'x')"),
    );
    const refused = await argspan(clickhouse('--rules', ruleDir));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/hits_listed\.sql: rule hits_listed failed in ClickHouse .*(len|list_contains)/);
    // A password with a bare % (URI malformed): named, not decoded, not printed.
    const malformed = await argspan(['--engine', 'clickhouse', '--clickhouse-url', server.url.replace('://', `://${USER}:${PASSWORD}%zz@`)]);
    expect([malformed.code, malformed.stderr]).toEqual([2, 'argspan analyze: --clickhouse-url: has a password with a % not followed by two hex digits: write % as %25\n']);
    // A query string or path is the client's own options and database: refused, the query's names not printed.
    const query = await argspan(['--engine', 'clickhouse', '--clickhouse-url', `${server.url}/?${CANARY_AWS_KEY}=1`]);
    expect([query.code, query.stderr]).toEqual([2, 'argspan analyze: --clickhouse-url: takes no query string or fragment (give the database with --database)\n']);
    const path = await argspan(['--engine', 'clickhouse', '--clickhouse-url', `${server.url}/other_db`]);
    expect([path.code, path.stderr]).toEqual([2, 'argspan analyze: --clickhouse-url: takes no path (give the database with --database)\n']);
    for (const r of [denied, missing, refused, malformed, query, path]) {
      expect(r.stdout).toBe('');
      expect(r.stderr + r.stdout).not.toContain(PASSWORD);
      expect(r.stderr).not.toContain(CANARY_AWS_KEY);
    }
  });

  it('refuses the other engine\'s options and paths before connecting (exit 2)', async () => {
    const paths = await argspan(clickhouse('fixtures/traces/tokyo-invite.jsonl'));
    expect([paths.code, paths.stderr]).toEqual([2, 'argspan analyze: --engine clickhouse reads the traces table, not files: remove the paths\n']);
    const db = await argspan(clickhouse('--db', join(dir, 'x.duckdb')));
    expect([db.code, db.stderr]).toEqual([2, 'argspan analyze: --db is an option of the duckdb engine, not of --engine clickhouse\n']);
    const local = await argspan(clickhouse('--since', '2026-11-01T00:00:00'));
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('--since must be a UTC date');
    const url = analyzeBin('fixtures/traces/tokyo-invite.jsonl', '--clickhouse-url', server.url);
    expect([url.code, url.stderr]).toEqual([2, 'argspan analyze: --clickhouse-url needs --engine clickhouse\n']);
  });
});

describe('argspan analyze --engine clickhouse: credentials in the instrumentation scope', () => {
  it('finds one in the scope\'s name or version as DuckDB does; the exporter drops the scope\'s attributes, so those are not there to find', async () => {
    server.query(otelTracesDdl('scoped_traces'));
    server.query(`INSERT INTO scoped_traces FORMAT JSONEachRow\n${exporterRows(scopedDocument()).map((r) => JSON.stringify(r)).join('\n')}`);
    for (const format of ['table', 'json', 'junit', 'sarif', 'html']) {
      const run = await argspan(clickhouse('--table', 'scoped_traces', '--format', format));
      expect(run.code, format).toBe(1);
      expect(run.stdout + run.stderr, format).not.toContain(SCOPE_CANARY);
    }
    const found = parseJson(await argspan(clickhouse('--table', 'scoped_traces', '--format', 'json'))).findings.map((f) => [`span/${(f as unknown as { span_id: string }).span_id}`, f.message]);
    expect(found.sort()).toEqual(EXPECTED_SCOPE_FINDINGS.filter(([, m]) => !m!.includes(' attribute') && !m!.startsWith('Attribute')).sort());
  });
});

describe('argspan analyze --engine clickhouse: GenAI log records in the exporter\'s logs table', () => {
  const TRACES = 'fixtures/traces/foreign/otel-python-openai-v2-weather.traces.json';
  const PLANTED = 'fixtures/traces/foreign/derived/otel-python-openai-v2-planted.logs.json';
  const insert = (table: string, rows: unknown[]) => server.query(`INSERT INTO ${table} FORMAT JSONEachRow\n${rows.map((r) => JSON.stringify(r)).join('\n')}`);
  const tables = ['--table', 'genai_traces', '--logs-table', 'genai_logs'];

  beforeAll(() => {
    server.query(otelTracesDdl('genai_traces'));
    server.query(otelLogsDdl('genai_logs'));
    insert('genai_traces', exporterRowsOfFile(join(ROOT, TRACES)));
    insert('genai_logs', exporterLogRowsOfFile(join(ROOT, PLANTED)));
  });

  it('--logs-table: the calls the model made in the records, the planted timezone and token reported as DuckDB reports them, never their values', async () => {
    const duck = parseJson(analyzeBin(TRACES, PLANTED, '--format', 'json'));
    const ch = await argspan(clickhouse(...tables, '--format', 'json'));
    expect(ch.code).toBe(1);
    const got = parseJson(ch);
    expect(got.findings).toEqual(duck.findings.map((f) => ({ ...f, file: null })));
    expect(got.stats).toMatchObject({ spans: duck.stats.spans, foreign_calls: 2, log_records: duck.stats.log_records, spans_from_log_records: 0 });
    const table = await argspan(clickhouse(...tables));
    expect(table.stdout).toContain(`Read ${duck.stats.log_records} GenAI log record(s) as their spans' events.`);
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const run = format === 'table' ? table : await argspan(clickhouse(...tables, '--format', format));
      expect(run.code, format).toBe(1);
      for (const value of ['America/Los_Angeles', 'ghp_C4NARY', PASSWORD]) expect(run.stdout + run.stderr, format).not.toContain(value);
    }
  });

  it('a logs table that was named must exist (exit 2); without the option, a missing otel_logs means no logs', async () => {
    const missing = await argspan(clickhouse('--table', 'genai_traces', '--logs-table', 'no_such_logs'));
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([2, '', `argspan analyze: --logs-table: default.no_such_logs does not exist on ${server.url} (or this user may not read it)\n`]);
    const traces = await argspan(clickhouse('--table', 'genai_traces', '--format', 'json'));
    expect(traces.code).toBe(0);
    expect(parseJson(traces).stats).toMatchObject({ foreign_calls: 0 });
    expect(parseJson(traces).stats.log_records).toBeUndefined();
    const duckdb = analyzeBin(TRACES, '--logs-table', 'genai_logs');
    expect([duckdb.code, duckdb.stderr]).toEqual([2, 'argspan analyze: --logs-table needs --engine clickhouse\n']);
  });
});
