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
}
