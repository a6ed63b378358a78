/**
 * A conversation recorded a trace per turn, as the GenAI conventions write an agent on OpenAI's
 * Responses API with `previous_response_id`: each turn's model span holds only the new message, and
 * the turns share `gen_ai.conversation.id`. The user names the account and the timezone in the
 * second turn; the first turn's call guessed the account before that; the third turn's call carries
 * both, the invoice id the first turn's result gave, and a salt read out of `/app/.env` in the
 * second. Another conversation's call carries the same account and timezone its user never gave.
 * The turns are written out of order (the file's order is not the conversation's).
 */

/** The salt the second turn reads out of `/app/.env` (long and varied: a value that may be a secret). */
export const SIGNING_SALT = '9fQ2xLm7Zt4KpW8vR3sNc6Jd';

type Attrs = Record<string, string>;

interface Turn {
  traceId: string;
  conversation: string;
  atSeconds: number;
  userText: string;
  call?: { tool: string; id: string; args: Record<string, unknown>; result: string };
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

const TURNS: Turn[] = [
  {
    traceId: hex(0xc1, 32),
    conversation: 'conv-billing-1',
    atSeconds: 1,
    userText: 'Show my invoices.',
    call: { tool: 'get_invoices', id: 'call_t1', args: { account_id: 'acct-7Q4Z9' }, result: JSON.stringify({ invoices: [{ id: 'inv_5521', total: 120 }] }) },
  },
  {
    traceId: hex(0xc2, 32),
    conversation: 'conv-billing-1',
    atSeconds: 2,
    userText: 'My account is acct-7Q4Z9, and I am in Europe/Lisbon. Check the deploy config too.',
    call: { tool: 'read_file', id: 'call_t2', args: { path: '/app/.env' }, result: `SIGNING_SALT=${SIGNING_SALT}\nREGION=eu-west-1` },
  },
  {
    traceId: hex(0xc3, 32),
    conversation: 'conv-billing-1',
    atSeconds: 3,
    userText: 'Email me the latest invoice, signed.',
    call: {
      tool: 'send_invoice',
      id: 'call_t3',
      args: { account_id: 'acct-7Q4Z9', timezone: 'Europe/Lisbon', invoice_id: 'inv_5521', signing_salt: SIGNING_SALT },
      result: '{"sent":true}',
    },
  },
  {
    traceId: hex(0xd1, 32),
    conversation: 'conv-billing-2',
    atSeconds: 4,
    userText: 'Email me the latest invoice.',
    call: { tool: 'send_invoice', id: 'call_d1', args: { account_id: 'acct-7Q4Z9', timezone: 'Europe/Lisbon' }, result: '{"sent":true}' },
  },
];

/** The trace ids of the turns: the conversation's three, then the other conversation's one. */
export const TURN_TRACE_IDS = TURNS.map((t) => t.traceId);

/** The turns as one OTLP JSON document, the last turn first. */
export function conversationPerTraceDocument(): string {
  const spans = [...TURNS].reverse().flatMap((turn, t) => {
    const base = BigInt(1_764_460_800 + turn.atSeconds) * 1_000_000_000n;
    const at = (ms: number) => String(base + BigInt(ms) * 1_000_000n);
    const id = (n: number) => hex(((0xa0 + t) << 8) | n, 16);
    const span = (spanId: string, parent: string | undefined, name: string, fromMs: number, toMs: number, attrs: Attrs) => ({
      traceId: turn.traceId,
      spanId,
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      kind: 1,
      startTimeUnixNano: at(fromMs),
      endTimeUnixNano: at(toMs),
      attributes: Object.entries(attrs).map(([key, value]) => ({ key, value: { stringValue: value } })),
    });
    const call = turn.call;
    const out = [
      span(id(1), undefined, 'invoke_agent billing', 0, 100, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': turn.conversation }),
      span(id(2), id(1), 'chat gpt-4.1', 1, 20, {
        'gen_ai.operation.name': 'chat',
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: turn.userText }] }]),
        ...(call ? { 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: call.id, name: call.tool, arguments: call.args }] }]) } : {}),
      }),
    ];
    if (call) {
      out.push(
        span(id(3), id(1), `execute_tool ${call.tool}`, 21, 40, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.tool,
          'gen_ai.tool.call.id': call.id,
          'gen_ai.tool.call.arguments': JSON.stringify(call.args),
          'gen_ai.tool.call.result': call.result,
        }),
      );
    }
    return out;
  });
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'billing-agent' } }] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans }] }] });
}

/**
 * One conversation of `turns` turns, each a trace: the user names the account in the first turn
 * only, and every turn sends an invoice to it. The turns are written last first.
 */
export function longConversationDocument(turns: number): { document: string; traceIds: string[] } {
  const traceIds = Array.from({ length: turns }, (_, i) => hex(0xe000 + i, 32));
  const spans = traceIds
    .map((traceId, i) => {
      const base = BigInt(1_764_460_800 + i) * 1_000_000_000n;
      const at = (ms: number) => String(base + BigInt(ms) * 1_000_000n);
      const span = (n: number, name: string, attrs: Attrs) => ({
        traceId,
        spanId: hex(((0xe000 + i) << 8) | n, 16),
        ...(n > 1 ? { parentSpanId: hex(((0xe000 + i) << 8) | 1, 16) } : {}),
        name,
        kind: 1,
        startTimeUnixNano: at(n),
        endTimeUnixNano: at(10 + n),
        attributes: Object.entries(attrs).map(([key, value]) => ({ key, value: { stringValue: value } })),
      });
      const words = i === 0 ? 'My account is acct-7Q4Z9. Email me the latest invoice.' : 'And the one before.';
      return [
        span(1, 'invoke_agent billing', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'conv-long' }),
        span(2, 'chat gpt-4.1', { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: words }] }]) }),
        span(3, 'execute_tool send_invoice', {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'send_invoice',
          'gen_ai.tool.call.id': `call_${i}`,
          'gen_ai.tool.call.arguments': JSON.stringify({ account_id: 'acct-7Q4Z9' }),
        }),
      ];
    })
    .reverse()
    .flat();
  return { document: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans }] }] }), traceIds };
}
