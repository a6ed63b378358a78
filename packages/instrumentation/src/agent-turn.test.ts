import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { GenAiAttributes, OtelAttributes } from '@argspan/conventions';
import { memoryTracing, only } from '../test-support/tracing.js';
import { runAgentTurn } from './agent-turn.js';
import { ArgspanRefusedError } from './errors.js';
import { instrumentDispatch } from './instrumentation.js';
import { ArgspanSession } from './session.js';

const hashKey = Buffer.alloc(32, 9);

describe('runAgentTurn', () => {
  it("puts the turn's tool calls under one invoke_agent span, in one trace", async () => {
    const { provider, spans } = memoryTracing();
    const session = new ArgspanSession({ conversationId: 'thread-9', userText: 'look up the weather in Oslo' });
    const dispatch = instrumentDispatch(async () => 'ok', { tracerProvider: provider, hashKey, session });
    const result = await runAgentTurn(
      async () => {
        await dispatch('weather.lookup', { city: 'Oslo' });
        return dispatch('weather.lookup', { city: 'Oslo', units: 'metric' });
      },
      { agentName: 'planner', session, tracerProvider: provider },
    );
    expect(result).toBe('ok');
    const turn = only(spans(), 'invoke_agent planner');
    expect(turn.attributes).toEqual({
      [GenAiAttributes.OPERATION_NAME]: 'invoke_agent',
      [GenAiAttributes.AGENT_NAME]: 'planner',
      [GenAiAttributes.CONVERSATION_ID]: 'thread-9',
    });
    const calls = spans().filter((s) => s.name === 'execute_tool weather.lookup');
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
      expect(c.spanContext().traceId).toBe(turn.spanContext().traceId);
    }
  });

  it('without an agent name is called invoke_agent; a call outside any turn is a trace of its own', async () => {
    const { provider, spans } = memoryTracing();
    const dispatch = instrumentDispatch(async () => 'ok', { tracerProvider: provider, hashKey });
    await runAgentTurn(() => dispatch('t', { q: 'a' }), { tracerProvider: provider });
    await dispatch('u', { q: 'b' });
    const turn = only(spans(), 'invoke_agent');
    expect(turn.attributes[GenAiAttributes.AGENT_NAME]).toBeUndefined();
    expect(only(spans(), 'execute_tool t').parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(only(spans(), 'execute_tool u').parentSpanContext).toBeUndefined();
  });

  it('marks the turn as failed with the error class when the turn throws, and rethrows', async () => {
    const { provider, spans } = memoryTracing();
    const dispatch = instrumentDispatch(async () => 'ok', { tracerProvider: provider, hashKey });
    const canary = 'AKIAZZTURNCANARYQZXW';
    await expect(runAgentTurn(() => dispatch('s3.put', { aws_access_key_id: canary }), { tracerProvider: provider })).rejects.toBeInstanceOf(ArgspanRefusedError);
    const turn = only(spans(), 'invoke_agent');
    expect(turn.status.code).toBe(SpanStatusCode.ERROR);
    expect(turn.attributes[OtelAttributes.ERROR_TYPE]).toBe('ArgspanRefusedError');
    expect(JSON.stringify(spans().map((s) => [s.name, s.attributes, s.status]))).not.toContain(canary);
  });
});
