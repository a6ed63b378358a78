import type { Attributes } from '@opentelemetry/api';
import { classifySnapshot } from '@argspan/core/internal';
import type { Classifier } from '@argspan/instrumentation';
import { instrumentMcpClient, type McpAdapterOptions, type McpCallToolParams, type McpCallToolResult, type McpClientLike } from '@argspan/adapters/mcp';

/** How the gate reaches the server: a request under the client's own id, or one of the proxy's own. */
export interface UpstreamRequests {
  /**
   * Send `method` to the server and resolve to its result (reject with its error). With `clientId`
   * the request is the client's and its answer goes to the client too; without, the answer is the
   * proxy's alone.
   */
  request(clientId: string | number | undefined, method: string, params: unknown): Promise<unknown>;
}

/** The options the proxy builds its gate with: the MCP adapter's, without those the proxy decides. */
export type ToolGateOptions = Omit<McpAdapterOptions, 'onRefused' | 'classifier' | 'toolName' | 'askUser'>;

/** How the gate puts its clarifying question to the user: through the client (MCP elicitation), for the client's request `relayId`. */
export type AskThroughClient = (question: Parameters<NonNullable<McpAdapterOptions['askUser']>>[0], relayId: string | number | undefined) => ReturnType<NonNullable<McpAdapterOptions['askUser']>>;

/** Per-request options the proxy passes through the adapter to {@link UpstreamRequests}. */
interface RelayRequestOptions {
  relayId?: string | number;
}

/**
 * The MCP adapter (`instrumentMcpClient`) in front of the relay: every `tools/call` goes through
 * the same instrumentation as any adapter call — classified, gated, one `execute_tool` span with a
 * `tool_arg` child per argument — and is sent to the server only when the policy lets it run. A
 * refused or held call resolves to the adapter's MCP error result (`isError: true`, the refusal or
 * the clarifying question). A held call's question is first put to the user through the client when
 * the relay can (`ask`); their answer is user text, and the call is gated once more. Tool results
 * become provenance context; `tools/list` results teach the tools' schemas.
 */
export class ToolGate {
  private readonly client: ReturnType<typeof instrumentMcpClient<McpClientLike>>;

  constructor(upstream: UpstreamRequests, options: ToolGateOptions, ask: AskThroughClient) {
    const relayed: McpClientLike = {
      callTool: (params: McpCallToolParams, _schema?: unknown, opts?: RelayRequestOptions) => upstream.request(opts?.relayId, 'tools/call', params),
      listTools: (params?: unknown, opts?: RelayRequestOptions) => upstream.request(opts?.relayId, 'tools/list', params),
    };
    const askUser: McpAdapterOptions['askUser'] = (question, opts) => ask(question, (opts as RelayRequestOptions | undefined)?.relayId);
    this.client = instrumentMcpClient(relayed, { ...options, classifier: withoutUserText, onRefused: 'result', askUser });
  }

  /** Gate and (when allowed) send the client's `tools/call`; resolves to the result the client gets. */
  callTool(clientId: string | number, params: McpCallToolParams, attributes: Attributes): Promise<McpCallToolResult> {
    const options: RelayRequestOptions & { argspan: { attributes: Attributes } } = { argspan: { attributes }, relayId: clientId };
    return this.client.callTool(params, undefined, options) as Promise<McpCallToolResult>;
  }

  /** Send the client's `tools/list` and learn the schemas of the tools it lists. */
  listTools(clientId: string | number, params: unknown): Promise<unknown> {
    return this.client.listTools(params, { relayId: clientId });
  }
}

/**
 * Classification as a proxy can do it: the client never sends the user's words, so a value found in
 * no earlier tool result and no schema default is `no_evidence` (the policy's `noEvidenceAction`
 * decides what happens to it on a denylisted key), never `model_inferred`.
 */
const withoutUserText: Classifier = (call, ctx, options) => classifySnapshot(call, { ...ctx, userTextAvailable: false }, options);
