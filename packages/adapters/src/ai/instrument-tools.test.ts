import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ArgAttributes, CallAttributes, ErrorType, GenAiAttributes, OtelAttributes } from '@argspan/conventions';
import { ArgspanClarificationError, ArgspanRefusedError, ArgspanSession } from '@argspan/instrumentation';
import { argSpans, expectBookingAsked, inTurn, makeCanary, memoryTracing, spansText, toolSpan } from '../../test-support/fixtures.js';
import { instrumentAiTools } from './instrument-tools.js';

const hashKey = new Uint8Array(32).fill(3);
const PROMPT = 'Book a follow-up with Priya tomorrow morning';
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A recorded transcript replayed step by step: the model's tool calls, then its final text. */
function scripted(steps: ({ toolCallId: string; toolName: string; input: unknown }[] | string)[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: steps.map((step) =>
      typeof step === 'string'
        ? { content: [{ type: 'text' as const, text: step }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] }
        : {
            content: step.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: JSON.stringify(c.input) })),
            finishReason: { unified: 'tool-calls' as const, raw: undefined },
            usage,
            warnings: [],
          },
    ),
  });
}

function bookingTools() {
  const lookup = vi.fn(async ({ name }: { name: string }) => ({ name: `${name} Raman`, email: 'priya.raman@example.com' }));
  const create = vi.fn(async () => ({ id: 'evt-1' }));
  const tools = {
    contacts_lookup: tool({ description: 'Find a contact', inputSchema: z.object({ name: z.string() }), execute: lookup }),
    calendar_create: tool({
      description: 'Create an event',
      inputSchema: z.object({
        title: z.string(),
        attendee: z.object({ name: z.string(), email: z.string() }),
        when: z.string(),
        timezone: z.string().optional(),
        send_updates: z.enum(['all', 'none']).default('all'),
      }),
      execute: create,
    }),
  };
  return { tools, lookup, create };
}

describe('instrumentAiTools through the AI SDK tool loop (scripted model, real generateText)', () => {
  it('gates calendar_create on the inferred timezone: one clarifying question, the tool never runs', async () => {
    const { provider, spans } = memoryTracing();
    const { tools, lookup, create } = bookingTools();
    const session = new ArgspanSession({ runId: 'run-ai' });
    const model = scripted([
      [{ toolCallId: 'call_contacts_3', toolName: 'contacts_lookup', input: { name: 'Priya' } }],
      [
        {
          toolCallId: 'call_cal_4',
          toolName: 'calendar_create',
          input: { title: 'Follow-up', attendee: { name: 'Priya', email: 'priya.raman@example.com' }, when: 'tomorrow morning', timezone: 'UTC' },
        },
      ],
      'Which timezone should I use?',
    ]);
    const { result } = await inTurn(provider, () =>
      generateText({ model, prompt: PROMPT, tools: instrumentAiTools(tools, { tracerProvider: provider, hashKey, session }), stopWhen: stepCountIs(5) }),
    );

    expect(lookup).toHaveBeenCalledTimes(1);
    expect(create).not.toHaveBeenCalled();
    const toolError = result.steps[1]!.content.find((p) => p.type === 'tool-error');
    expect(toolError?.toolCallId).toBe('call_cal_4');
    expect(toolError && 'error' in toolError ? toolError.error : undefined).toBeInstanceOf(ArgspanClarificationError);

    const byKey = expectBookingAsked(spans(), 'run-ai');
    // The prompt reached provenance through options.messages; nobody called session.addUserText.
    expect(byKey['attendee.name']?.attributes[ArgAttributes.PROVENANCE]).toBe('user_explicit');
    // zod's .default('all') was filled in by the SDK's validation; the learned schema knows it.
    expect(byKey['send_updates']?.attributes[ArgAttributes.PROVENANCE]).toBe('schema_default');
  });

  it('refuses a call carrying a secret: the tool never runs and no span holds the canary', async () => {
    const { provider, spans } = memoryTracing();
    const canary = makeCanary();
    const fetcher = vi.fn(async () => 'ok');
    const tools = instrumentAiTools(
      {
        http_get: tool({
          description: 'GET a URL',
          inputSchema: jsonSchema<{ url: string; headers?: Record<string, string> }>({
            type: 'object',
            properties: { url: { type: 'string' }, headers: { type: 'object', additionalProperties: { type: 'string' } } },
            required: ['url'],
          }),
          execute: fetcher,
        }),
      },
      { tracerProvider: provider, hashKey },
    );
    const model = scripted([
      [{ toolCallId: 'call_http_1', toolName: 'http_get', input: { url: 'https://api.example.com/v1/models', headers: { authorization: `Bearer ${canary}` } } }],
      'done',
    ]);
    const result = await generateText({ model, prompt: 'List the models', tools, stopWhen: stepCountIs(3) });

    expect(fetcher).not.toHaveBeenCalled();
    const toolError = result.steps[0]!.content.find((p) => p.type === 'tool-error');
    expect(toolError && 'error' in toolError ? toolError.error : undefined).toBeInstanceOf(ArgspanRefusedError);
    const span = toolSpan(spans(), 'http_get', 'call_http_1');
    expect(span.attributes[CallAttributes.RESIDENCY]).toBe('secret');
    expect(span.attributes[CallAttributes.VERDICT]).toBe('local');
    expect(span.attributes[CallAttributes.ENFORCEMENT]).toBe('deny');
    expect(spansText(spans())).not.toContain(canary);
    // The tool error the model is shown on the next step names the rule and key, never the value.
    const toolMessage = JSON.stringify(model.doGenerateCalls[1]!.prompt.filter((m) => m.role === 'tool'));
    expect(toolMessage).toContain('argspan refused http_get');
    expect(toolMessage).toContain('headers.authorization');
    expect(toolMessage).not.toContain(canary);
  });

  it('runs an allowed call with the real call id and passes the SDK options through', async () => {
    const { provider, spans } = memoryTracing();
    const execute = vi.fn(async (input: { city: string }, options: { toolCallId: string }) => `sunny in ${input.city} (${options.toolCallId})`);
    const tools = instrumentAiTools({ weather: tool({ inputSchema: z.object({ city: z.string() }), execute }) }, { tracerProvider: provider, hashKey });
    const out = await tools.weather.execute!({ city: 'Lisbon' }, { toolCallId: 'call_w_1', messages: [{ role: 'user', content: 'Weather in Lisbon?' }] });
    expect(out).toBe('sunny in Lisbon (call_w_1)');
    const span = toolSpan(spans(), 'weather', 'call_w_1');
    expect(argSpans(spans(), span)[0]?.attributes[ArgAttributes.PROVENANCE]).toBe('user_explicit');
  });

  it('keeps a streaming tool a generator and records its last value as context', async () => {
    const { provider, spans } = memoryTracing();
    const session = new ArgspanSession();
    const tools = instrumentAiTools(
      {
        progress: tool({
          inputSchema: z.object({ job: z.string() }),
          async *execute({ job }: { job: string }) {
            yield { status: 'running', job };
            yield { status: 'done', job, ticket: 'TCK-48213' };
          },
        }),
        close_ticket: tool({ inputSchema: z.object({ ticket: z.string() }), execute: async () => 'closed' }),
      },
      { tracerProvider: provider, hashKey, session, recordResults: true },
    );
    const it = tools.progress.execute!({ job: 'build' }, { toolCallId: 'call_p_1', messages: [] }) as AsyncIterable<unknown>;
    const seen: unknown[] = [];
    for await (const v of it) seen.push(v);
    expect(seen).toHaveLength(2);
    await tools.close_ticket.execute!({ ticket: 'TCK-48213' }, { toolCallId: 'call_c_2', messages: [] });
    const span = toolSpan(spans(), 'close_ticket', 'call_c_2');
    expect(argSpans(spans(), span)[0]?.attributes[ArgAttributes.SOURCE_CALL_ID]).toBe('call_p_1');
    // The stream has no value when its span ends: no result is recorded (not the iterator as "{}"); a plain result is.
    expect(toolSpan(spans(), 'progress', 'call_p_1').attributes[GenAiAttributes.TOOL_CALL_RESULT]).toBeUndefined();
    expect(span.attributes[GenAiAttributes.TOOL_CALL_RESULT]).toBe('closed');
  });

  it('passes tools without execute through unchanged and does not modify the record it was given', () => {
    const clientSide = tool({ inputSchema: z.object({ q: z.string() }) });
    const execute = async () => 1;
    const server = tool({ inputSchema: z.object({ q: z.string() }), execute });
    const wrapped = instrumentAiTools({ clientSide, server }, { hashKey });
    expect(wrapped.clientSide).toBe(clientSide);
    expect(wrapped.server).not.toBe(server);
    expect(server.execute).toBe(execute);
  });
});
