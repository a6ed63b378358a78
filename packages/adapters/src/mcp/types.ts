import type { CallOptions } from '@argspan/instrumentation';
import type { AdapterOptions, RefusalMode } from '../shared/types.js';

/** One entry of an MCP `tools/list` result (the fields argspan reads). */
export interface McpToolInfo {
  name: string;
  /** Written as `gen_ai.tool.description`. */
  description?: string;
  inputSchema?: unknown;
}

/** An MCP `tools/call` result (the fields argspan reads). */
export interface McpCallToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

/** The `tools/call` params of `@modelcontextprotocol/sdk`'s `Client.callTool`. */
export interface McpCallToolParams {
  name: string;
  arguments?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The part of `@modelcontextprotocol/sdk`'s `Client` argspan wraps. Any object with these two
 * methods works (an SDK `Client`, a subclass, a test double of your own).
 */
export interface McpClientLike {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  callTool(params: any, resultSchema?: any, options?: any): Promise<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  listTools(params?: any, options?: any): Promise<any>;
}

/**
 * Per-call argspan options, passed in the SDK's request options:
 * `client.callTool(params, undefined, { argspan: { callId } })`. Removed before the request is sent.
 */
export interface McpRequestArgspanOptions {
  argspan?: CallOptions;
}

/** Options of {@link instrumentMcpClient}. */
export interface McpAdapterOptions extends AdapterOptions {
  /**
   * What `callTool` does for a call the gate refused, blocked or asked about: `'throw'` the typed
   * error (`ArgspanRefusedError`, `ArgspanBlockedError`, `ArgspanClarificationError`), or `'result'`:
   * resolve to an MCP error result (`isError: true`, one text item with the clarifying question or
   * the refusal reason) that an agent loop passes to the model like any tool error. Either way the
   * server never sees the call.
   * @default 'throw'
   */
  onRefused?: RefusalMode;
  /**
   * Before the first call to a tool whose schema is unknown, list the server's tools (every page) so
   * schema defaults and public-schema keys are known. A failed listing is ignored: without a schema
   * no value is `schema_default` and nothing is stripped.
   * @default true
   */
  listToolsFirst?: boolean;
  /**
   * The tool name used on spans and in the policy (allowlists, denylist entries, `schemas`), e.g.
   * `(n) => 'fs.' + n` to tell servers apart. The server is always called with its own name.
   * @default the MCP tool name
   */
  toolName?: (mcpToolName: string) => string;
  /**
   * Put the gate's clarifying question to the user (an MCP client's elicitation, a prompt in your
   * UI). Resolve to the user's answers by field, or `undefined` when they declined or did not
   * answer. The answers become user text of the call's session and the call is gated once more: it
   * runs when the value is what the user gave; otherwise the question, with the user's answers
   * (credentials redacted), is what `callTool` gives back. A throw counts as no answer.
   * @default undefined (the question goes to the model, as `onRefused` says)
   */
  askUser?: (question: UserQuestion, requestOptions: Record<string, unknown> | undefined) => Promise<Readonly<Record<string, string>> | undefined>;
}

/** The gate's question about a call, for {@link McpAdapterOptions.askUser}. */
export interface UserQuestion {
  /** The tool, as named on spans and in the policy. */
  tool: string;
  /** The one clarifying question (names the fields, never a value). */
  question: string;
  /** The argument keys it asks about (`to`, `options.timezone`): the keys of the answers. */
  fields: readonly string[];
}
