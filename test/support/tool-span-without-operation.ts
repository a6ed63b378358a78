// Some emitters write `execute_tool {tool}` with gen_ai.tool.name and leave gen_ai.operation.name out.
const attrs = (a: Record<string, string>) => Object.entries(a).map(([key, v]) => ({ key, value: { stringValue: v } }));
const span = (n: number, name: string, a: Record<string, string>) => ({
  traceId: '0e7a0000000000000000000000000001', spanId: `0e7a0000000000${String(n).padStart(2, '0')}`, parentSpanId: n === 1 ? '' : '0e7a000000000001',
  name, startTimeUnixNano: `17000000000${n}0000000`, endTimeUnixNano: `17000000000${n}5000000`, attributes: attrs(a),
});

/** An OTLP JSON document: two such tool spans reading a secret file, a chat span that names a tool, and a span that only mentions one. */
export function toolSpansWithoutOperation(): string {
  const prompt = { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Check the config for me.' }] }]) };
  const spans = [
    span(1, 'invoke_agent helper', prompt),
    span(2, 'execute_tool read_file', { 'gen_ai.tool.name': 'read_file', 'gen_ai.tool.call.id': 'call_1', 'gen_ai.tool.call.arguments': '{"path":"/app/.env"}' }),
    // no span name of the conventions, but arguments: a call
    span(3, 'tool run', { 'gen_ai.tool.name': 'read_file', 'gen_ai.tool.call.arguments': '{"path":"/app/.env.local"}' }),
    // not calls: a model span naming a tool, and a span that only mentions one
    span(4, 'chat gpt-4o', { 'gen_ai.operation.name': 'chat', 'gen_ai.tool.name': 'read_file', 'gen_ai.tool.call.id': 'call_9' }),
    span(5, 'tool registry refresh', { 'gen_ai.tool.name': 'read_file' }),
  ];
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'some.agent' }, spans }] }] });
}

/** The findings over it: `rule tool key emitter span`. */
export const CALLS_WITHOUT_OPERATION = [
  ['sensitive_arg_dispatched', 'read_file', 'path', 'genai-semconv', '0e7a000000000002'],
  ['sensitive_arg_dispatched', 'read_file', 'path', 'genai-semconv', '0e7a000000000003'],
];
