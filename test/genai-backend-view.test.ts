import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgspanInstrumentation, ArgspanRefusedError, ArgspanSession } from '@argspan/instrumentation';
import { setupTracing } from '@argspan/setup';
import { analyzeBin, parseJson } from './analyze-helpers.js';

/**
 * argspan's spans as a GenAI backend (Langfuse, Phoenix, an OTel GenAI dashboard) reads them: only
 * the GenAI semantic conventions' keys, nothing argspan-specific. A tool observation is a span
 * with `gen_ai.operation.name = execute_tool`; its name is `gen_ai.tool.name`, its input the
 * opt-in `gen_ai.tool.call.arguments` (JSON), its output `gen_ai.tool.call.result`, its session
 * `gen_ai.conversation.id`; it joins the model's tool call by `gen_ai.tool.call.id`.
 */

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };
type WireSpan = { name: string; spanId: string; parentSpanId?: string; attributes?: { key: string; value: AnyValue }[] };
type WireRequest = { resourceSpans: { scopeSpans: { scope?: { name: string }; spans: WireSpan[] }[] }[] };

function attr(span: WireSpan, key: string): string | undefined {
  return span.attributes?.find((a) => a.key === key)?.value.stringValue;
}

interface ToolObservation {
  name: string | undefined;
  type: string | undefined;
  description: string | undefined;
  callId: string | undefined;
  session: string | undefined;
  input: unknown;
  output: string | undefined;
}

function toolObservations(spans: WireSpan[]): ToolObservation[] {
  return spans
    .filter((s) => attr(s, 'gen_ai.operation.name') === 'execute_tool')
    .map((s) => {
      const args = attr(s, 'gen_ai.tool.call.arguments');
      return {
        name: attr(s, 'gen_ai.tool.name'),
        type: attr(s, 'gen_ai.tool.type'),
        description: attr(s, 'gen_ai.tool.description'),
        callId: attr(s, 'gen_ai.tool.call.id'),
        session: attr(s, 'gen_ai.conversation.id'),
        input: args === undefined ? undefined : JSON.parse(args),
        output: attr(s, 'gen_ai.tool.call.result'),
      };
    });
}

const CANARY = 'ghp_' + 'G3NAIc4naryG3NAIc4naryG3NAIc4naryG3N';

describe("argspan's tool spans as a GenAI backend reads them", () => {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  let url = '';
  const dir = mkdtempSync(join(tmpdir(), 'argspan-genai-view-'));
  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows inputs and outputs with secrets redacted, joins the model tool call by id, and groups by the app conversation', async () => {
    const tracing = setupTracing({ exporter: 'otlp', otlpUrl: url, register: false, serviceName: 'genai-view-agent' });
    const tracer = tracing.provider.getTracer('my-agent-framework');
    const userText = 'Search the docs for rate limits, then post the summary to the team webhook';
    const inst = new ArgspanInstrumentation({
      tracerProvider: tracing.provider,
      hashKey: Buffer.alloc(32, 3),
      session: new ArgspanSession({ conversationId: 'thread-42', userText }),
      recordArguments: true,
      recordResults: true,
      schemas: { 'docs.search': { type: 'function', description: 'Searches the product docs' } },
    });
    const dispatch = inst.wrapDispatch(async (tool) => (tool === 'docs.search' ? { hits: ['limits.md'], note: `cached with ${CANARY}` } : 'posted'));

    // The framework's own spans: the turn, and the model call that asked for the tool.
    const turn = tracer.startSpan('invoke_agent helper', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'thread-42' } });
    await context.with(trace.setSpan(context.active(), turn), async () => {
      const chat = tracer.startSpan('chat gpt-4o', {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.conversation.id': 'thread-42',
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: userText }] }]),
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_abc', name: 'docs.search', arguments: { query: 'rate limits' } }] },
          ]),
        },
      });
      chat.end();
      await dispatch('docs.search', { query: 'rate limits' }, { callId: 'call_abc' });
      await expect(dispatch('http.post', { url: 'https://hooks.example.com/team', headers: { authorization: `token ${CANARY}` } })).rejects.toBeInstanceOf(ArgspanRefusedError);
    });
    turn.end();
    await tracing.shutdown();

    for (const b of bodies) expect(b).not.toContain('G3NAIc4nary');
    const requests = bodies.map((b) => JSON.parse(b) as WireRequest);
    const spans = requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    const observations = toolObservations(spans);
    expect(observations).toEqual([
      {
        name: 'docs.search',
        type: 'function',
        description: 'Searches the product docs',
        callId: 'call_abc',
        session: 'thread-42',
        input: { query: 'rate limits' },
        output: expect.stringMatching(/^\{"hits":\["limits\.md"\],"note":"cached with \[REDACTED:[a-z0-9-]+\]"\}$/),
      },
      {
        name: 'http.post',
        type: undefined,
        description: undefined,
        callId: undefined, // the framework gave none: argspan's own id stays in argspan.call.id
        session: 'thread-42',
        input: { url: 'https://hooks.example.com/team', headers: { authorization: expect.stringMatching(/^\[REDACTED:[a-z0-9-]+\]$/) } },
        output: undefined, // denied: the tool never ran
      },
    ]);
    // The join a backend makes: the model's tool_call id is the tool span's gen_ai.tool.call.id.
    const chat = spans.find((s) => s.name === 'chat gpt-4o')!;
    const asked = (JSON.parse(attr(chat, 'gen_ai.output.messages')!) as { parts: { id: string }[] }[])[0]!.parts[0]!.id;
    expect(observations.filter((o) => o.callId === asked).map((o) => o.name)).toEqual(['docs.search']);

    // The same export with everything argspan-specific removed is what another library's GenAI
    // trace looks like; argspan's analyzer reads it as one (two foreign calls) and finds no
    // credential in it, because the recorded content was redacted before it was written.
    const stripped: WireRequest[] = requests.map((r) => ({
      resourceSpans: r.resourceSpans.map((rs) => ({
        ...rs,
        scopeSpans: rs.scopeSpans
          .map((ss) => ({
            ...ss,
            scope: { name: 'my-agent-framework' },
            spans: ss.spans
              .filter((s) => !s.name.startsWith('tool_arg '))
              .map((s) => ({ ...s, attributes: s.attributes?.filter((a) => !a.key.startsWith('argspan.')) })),
          })),
      })),
    }));
    const file = join(dir, 'genai.jsonl');
    writeFileSync(file, stripped.map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect(readFileSync(file, 'utf8')).toContain('gen_ai.tool.call.arguments');
    const run = analyzeBin(file, '--format', 'json', '--fail-on', 'none');
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('G3NAIc4nary');
    const report = parseJson(run);
    expect(report.stats.foreign_calls).toBe(2);
    expect(report.findings.filter((f) => f.rule === 'credential_in_attribute')).toEqual([]);
  });
});
