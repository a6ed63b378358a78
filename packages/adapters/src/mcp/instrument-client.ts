import { redactSecrets } from '@argspan/core';
import { redactedJson } from '@argspan/core/internal';
import { ArgspanClarificationError, type ArgspanInstrumentation } from '@argspan/instrumentation';
import { gatedInstrumentation } from '../shared/gated-instrumentation.js';
import { isGateError, refusalText } from '../shared/refusal.js';
import { mcpResultContext } from './result-context.js';
import { McpToolError } from './tool-error.js';
import type { McpAdapterOptions, McpCallToolParams, McpCallToolResult, McpClientLike, McpRequestArgspanOptions, McpToolInfo, UserQuestion } from './types.js';

const INSTRUMENTED = Symbol.for('argspan.adapters.mcp.instrumented');

/**
 * A client returned by {@link instrumentMcpClient}: the same object, with its instrumentation
 * attached and `callTool` accepting `{ argspan: { callId, session } }` in its request options.
 */
export type InstrumentedMcpClient<C extends McpClientLike> = Omit<C, 'callTool'> & {
  callTool(
    params: Parameters<C['callTool']>[0],
    resultSchema?: Parameters<C['callTool']>[1],
    options?: Parameters<C['callTool']>[2] & McpRequestArgspanOptions,
  ): ReturnType<C['callTool']>;
  /** The instrumentation every `callTool` goes through (its `session` holds the run's context). */
  readonly argspan: ArgspanInstrumentation;
};

/**
 * Instrument an `@modelcontextprotocol/sdk` `Client` in place: every `callTool` is classified,
 * gated and traced (`execute_tool {tool}` with a `tool_arg {key}` child per argument) before the
 * request is sent; refused, blocked and asked calls never reach the server. `listTools` results
 * feed each tool's schema defaults and public-schema keys, and each tool result becomes provenance
 * context for later calls. Returns the same client (calling it twice throws).
 *
 * ```ts
 * const client = instrumentMcpClient(new Client({ name: 'agent', version: '1.0.0' }), { session });
 * await client.connect(new StdioClientTransport({ command, args }));
 * await client.callTool({ name: 'read_text_file', arguments: { path: 'src/parser.py' } }, undefined, { argspan: { callId } });
 * ```
 */
export function instrumentMcpClient<C extends McpClientLike>(client: C, options: McpAdapterOptions = {}): InstrumentedMcpClient<C> {
  if ((client as unknown as Record<symbol, unknown>)[INSTRUMENTED]) {
    throw new TypeError('instrumentMcpClient: this client is already instrumented');
  }
  const { onRefused = 'throw', listToolsFirst = true, toolName = (n: string) => n, askUser, ...adapterOptions } = options;
  if (onRefused !== 'throw' && onRefused !== 'result') {
    throw new RangeError(`instrumentMcpClient: onRefused must be "throw" or "result", got ${JSON.stringify(onRefused)}`);
  }
  const gated = gatedInstrumentation({
    resultToContext: (_tool, result) => mcpResultContext(result),
    ...adapterOptions,
  });
  const originalCall = client.callTool.bind(client);
  const originalList = client.listTools.bind(client);

  const listTools = async (params?: unknown, requestOptions?: unknown) => {
    const result = await originalList(params, requestOptions);
    const tools: unknown = result?.tools;
    if (Array.isArray(tools)) {
      for (const t of tools as McpToolInfo[]) {
        if (t && typeof t.name === 'string') gated.learnTool(toolName(t.name), { type: 'extension', description: t.description, ...(t.inputSchema !== undefined ? { jsonSchema: t.inputSchema } : {}) });
      }
    }
    return result;
  };

  let listing: Promise<void> | undefined;
  const learnSchemas = (): Promise<void> =>
    (listing ??= (async () => {
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const r = await listTools(cursor === undefined ? undefined : { cursor });
        cursor = typeof r?.nextCursor === 'string' && r.nextCursor !== '' ? r.nextCursor : undefined;
        if (cursor === undefined) return;
      }
    })().catch(() => undefined));

  const callTool = async (params: McpCallToolParams, resultSchema?: unknown, requestOptions?: McpRequestArgspanOptions & Record<string, unknown>) => {
    // Each part of the params read once: the name sent is the name gated, whatever a getter would say next.
    const name: unknown = params === null || typeof params !== 'object' ? undefined : params.name;
    if (typeof name !== 'string') {
      throw new TypeError('instrumentMcpClient: callTool needs params with a string "name"');
    }
    const given = params.arguments ?? {};
    const outside = redactedOutsideArguments(params);
    const { argspan: callOptions, ...rest } = requestOptions ?? {};
    const sdkOptions = requestOptions === undefined ? undefined : rest;
    const tool = toolName(name);
    if (listToolsFirst && !gated.hasSchema(tool)) await learnSchemas();
    const run = () =>
      gated.instrumentation.call(tool, given, callOptions, async (args) => {
        const result = (await originalCall({ ...outside, name, arguments: args }, resultSchema, sdkOptions)) as McpCallToolResult;
        if (result?.isError === true) throw new McpToolError(name, result);
        return result;
      });
    let answers: Readonly<Record<string, string>> | undefined;
    try {
      try {
        return await run();
      } catch (err) {
        if (askUser === undefined || !(err instanceof ArgspanClarificationError)) throw err;
        // The gate names a hit `tool.key`; the user is asked about the argument key.
        const fields = err.hits.map((h) => (h.startsWith(`${tool}.`) ? h.slice(tool.length + 1) : h));
        answers = await answersOf(askUser, { tool, question: err.question, fields }, sdkOptions);
        if (answers === undefined) throw err;
        // The user's own words now: a value they gave is user_explicit when the call is gated again.
        const session = callOptions?.session ?? gated.instrumentation.session;
        for (const text of Object.values(answers)) session.addUserText(text);
        return await run();
      }
    } catch (err) {
      if (err instanceof McpToolError) return err.result;
      if (onRefused === 'result' && isGateError(err)) return gateErrorResult(refusalText(err) + (answers !== undefined && err instanceof ArgspanClarificationError ? answeredPhrase(tool, answers) : ''));
      throw err;
    }
  };

  Object.defineProperties(client, {
    callTool: { value: callTool, configurable: true, writable: true },
    listTools: { value: listTools, configurable: true, writable: true },
    argspan: { value: gated.instrumentation, configurable: true },
    [INSTRUMENTED]: { value: true, configurable: true },
  });
  return client as unknown as InstrumentedMcpClient<C>;
}

/**
 * What a `tools/call` sends besides the tool's name and arguments (`_meta`, a task, whatever a
 * client adds): protocol metadata, not the tool's input, so it is not gated — but nothing
 * credential-shaped in it leaves: it is passed on as values are recorded (every credential in its
 * text redacted, keys too); metadata that has no JSON form is dropped.
 */
function redactedOutsideArguments(params: McpCallToolParams): Record<string, unknown> {
  try {
    const rest = Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'name' && k !== 'arguments'));
    const text = redactedJson(rest);
    return text === undefined ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    // (a getter of the params threw, or a redaction marker replaced text across JSON syntax: nothing of it is passed on)
    return {};
  }
}

/**
 * The user's answers to the gate's question: non-blank strings for the fields asked, or undefined
 * when there are none (declined, no answer, a throw: the call stays held).
 */
async function answersOf(askUser: NonNullable<McpAdapterOptions['askUser']>, question: UserQuestion, requestOptions: Record<string, unknown> | undefined): Promise<Record<string, string> | undefined> {
  let given: unknown;
  try {
    given = await askUser(question, requestOptions);
  } catch {
    return undefined;
  }
  if (given === null || typeof given !== 'object') return undefined;
  const answers: [string, string][] = [];
  for (const field of question.fields) {
    const text: unknown = Object.prototype.hasOwnProperty.call(given, field) ? (given as Record<string, unknown>)[field] : undefined;
    if (typeof text === 'string' && text.trim() !== '') answers.push([field, text]);
  }
  // (built from entries: a key such as `__proto__` is an own field like any other)
  return answers.length > 0 ? Object.fromEntries(answers) : undefined;
}

/** What the model is told when the user's answer is not the value it gave: the answers (credentials redacted), to call again with. */
function answeredPhrase(tool: string, answers: Readonly<Record<string, string>>): string {
  const given = Object.entries(answers).map(([field, text]) => `\`${field}\` = ${JSON.stringify(redactSecrets(text).text)}`);
  return ` The user answered ${given.join(', ')}; call ${tool} again with what they gave.`;
}

/** The MCP error result returned instead of throwing when `onRefused` is `'result'`. */
function gateErrorResult(text: string): McpCallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
