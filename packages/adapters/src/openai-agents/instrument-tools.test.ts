import { Agent, Runner, ToolCallError, setTracingDisabled, tool } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '../../test-support/scripted-agents-model.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CallAttributes, ErrorType, OtelAttributes } from '@argspan/conventions';
import { ArgspanClarificationError, ArgspanRefusedError, ArgspanSession } from '@argspan/instrumentation';
import { expectBookingAsked, inTurn, makeCanary, memoryTracing, spansText, toolSpan } from '../../test-support/fixtures.js';
import { instrumentAgentTools } from './instrument-tools.js';

const hashKey = new Uint8Array(32).fill(5);
const PROMPT = 'Book a follow-up with Priya tomorrow morning';
const runner = new Runner({ tracingDisabled: true });

function bookingTools() {
  const lookup = vi.fn(async ({ name }: { name: string }) => JSON.stringify({ name: `${name} Raman`, email: 'priya.raman@example.com' }));
  const create = vi.fn(async () => 'evt-1');
  return {
    lookup,
    create,
    tools: [
      tool({ name: 'contacts_lookup', description: 'Find a contact', parameters: z.object({ name: z.string() }), execute: lookup }),
      tool({
        name: 'calendar_create',
        description: 'Create an event',
        parameters: z.object({
          title: z.string(),
          attendee: z.object({ name: z.string(), email: z.string() }),
          when: z.string(),
          timezone: z.string(),
        }),
        execute: create,
      }),
    ],
  };
}

const bookingScript = () => [
  [functionCall('contacts_lookup', { name: 'Priya' }, { callId: 'call_contacts_3' })],
  [
    functionCall(
      'calendar_create',
      { title: 'Follow-up', attendee: { name: 'Priya', email: 'priya.raman@example.com' }, when: 'tomorrow morning', timezone: 'UTC' },
      { callId: 'call_cal_4' },
    ),
  ],
  [assistantMessage('Which timezone should I use?')],
];

describe('instrumentAgentTools through the Agents SDK runner (scripted model)', () => {
  beforeAll(() => setTracingDisabled(true));

  it('asks instead of booking: the question becomes the tool output, execute never runs, spans carry the real call ids', async () => {
    const { provider, spans } = memoryTracing();
    const { tools, lookup, create } = bookingTools();
    const session = new ArgspanSession({ runId: 'run-agents', userText: PROMPT });
    const model = new ScriptedModel(bookingScript());
    const agent = new Agent({ name: 'Assistant', model, tools: instrumentAgentTools(tools, { tracerProvider: provider, hashKey, session, onRefused: 'result' }) });
    const { result } = await inTurn(provider, () => runner.run(agent, PROMPT));

    expect(result.finalOutput).toBe('Which timezone should I use?');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(create).not.toHaveBeenCalled();
    const shownToModel = JSON.stringify(model.calls[2]!.request.input);
    expect(shownToModel).toContain('which time zone (`timezone`) should I use?');

    expectBookingAsked(spans(), 'run-agents');
  });

  it('throws the typed gate error out of the run by default, without running the tool', async () => {
    const { provider } = memoryTracing();
    const { tools, create } = bookingTools();
    const model = new ScriptedModel(bookingScript());
    const agent = new Agent({ name: 'Assistant', model, tools: instrumentAgentTools(tools, { tracerProvider: provider, hashKey, session: new ArgspanSession({ userText: PROMPT }) }) });
    const err = await runner.run(agent, PROMPT).then(() => undefined, (e: unknown) => e);
    // The SDK wraps a tool's throw in ToolCallError; the gate's typed error is its `error`.
    expect(err).toBeInstanceOf(ToolCallError);
    expect((err as ToolCallError).error).toBeInstanceOf(ArgspanClarificationError);
    expect(create).not.toHaveBeenCalled();
  });

  it('refuses a call whose arguments carry a secret; no span or model input holds the canary', async () => {
    const { provider, spans } = memoryTracing();
    const canary = makeCanary();
    const send = vi.fn(async () => 'sent');
    const tools = instrumentAgentTools(
      [tool({ name: 'post_webhook', description: 'POST JSON', parameters: z.object({ url: z.string(), api_key: z.string() }), execute: send })],
      { tracerProvider: provider, hashKey, onRefused: 'result' },
    );
    const model = new ScriptedModel([
      [functionCall('post_webhook', { url: 'https://hooks.example.com/x', api_key: canary }, { callId: 'call_hook_1' })],
      [assistantMessage('I cannot send that.')],
    ]);
    await runner.run(new Agent({ name: 'Assistant', model, tools }), 'Send the report');
    expect(send).not.toHaveBeenCalled();
    const span = toolSpan(spans(), 'post_webhook', 'call_hook_1');
    expect(span.attributes).toMatchObject({ [CallAttributes.RESIDENCY]: 'secret', [CallAttributes.VERDICT]: 'local', [CallAttributes.ENFORCEMENT]: 'deny', [OtelAttributes.ERROR_TYPE]: ErrorType.REFUSED });
    expect(spansText(spans())).not.toContain(canary);
    const results = JSON.stringify((model.calls[1]!.request.input as { type?: string }[]).filter((i) => i.type === 'function_call_result'));
    expect(results).toContain('argspan refused post_webhook');
    expect(results).not.toContain(canary);
  });

  it('ends the span of a call the SDK times out (timeoutMs), with the timeout as its error, while the tool never settles', async () => {
    const { provider, spans } = memoryTracing();
    let reached = false;
    const hang = tool({
      name: 'slow_lookup',
      description: 'never answers',
      parameters: z.object({ q: z.string() }),
      timeoutMs: 50,
      execute: () => {
        reached = true;
        return new Promise<string>(() => undefined);
      },
    });
    const tools = instrumentAgentTools([hang], { tracerProvider: provider, hashKey });
    const model = new ScriptedModel([[functionCall('slow_lookup', { q: 'status' }, { callId: 'call_slow_1' })], [assistantMessage('It timed out.')]]);
    const result = await runner.run(new Agent({ name: 'Assistant', model, tools }), 'Look up the status');
    expect(reached).toBe(true);
    expect(result.finalOutput).toBe('It timed out.');
    const span = toolSpan(spans(), 'slow_lookup', 'call_slow_1');
    expect(span.status.code).toBe(2);
    expect(span.attributes[OtelAttributes.ERROR_TYPE]).toBe('ToolTimeoutError');
  });

  it('passes non-function tools through and leaves the given tools unmodified', () => {
    const fn = tool({ name: 'noop', description: 'x', parameters: z.object({}), execute: async () => 'ok' });
    const hosted = { type: 'hosted_tool', name: 'web_search' } as const;
    const [wrappedFn, wrappedHosted] = instrumentAgentTools([fn, hosted], { hashKey });
    expect(wrappedHosted).toBe(hosted);
    expect(wrappedFn).not.toBe(fn);
    expect((wrappedFn as typeof fn).invoke).not.toBe(fn.invoke);
    expect(() => instrumentAgentTools([fn], { hashKey, onRefused: 'ignore' as 'throw' })).toThrow(/onRefused/);
  });

  it('classifies unparseable input as the raw string, so a secret in it is still refused', async () => {
    const { provider, spans } = memoryTracing();
    const canary = makeCanary();
    const execute = vi.fn(async () => 'ok');
    const [t] = instrumentAgentTools([tool({ name: 'echo', description: 'x', parameters: z.object({ s: z.string() }), execute })], { tracerProvider: provider, hashKey });
    await expect(t!.invoke({} as never, `{"s": "${canary}"`, { toolCall: { callId: 'call_bad_1' } } as never)).rejects.toBeInstanceOf(ArgspanRefusedError);
    expect(execute).not.toHaveBeenCalled();
    expect(spansText(spans())).not.toContain(canary);
  });

  it('called directly with an object, the tool gets the JSON of what was gated, not what the object says of itself', async () => {
    const { provider } = memoryTracing();
    const canary = makeCanary();
    const execute = vi.fn(async (_input: { s: string }) => 'ok');
    const [t] = instrumentAgentTools([tool({ name: 'echo', description: 'x', parameters: z.object({ s: z.string() }), execute })], { tracerProvider: provider, hashKey });
    const input = { s: 'hello', toString: () => JSON.stringify({ s: canary }) };
    await t!.invoke({} as never, input as never, { toolCall: { callId: 'call_obj_1' } } as never);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]![0]).toEqual({ s: 'hello' });
  });
});
