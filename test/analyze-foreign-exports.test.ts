import { closeSync, ftruncateSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';
import { FOREIGN, tmp } from './support/analyze-foreign.js';
import { framed, zstdRawFrame } from './support/zstd-raw.js';

/**
 * `argspan analyze` on the exports a platform team has at hand that are not an OTLP trace file: the
 * public API answers of Langfuse, Phoenix and LangSmith (pages past the 64 KB head that recognises
 * them too), OTLP JSON from before OTLP 1.0 (refused), and the OpenTelemetry log records in which the
 * official instrumentations write messages and the model's calls.
 */

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
  it('a first record that writes a field past the head before the fields that name it is read (plain, gzip, zstd; past 1 MiB too)', () => {
    // Langfuse's page with the observation's large input first; LangSmith's list with a large field before "run_type".
    const observation = { id: 'obs-1', traceId: 'a1b2c3', type: 'TOOL', name: 'read_file', startTime: '2026-11-30T10:00:01.000Z', endTime: '2026-11-30T10:00:01.250Z' };
    const runs = langSmith.runs as Record<string, unknown>[];
    const written = (file: string, bytes: string | Buffer) => (writeFileSync(file, bytes), file);
    const small = found(written(join(tmp(), 'small.json'), JSON.stringify(runs)));
    for (const size of [200_000, 3_000_000]) {
      const page = { data: [{ input: { path: '/app/.env', content: 'x'.repeat(size) }, ...observation, output: 'ok' }], meta: { page: 1, limit: 50, totalItems: 1, totalPages: 1 } };
      const list = [{ notes: 'x'.repeat(size), ...runs[0] }, ...runs.slice(1)];
      for (const [name, text, expected] of [['langfuse', JSON.stringify(page), undefined], ['langsmith', JSON.stringify(list), small]] as const) {
        const compressed = size < 1_000_000 ? ([['.gz', gzipSync(text)], ['.zst', zstdRawFrame(Buffer.from(text))]] as const) : [];
        for (const [suffix, bytes] of [['', Buffer.from(text)] as const, ...compressed]) {
          const got = found(written(join(tmp(), `${name}.json${suffix}`), bytes));
          if (expected) expect(got, `${name}${suffix} ${size}`).toEqual(expected);
          else expect(got.findings.filter((f) => !f.startsWith('report_')), `${name}${suffix} ${size}`).toEqual(['sensitive_arg_dispatched high read_file path langfuse']);
        }
      }
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
    expect(table).toContain('Read 9 GenAI log record(s) as their spans\' events; 2 span(s) known only from their log records (the trace export holding them was not given).');
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

  it('a logs export holding no GenAI record, and no traces beside it, is scanned for credentials and says so; an empty one is refused as holding no spans (exit 2)', () => {
    const doc = logsDoc();
    const records = doc.resourceLogs[0]!.scopeLogs[0]!.logRecords;
    for (const r of records) r.eventName = 'app.log';
    const file = join(tmp(), 'app-logs.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`No findings in 1 file(s), 0 span(s).\n${records.length} log record(s) (no GenAI message event: an application's own logs) were scanned for credentials only`);
    doc.resourceLogs[0]!.scopeLogs[0]!.logRecords = [];
    writeFileSync(file, JSON.stringify(doc));
    const empty = analyzeBin(file);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no spans in the input');
  });
});
