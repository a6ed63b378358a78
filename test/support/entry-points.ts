/**
 * Every entry point argspan offers, driven with one recorded call of the shared case table, each
 * answer read back into one shape (from the classification, the CLI's JSON line, or the spans the
 * call left), so a test can assert that they all agree.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RunContext, tool as agentTool } from '@openai/agents';
import { jsonSchema, tool as aiTool } from 'ai';
import { z } from 'zod';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ArgAttributes, CallAttributes, GenAiAttributes, toolCallSpanName } from '@argspan/conventions';
import { classifyCall, type ClassifyOptions, type ContextEntry } from '@argspan/core';
import { parseRecordedCall, type RecordedCall } from '@argspan/core/internal';
import { ArgspanGateError, ArgspanSession, instrumentDispatch, wrapTool, type ArgspanInstrumentationConfig, type ToolSchema } from '@argspan/instrumentation';
import { instrumentAgentTools, instrumentAiTools, instrumentMcpClient } from '@argspan/adapters';
import { memoryTracing } from '../../packages/instrumentation/test-support/tracing.js';
import { McpRelay } from '../../packages/cli/src/commands/mcp-proxy/relay.js';
import { TransportClientLink, TransportServerLink } from '../../packages/cli/src/commands/mcp-proxy/transport-links.js';

/** What an entry point answered for one call. */
export interface Outcome {
  residency: string;
  verdict: string;
  gate: { action: string; hits: string[] };
  enforcement: { action: string; reason: string };
  leaves: { key: string; residency: string; provenance: string; rule: string; sourceCallId?: string }[];
  /** Whether the tool itself was reached (undefined where nothing is dispatched: classifyCall, the CLI). */
  dispatched?: boolean;
}

/** The case's policy and dirty set as classification options. */
export function caseOptions(rec: RecordedCall): ClassifyOptions {
  const options: ClassifyOptions = { ...rec.policy };
  if (rec.dirty) options.dirty = { root: '/repo', paths: new Set(rec.dirty), prefixes: [], lines: new Set() };
  return options;
}

function caseSchema(rec: RecordedCall): ToolSchema {
  return {
    ...(rec.context.schemaDefaults ? { defaults: rec.context.schemaDefaults } : {}),
    ...(rec.context.safeDefaults ? { safeDefaults: rec.context.safeDefaults } : {}),
    ...(rec.context.publicSchemaKeys ? { publicKeys: rec.context.publicSchemaKeys } : {}),
  };
}

/** The case's earlier tool results, each with the call id a replayed source call uses. */
function contextEntries(rec: RecordedCall): { callId: string; content: unknown }[] {
  return (rec.context.context ?? []).map((entry: ContextEntry | string, i) =>
    typeof entry === 'string' ? { callId: `anon-${i}`, content: entry } : { callId: entry.callId ?? `anon-${i}`, content: entry.content },
  );
}

/** The tool that replays an earlier result: it has no arguments worth classifying, only a result. */
export const CONTEXT_SOURCE = 'context_source';
const CALL_ID = 'case-call';

function outcomeOf(c: ReturnType<typeof classifyCall>): Outcome {
  return {
    residency: c.residency,
    verdict: c.verdict,
    gate: { action: c.gate.action, hits: c.gate.hits },
    enforcement: { action: c.enforcement.action, reason: c.enforcement.reason },
    leaves: c.leaves.map((l) => ({ key: l.key, residency: l.residency, provenance: l.provenance, rule: l.rule, ...(l.sourceCallId !== undefined ? { sourceCallId: l.sourceCallId } : {}) })),
  };
}

/** `classifyCall` from `@argspan/core`. */
export function viaClassifyCall(raw: Record<string, unknown>): Outcome {
  const rec = parseRecordedCall(raw);
  return outcomeOf(classifyCall(rec.call, rec.context, caseOptions(rec)));
}

/** One JSON line printed by `argspan classify`. */
export function fromCliLine(line: Record<string, unknown>): Outcome {
  const out = line as unknown as Outcome & { args: { key: string; residency: string; provenance: string; rule: string; source_call_id?: string }[] };
  return {
    residency: out.residency,
    verdict: out.verdict,
    gate: { action: out.gate.action, hits: out.gate.hits },
    enforcement: { action: out.enforcement.action, reason: out.enforcement.reason },
    leaves: out.args.map((a) => ({ key: a.key, residency: a.residency, provenance: a.provenance, rule: a.rule, ...(a.source_call_id !== undefined ? { sourceCallId: a.source_call_id } : {}) })),
  };
}

/** The outcome the spans of the case's call record. */
function fromSpans(spans: ReadableSpan[], dispatched: boolean): Outcome {
  const calls = spans.filter((s) => s.attributes[GenAiAttributes.TOOL_CALL_ID] === CALL_ID);
  if (calls.length !== 1) throw new Error(`expected one execute_tool span for ${CALL_ID}, found ${calls.length}`);
  return fromSpan(spans, calls[0]!, dispatched);
}

/** The outcome one tool span and its argument spans record. */
function fromSpan(spans: ReadableSpan[], span: ReadableSpan, dispatched: boolean): Outcome {
  const a = span.attributes;
  const args = spans.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
  return {
    residency: String(a[CallAttributes.RESIDENCY]),
    verdict: String(a[CallAttributes.VERDICT]),
    gate: { action: String(a[CallAttributes.GATE_ACTION]), hits: [...((a[CallAttributes.GATE_HITS] as string[] | undefined) ?? [])] },
    enforcement: { action: String(a[CallAttributes.ENFORCEMENT]), reason: String(a[CallAttributes.ENFORCEMENT_REASON]) },
    leaves: args.map((s) => {
      const src = s.attributes[ArgAttributes.SOURCE_CALL_ID];
      return {
        key: String(s.attributes[ArgAttributes.KEY]),
        residency: String(s.attributes[ArgAttributes.RESIDENCY]),
        provenance: String(s.attributes[ArgAttributes.PROVENANCE]),
        rule: String(s.attributes[ArgAttributes.RULE]),
        ...(src !== undefined && !String(src).startsWith('anon-') ? { sourceCallId: String(src) } : {}),
      };
    }),
    dispatched,
  };
}

/** Configuration every instrumented entry point gets for a case: its policy, session and schemas. */
function instrumentationConfig(rec: RecordedCall, tracerProvider: ArgspanInstrumentationConfig['tracerProvider']): ArgspanInstrumentationConfig {
  const userText = rec.context.userText;
  return {
    tracerProvider,
    hashKey: Buffer.alloc(32, 1),
    session: new ArgspanSession(userText !== undefined ? { userText } : {}),
    policy: caseOptions(rec),
    schemas: { [rec.call.tool]: caseSchema(rec) },
  };
}

/** Run `call` and tell whether the gate stopped it (a typed gate error) or the tool was reached. */
async function reached(call: () => Promise<unknown>, toolRan: () => boolean): Promise<boolean> {
  try {
    await call();
  } catch (err) {
    if (!(err instanceof ArgspanGateError)) throw err;
    return false;
  }
  return toolRan();
}

/**
 * `instrumentDispatch` around one dispatcher for every tool. With `tracerProvider` the spans go
 * there (a file exporter, say) and the outcome is not read back.
 */
export async function viaInstrumentDispatch(raw: Record<string, unknown>, tracerProvider?: ArgspanInstrumentationConfig['tracerProvider']): Promise<Outcome | undefined> {
  const rec = parseRecordedCall(raw);
  const memory = tracerProvider ? undefined : memoryTracing();
  const provider = tracerProvider ?? memory!.provider;
  let ran = false;
  const results = new Map(contextEntries(rec).map((e) => [e.callId, e.content]));
  const dispatch = instrumentDispatch(async (tool: string, args: { id?: string }) => {
    if (tool === CONTEXT_SOURCE) return results.get(String(args.id));
    ran = true;
    return 'done';
  }, instrumentationConfig(rec, provider));
  for (const e of contextEntries(rec)) await dispatch(CONTEXT_SOURCE, { id: e.callId }, { callId: e.callId });
  const dispatched = await reached(() => dispatch(rec.call.tool, rec.call.args, { callId: CALL_ID }), () => ran);
  return memory ? fromSpans(memory.spans(), dispatched) : undefined;
}

/** `wrapTool` around each tool's own function, sharing one session. */
export async function viaWrapTool(raw: Record<string, unknown>): Promise<Outcome> {
  const rec = parseRecordedCall(raw);
  const { provider, spans } = memoryTracing();
  const config = instrumentationConfig(rec, provider);
  let ran = false;
  const results = new Map(contextEntries(rec).map((e) => [e.callId, e.content]));
  const source = wrapTool(CONTEXT_SOURCE, async (args: { id: string }) => results.get(args.id), config);
  const target = wrapTool(rec.call.tool, async () => ((ran = true), 'done'), config);
  for (const e of contextEntries(rec)) await source({ id: e.callId }, { callId: e.callId });
  const dispatched = await reached(() => target(rec.call.args, { callId: CALL_ID }), () => ran);
  return fromSpans(spans(), dispatched);
}

/** An in-process SDK server with the case's tool and the tool that replays its earlier results. */
function caseServer(rec: RecordedCall): { server: McpServer; ran: () => boolean } {
  let ran = false;
  const results = new Map(contextEntries(rec).map((e) => [e.callId, e.content]));
  const server = new McpServer({ name: 'cases', version: '0.0.0' });
  server.registerTool(CONTEXT_SOURCE, { inputSchema: { id: z.string() } }, async ({ id }) => {
    const content = results.get(id);
    return { content: [{ type: 'text', text: typeof content === 'string' ? content : JSON.stringify(content) }] };
  });
  server.registerTool(rec.call.tool, { inputSchema: z.looseObject({}) }, async () => {
    ran = true;
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return { server, ran: () => ran };
}

/** The MCP adapter around the SDK's real client, talking to an in-process SDK server. */
export async function viaMcpClient(raw: Record<string, unknown>): Promise<Outcome> {
  const rec = parseRecordedCall(raw);
  const { provider, spans } = memoryTracing();
  const { server, ran } = caseServer(rec);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = instrumentMcpClient(new Client({ name: 'cases', version: '0.0.0' }), { ...instrumentationConfig(rec, provider), listToolsFirst: false });
  await client.connect(clientSide);
  try {
    for (const e of contextEntries(rec)) await client.callTool({ name: CONTEXT_SOURCE, arguments: { id: e.callId } }, undefined, { argspan: { callId: e.callId } });
    const args = rec.call.args as Record<string, unknown>;
    const dispatched = await reached(() => client.callTool({ name: rec.call.tool, arguments: args }, undefined, { argspan: { callId: CALL_ID } }), () => ran());
    return fromSpans(spans(), dispatched);
  } finally {
    await client.close();
  }
}

/** The Vercel AI SDK adapter around a real `tools` record, each tool's `execute` called as the SDK calls it. */
export async function viaAiTools(raw: Record<string, unknown>): Promise<Outcome> {
  const rec = parseRecordedCall(raw);
  const { provider, spans } = memoryTracing();
  let ran = false;
  const results = new Map(contextEntries(rec).map((e) => [e.callId, e.content]));
  const anyObject = jsonSchema<Record<string, unknown>>({ type: 'object', additionalProperties: true });
  const tools = instrumentAiTools(
    {
      [CONTEXT_SOURCE]: aiTool({ inputSchema: anyObject, execute: async (args) => results.get(String(args.id)) }),
      [rec.call.tool]: aiTool({ inputSchema: anyObject, execute: async () => ((ran = true), 'done') }),
    },
    instrumentationConfig(rec, provider),
  );
  const run = (name: string, args: unknown, toolCallId: string) => tools[name]!.execute!(args as Record<string, unknown>, { toolCallId, messages: [] });
  for (const e of contextEntries(rec)) await run(CONTEXT_SOURCE, { id: e.callId }, e.callId);
  const dispatched = await reached(() => Promise.resolve(run(rec.call.tool, rec.call.args, CALL_ID)), () => ran);
  return fromSpans(spans(), dispatched);
}

/**
 * The OpenAI Agents adapter around real function tools. The SDK renames a tool `a.b` to `a_b`;
 * the policy and schemas name the case's tool as the case spells it (the adapter must apply them
 * to the SDK's spelling), and the answer is read back with the case's own spelling.
 */
export async function viaAgentTools(raw: Record<string, unknown>): Promise<Outcome> {
  const rec = parseRecordedCall(raw);
  const { provider, spans } = memoryTracing();
  const name = rec.call.tool.replace(/[^a-zA-Z0-9]/g, '_');
  let ran = false;
  const results = new Map(contextEntries(rec).map((e) => [e.callId, e.content]));
  const anyObject = { type: 'object', properties: {}, required: [], additionalProperties: true } as const;
  const config = instrumentationConfig(rec, provider);
  const tools = instrumentAgentTools(
    [
      agentTool({ name: CONTEXT_SOURCE, description: 'replays a result', parameters: anyObject, strict: false, execute: async (args) => results.get(String((args as { id: string }).id)) as string }),
      agentTool({ name: rec.call.tool, description: 'the case tool', parameters: anyObject, strict: false, execute: async () => ((ran = true), 'done') }),
    ],
    { ...config, schemas: { [rec.call.tool]: caseSchema(rec) } },
  );
  const ctx = new RunContext({});
  const run = (i: number, args: unknown, callId: string) => tools[i]!.invoke(ctx, JSON.stringify(args), { toolCall: { callId } } as never);
  for (const e of contextEntries(rec)) await run(0, { id: e.callId }, e.callId);
  const dispatched = await reached(() => run(1, rec.call.args, CALL_ID), () => ran);
  const out = fromSpans(spans(), dispatched);
  const back = (s: string) => s.split(name).join(rec.call.tool);
  return { ...out, gate: { ...out.gate, hits: out.gate.hits.map(back) }, enforcement: { ...out.enforcement, reason: back(out.enforcement.reason) } };
}

/**
 * `argspan mcp-proxy`'s relay (the CLI's `McpRelay`, in process) between the SDK's real Client and
 * an in-process SDK server, over in-memory transports. A proxy never sees the user's words, so its
 * answer is compared with classifyCall's for the same call without them ({@link viaClassifyCallUnseen}).
 * MCP has no tool-call ids: the proxy's generated ids of the replayed results are mapped back to
 * the case's, in order.
 */
export async function viaMcpProxy(raw: Record<string, unknown>): Promise<Outcome> {
  const rec = parseRecordedCall(raw);
  const { provider, spans } = memoryTracing();
  const { server, ran } = caseServer(rec);
  const [clientSide, relayClientSide] = InMemoryTransport.createLinkedPair();
  const [relayServerSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const clientLink = new TransportClientLink(relayClientSide);
  const { session: _withUserText, ...config } = instrumentationConfig(rec, provider);
  new McpRelay(clientLink, new TransportServerLink(relayServerSide, () => undefined), { ...config, listToolsFirst: false }, () => undefined);
  await clientLink.start();
  await relayServerSide.start();
  const client = new Client({ name: 'cases', version: '0.0.0' });
  await client.connect(clientSide);
  try {
    for (const e of contextEntries(rec)) await client.callTool({ name: CONTEXT_SOURCE, arguments: { id: e.callId } });
    const args = rec.call.args as Record<string, unknown>;
    const result = await client.callTool({ name: rec.call.tool, arguments: args });
    const dispatched = ran() && result.isError !== true;
    const byName = (name: string) => spans().filter((s) => s.name === toolCallSpanName(name)).sort((x, y) => (x.startTime[0] - y.startTime[0]) * 1e9 + (x.startTime[1] - y.startTime[1]));
    const ids = new Map(byName(CONTEXT_SOURCE).map((s, i) => [String(s.attributes[CallAttributes.CALL_ID]), contextEntries(rec)[i]!.callId]));
    const out = fromSpan(spans(), byName(rec.call.tool)[0]!, dispatched);
    const leaves = out.leaves.map(({ sourceCallId, ...l }) => {
      const id = sourceCallId === undefined ? undefined : (ids.get(sourceCallId) ?? sourceCallId);
      return id === undefined || id.startsWith('anon-') ? l : { ...l, sourceCallId: id };
    });
    return { ...out, leaves };
  } finally {
    await client.close();
    await server.close();
  }
}

/** classifyCall for the same call where the user's words cannot be seen (what a proxy knows). */
export function viaClassifyCallUnseen(raw: Record<string, unknown>): Outcome {
  const rec = parseRecordedCall(raw);
  const { userText: _unseen, ...context } = rec.context;
  return outcomeOf(classifyCall(rec.call, { ...context, userTextAvailable: false }, caseOptions(rec)));
}

/** Every entry point that runs a call, by name. */
export const DISPATCHING_ENTRY_POINTS = {
  instrumentDispatch: viaInstrumentDispatch,
  wrapTool: viaWrapTool,
  'MCP adapter': viaMcpClient,
  'AI SDK adapter': viaAiTools,
  'OpenAI Agents adapter': viaAgentTools,
} as const;
