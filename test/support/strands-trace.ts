// Strands Agents records its messages and its tool calls' input and result only as span events
// (strands-agents/sdk-python, src/strands/telemetry/tracer.py): per-message events whose `content`
// holds the message's content blocks (Bedrock Converse's) as JSON, or — under
// OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental — `gen_ai.client.inference.operation.details`
// with the GenAI conventions' messages. Built here in its two shapes, as its tracer writes them.

/** A credential planted in the legacy trace's call (no output may print it). */
export const STRANDS_TOKEN = 'ghp_C4NARYstr4ndsTRACEc4narySTRANDStr4ce';

const attrs = (a: Record<string, string>) => Object.entries(a).map(([key, v]) => ({ key, value: { stringValue: v } }));
/** A span maker for one trace. */
const spans = (traceId: string) => (n: number, parent: number | null, name: string, a: Record<string, string>, events: [string, Record<string, string>][]) => ({
  traceId, spanId: `57a00000000000${String(n).padStart(2, '0')}`, parentSpanId: parent === null ? '' : `57a00000000000${String(parent).padStart(2, '0')}`,
  name, kind: 1, startTimeUnixNano: `17000000000${n}0000000`, endTimeUnixNano: `17000000000${n}5000000`, attributes: attrs(a),
  events: events.map(([eventName, e]) => ({ name: eventName, timeUnixNano: `17000000000${n}0000000`, attributes: attrs(e) })),
});
const doc = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: attrs({ 'service.name': 'agent' }) }, scopeSpans: [{ scope: { name: 'strands.telemetry.tracer' }, spans }] }] });

const ASK = 'Schedule the standup for tomorrow 9am.';
const TOOL = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'create_event', 'gen_ai.tool.call.id': 'tooluse_1', 'gen_ai.tool.status': 'success' };

/**
 * Strands' default events: the user's words in `gen_ai.user.message`, the model's call in its
 * choice's `message`, the call's input in the tool span's `gen_ai.tool.message`. The model
 * invented the timezone and put a token in the call.
 */
export function strandsLegacyTrace(): string {
  const input = { title: 'standup', when: 'tomorrow 9am', timezone: 'America/New_York', auth: `token ${STRANDS_TOKEN}` };
  const span = spans('57a0000000000000000000000000001e');
  const user: [string, Record<string, string>] = ['gen_ai.user.message', { content: JSON.stringify([{ text: ASK }]) }];
  return doc([
    span(1, null, 'invoke_agent Strands Agents', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.system': 'strands-agents' }, [user]),
    span(2, 1, 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'strands-agents' }, [
      user,
      ['gen_ai.choice', { finish_reason: 'tool_use', message: JSON.stringify([{ text: 'Creating it.' }, { toolUse: { toolUseId: 'tooluse_1', name: 'create_event', input } }]) }],
    ]),
    span(3, 1, 'execute_tool create_event', { ...TOOL, 'gen_ai.system': 'strands-agents' }, [
      ['gen_ai.tool.message', { role: 'tool', content: JSON.stringify(input), id: 'tooluse_1' }],
      ['gen_ai.choice', { message: JSON.stringify([{ text: 'created' }]), id: 'tooluse_1' }],
    ]),
  ]);
}

/**
 * The latest conventions' events: every message list in `gen_ai.client.inference.operation.details`,
 * the tool span's call as a `tool_call` part. The model invented the timezone and sent a secret file's path.
 */
export function strandsLatestTrace(): string {
  const input = { title: 'standup', when: 'tomorrow 9am', timezone: 'America/New_York', path: '/srv/app/.env' };
  const DETAILS = 'gen_ai.client.inference.operation.details';
  const span = spans('57a0000000000000000000000000002a');
  const asked: [string, Record<string, string>] = [DETAILS, { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: ASK }] }]) }];
  return doc([
    span(1, null, 'invoke_agent Strands Agents', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.provider.name': 'strands-agents' }, [asked]),
    span(2, 1, 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'strands-agents' }, [
      asked,
      [DETAILS, { 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', name: 'create_event', id: 'tooluse_1', arguments: input }], finish_reason: 'tool_use' }]) }],
    ]),
    span(3, 1, 'execute_tool create_event', { ...TOOL, 'gen_ai.provider.name': 'strands-agents' }, [
      [DETAILS, { 'gen_ai.input.messages': JSON.stringify([{ role: 'tool', parts: [{ type: 'tool_call', name: 'create_event', id: 'tooluse_1', arguments: input }] }]) }],
      [DETAILS, { 'gen_ai.output.messages': JSON.stringify([{ role: 'tool', parts: [{ type: 'tool_call_response', id: 'tooluse_1', response: [{ text: 'created' }] }] }]) }],
    ]),
  ]);
}

/** The findings over each (`rule tool key emitter`). */
export const STRANDS_FINDINGS = {
  legacy: [
    ['credential_in_attribute', 'create_event', 'auth', 'genai-semconv'],
    ['assumption_span', 'create_event', 'timezone', 'genai-semconv'],
  ],
  latest: [
    ['assumption_span', 'create_event', 'timezone', 'genai-semconv'],
    ['sensitive_arg_dispatched', 'create_event', 'path', 'genai-semconv'],
  ],
};
