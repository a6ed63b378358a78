import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { expectOnlyFinding, FOREIGN, tmp } from './support/analyze-foreign.js';

/**
 * `argspan analyze` on the real traces of OpenInference's instrumentations in `fixtures/traces/foreign/`
 * (Haystack, CrewAI, DSPy, LangChain, LlamaIndex, OpenAI in Python and JS, and its Vercel span
 * processor over the AI SDK's spans): each call once, by tool and key, whichever records repeat it.
 */

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
