import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { tmp } from './support/analyze-foreign.js';
import { APP_LOG_SPAN, APP_LOG_TOKENS, APP_LOG_TRACE, appLogsDocument, appLogTracesDocument, GENAI_LOG_TOKENS, genAiLogsDocument } from './support/app-log-records.js';

/**
 * `argspan analyze` on an application's own log records (no GenAI event name) beside its traces:
 * their bodies, attributes and attribute keys, their resource and instrumentation scope are scanned
 * for credentials, reported by span (or, written outside any span, by key and time; a resource or
 * scope, by key), never printed, and not again where the trace already reports them.
 */
describe('an application\'s own log records beside the traces', () => {
  let files: [string, string];
  beforeAll(() => {
    const dir = tmp();
    files = [join(dir, 'app.traces.json'), join(dir, 'app.logs.json')];
    writeFileSync(files[0], appLogTracesDocument());
    writeFileSync(files[1], appLogsDocument());
  });

  it('a credential in a body, an attribute or a key is reported by span and key, or outside any span by key and time; in the resource or scope by key, counting the records; one already reported by argument is not again', async () => {
    const db = join(tmp(), 'a.duckdb');
    const run = analyzeBin(...files, '--format', 'json', '--db', db);
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.other_log_records).toBe(8);
    const mine = out.findings.filter((f) => f.rule === 'credential_in_log_record').map((f) => [f.tool, f.key, f.message]);
    expect(mine.sort()).toEqual([
      ['deploy', 'http.request.header.authorization', 'An application log record written in the span (the deploy call) holds in attribute http.request.header.authorization a value matching the github-pat credential shape.'],
      ['deploy', 'log.body', 'An application log record written in the span (the deploy call) holds in its body a value matching the github-pat credential shape.'],
      ['deploy', '[REDACTED:github-pat]', 'An application log record written in the span (the deploy call) has an attribute key [REDACTED:github-pat] matching the github-pat credential shape.'],
      [null, 'registry.token', 'The resource of log records holds in attribute registry.token a value matching the github-pat credential shape (8 record(s) carry it; the first at 2023-11-14T22:13:20.050000000Z).'],
      [null, 'vendor.license', 'The instrumentation scope of log records holds in attribute vendor.license a value matching the github-pat credential shape (8 record(s) carry it; the first at 2023-11-14T22:13:20.050000000Z).'],
      [null, 'otel.scope.version', 'The instrumentation scope of log records holds in its version a value matching the github-pat credential shape (8 record(s) carry it; the first at 2023-11-14T22:13:20.050000000Z).'],
      [null, 'db.connection_string', 'An application log record written outside any span (no trace id; the first at 2023-11-14T22:13:23.000000000Z) holds in attribute db.connection_string a value matching the url-password credential shape.'],
      [null, 'log.body', 'An application log record written outside any span (no trace id; the first at 2023-11-14T22:13:21.000000000Z) holds in its body a value matching the github-pat credential shape (as do 1 other record(s)).'],
    ].sort());
    // The argument's token: its own finding, by tool and argument, once.
    expect(out.findings.filter((f) => f.rule !== 'credential_in_log_record').map((f) => [f.tool, f.key])).toEqual([['deploy', 'token']]);
    // Where they are: the span's ids, or none; hashes only, never a value.
    expect(await query(db, 'SELECT trace_id, span_id, scope, "key", records FROM log_record_credential_hits ORDER BY "key", trace_id NULLS LAST')).toEqual([
      { trace_id: APP_LOG_TRACE, span_id: APP_LOG_SPAN, scope: 'attribute key', key: '[REDACTED:github-pat]', records: 1 },
      { trace_id: null, span_id: null, scope: 'log record', key: 'db.connection_string', records: 1 },
      { trace_id: APP_LOG_TRACE, span_id: APP_LOG_SPAN, scope: 'log record', key: 'http.request.header.authorization', records: 1 },
      { trace_id: APP_LOG_TRACE, span_id: APP_LOG_SPAN, scope: 'log record', key: 'log.body', records: 1 },
      { trace_id: APP_LOG_TRACE, span_id: APP_LOG_SPAN, scope: 'log record', key: 'log.body', records: 1 },
      { trace_id: null, span_id: null, scope: 'log record', key: 'log.body', records: 2 },
      { trace_id: null, span_id: null, scope: 'scope version', key: 'otel.scope.version', records: 8 },
      { trace_id: null, span_id: null, scope: 'resource', key: 'registry.token', records: 8 },
      { trace_id: null, span_id: null, scope: 'scope', key: 'vendor.license', records: 8 },
    ]);
  });

  it.each(['table', 'json', 'sarif', 'junit', 'html'])('%s: no token in the report or on stderr', (format) => {
    const run = analyzeBin(...files, '--format', format);
    expect(run.code, run.stderr).toBe(1);
    for (const t of APP_LOG_TOKENS) expect(run.stdout + run.stderr, t).not.toContain(t);
  });

  it('the table says what was done with the records', () => {
    expect(analyzeBin(...files, '--format', 'table').stdout).toContain("8 log record(s) (no GenAI message event: an application's own logs) were scanned for credentials only (their bodies, attributes and keys, resources and instrumentation scopes), not read as tool calls or messages.");
  });

  it('the logs alone (no trace export beside them): scanned, the credentials reported by key, never printed', () => {
    const run = analyzeBin(files[1], '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    for (const t of APP_LOG_TOKENS) expect(run.stdout + run.stderr, t).not.toContain(t);
    const out = parseJson(run);
    expect([out.stats.spans, out.stats.other_log_records]).toEqual([0, 8]);
    // (the argument's token, logged in its span, is the log's own finding now: no trace reports it)
    expect(out.findings.map((f) => [f.rule, f.key]).sort()).toEqual([
      ['credential_in_log_record', '[REDACTED:github-pat]'],
      ['credential_in_log_record', 'db.connection_string'],
      ['credential_in_log_record', 'http.request.header.authorization'],
      ['credential_in_log_record', 'log.body'],
      ['credential_in_log_record', 'log.body'],
      ['credential_in_log_record', 'log.body'],
      ['credential_in_log_record', 'otel.scope.version'],
      ['credential_in_log_record', 'registry.token'],
      ['credential_in_log_record', 'vendor.license'],
    ]);
  });

  it('a credential in a resource the spans share with the logs is reported once, on the spans\' resource', () => {
    const traces = join(tmp(), 'same-resource.traces.json');
    writeFileSync(traces, appLogTracesDocument(true));
    const run = analyzeBin(traces, files[1], '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    for (const t of APP_LOG_TOKENS) expect(run.stdout + run.stderr, t).not.toContain(t);
    const found = parseJson(run).findings.filter((f) => f.key === 'registry.token').map((f) => f.rule);
    expect(found).toEqual(['credential_in_attribute']);
  });

  it('a logs export of GenAI message records only: its resource and scope, not the traces\', are scanned too', () => {
    const logs = join(tmp(), 'genai.logs.json');
    writeFileSync(logs, genAiLogsDocument());
    const run = analyzeBin(files[0], logs, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    for (const t of [...APP_LOG_TOKENS, ...GENAI_LOG_TOKENS]) expect(run.stdout + run.stderr, t).not.toContain(t);
    const out = parseJson(run);
    expect([out.stats.log_records, out.stats.other_log_records]).toEqual([2, undefined]);
    expect(out.findings.filter((f) => f.rule === 'credential_in_log_record').map((f) => [f.trace_id, f.key, f.message])).toEqual([
      [null, 'collector.auth', 'The resource of log records holds in attribute collector.auth a value matching the github-pat credential shape (2 record(s) carry it; the first at 2023-11-14T22:13:20.010000000Z).'],
      [null, 'vendor.license', 'The instrumentation scope of log records holds in attribute vendor.license a value matching the github-pat credential shape (2 record(s) carry it; the first at 2023-11-14T22:13:20.010000000Z).'],
    ]);
  });

  it('without the logs, nothing of them is reported: the argument alone', () => {
    const out = parseJson(analyzeBin(files[0], '--format', 'json'));
    expect(out.findings.map((f) => [f.rule, f.key])).not.toContainEqual(expect.arrayContaining(['credential_in_log_record']));
    expect(out.stats.other_log_records).toBeUndefined();
  });
});
