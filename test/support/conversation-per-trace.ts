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

/** Attributes: a string, or an integer (`intValue`). */
type Attrs = Record<string, string | number>;

/** A model-input message as the GenAI conventions record it. */
type Message = { role: string; parts: Record<string, unknown>[] };

/**
 * One turn, a trace of its own: an agent span naming the run (`runIds`), a model span with the
 * turn's input (`input`, or the user's words `userText`) and the call it asks for, and the tool
 * span that ran it (naming `toolRunIds` too, when given), recording its result unless
 * `result` is undefined.
 */
export interface TurnTrace {
  traceId: string;
  atSeconds: number;
  runIds: Attrs;
  userText?: string;
  input?: Message[];
  call?: { tool: string; id: string; args: Record<string, unknown>; result?: string };
  toolRunIds?: Attrs;
}

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
  return turnsDocument([...TURNS].reverse().map(({ conversation, ...turn }) => ({ ...turn, runIds: { 'gen_ai.conversation.id': conversation } })));
}

/** Turns as one OTLP JSON document, in the order given. */
export function turnsDocument(turns: readonly TurnTrace[]): string {
  const spans = turns.flatMap((turn, t) => {
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
      attributes: Object.entries(attrs).map(([key, value]) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } })),
    });
    const call = turn.call;
    const input = turn.input ?? (turn.userText !== undefined ? [{ role: 'user', parts: [{ type: 'text', content: turn.userText }] }] : []);
    const out = [
      span(id(1), undefined, 'invoke_agent billing', 0, 100, { 'gen_ai.operation.name': 'invoke_agent', ...turn.runIds }),
      span(id(2), id(1), 'chat gpt-4.1', 1, 20, {
        'gen_ai.operation.name': 'chat',
        'gen_ai.input.messages': JSON.stringify(input),
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
          ...(call.result !== undefined ? { 'gen_ai.tool.call.result': call.result } : {}),
          ...turn.toolRunIds,
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

/**
 * The Responses API's tool loop, a trace per request: the first asks to read `/app/.env` (its
 * tool span records no result), the second's input is the file's content, the tool's output sent
 * back under the call's id, and its call copies the salt out of it. The trace ids, in order.
 */
export function resultInNextTurnDocument(): { document: string; traceIds: string[] } {
  const traceIds = [hex(0xf1, 32), hex(0xf2, 32)];
  const runIds = { 'gen_ai.conversation.id': 'conv-deploy' };
  const document = turnsDocument([
    { traceId: traceIds[0]!, atSeconds: 1, runIds, userText: 'Check the deploy config, then sign the invoice.', call: { tool: 'read_file', id: 'call_r1', args: { path: '/app/.env' } } },
    {
      traceId: traceIds[1]!,
      atSeconds: 2,
      runIds,
      input: [{ role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_r1', response: `SIGNING_SALT=${SIGNING_SALT}\nREGION=eu-west-1` }] }],
      call: { tool: 'sign_invoice', id: 'call_r2', args: { invoice_id: 'inv_5521', signing_salt: SIGNING_SALT } },
    },
  ]);
  return { document, traceIds };
}

/**
 * A session (`session.id`) whose first trace names no conversation and has the user name the
 * account; its second trace's agent span names one conversation and its tool span another, and
 * sends an invoice to the account no user of either named. Then a conversation of two turns whose
 * agent spans name the session and tool spans the conversation (one run under two keys): the user
 * names the account in the first. The trace ids, in order.
 */
export function severalRunsInATraceDocument(): { document: string; traceIds: string[] } {
  const traceIds = [hex(0xf3, 32), hex(0xf4, 32), hex(0xf7, 32), hex(0xf8, 32)];
  const session = { 'session.id': 'sess-2' };
  const conversation = { 'gen_ai.conversation.id': 'conv-c' };
  const document = turnsDocument([
    { traceId: traceIds[0]!, atSeconds: 1, runIds: { 'session.id': 'sess-1' }, userText: 'My account is acct-7Q4Z9.', call: { tool: 'get_invoices', id: 'call_s1', args: { account_id: 'acct-7Q4Z9' } } },
    {
      traceId: traceIds[1]!,
      atSeconds: 2,
      runIds: { 'session.id': 'sess-1', 'gen_ai.conversation.id': 'conv-a' },
      toolRunIds: { 'gen_ai.conversation.id': 'conv-b' },
      userText: 'Email me the latest invoice.',
      call: { tool: 'send_invoice', id: 'call_s2', args: { account_id: 'acct-7Q4Z9' } },
    },
    { traceId: traceIds[2]!, atSeconds: 3, runIds: session, toolRunIds: conversation, userText: 'My account is acct-7Q4Z9.', call: { tool: 'get_invoices', id: 'call_s3', args: { account_id: 'acct-7Q4Z9' } } },
    { traceId: traceIds[3]!, atSeconds: 4, runIds: session, toolRunIds: conversation, userText: 'Email me the latest invoice.', call: { tool: 'send_invoice', id: 'call_s4', args: { account_id: 'acct-7Q4Z9' } } },
  ]);
  return { document, traceIds };
}

/**
 * A session recorded as an integer (`session.id = 42`) over two traces: the first has the user name
 * the account, the second sends an invoice to it. The trace ids, in order.
 */
export function integerSessionDocument(): { document: string; traceIds: string[] } {
  const traceIds = [hex(0xf5, 32), hex(0xf6, 32)];
  const runIds = { 'session.id': 42 };
  const document = turnsDocument([
    { traceId: traceIds[0]!, atSeconds: 1, runIds, userText: 'My account is acct-7Q4Z9.', call: { tool: 'get_invoices', id: 'call_i1', args: { account_id: 'acct-7Q4Z9' } } },
    { traceId: traceIds[1]!, atSeconds: 2, runIds, userText: 'Email me the latest invoice.', call: { tool: 'send_invoice', id: 'call_i2', args: { account_id: 'acct-7Q4Z9' } } },
  ]);
  return { document, traceIds };
}
