/**
 * @argspan/adapters — argspan in front of real agent frameworks. Each adapter is a thin layer over
 * `@argspan/instrumentation`: the gate is enforced (denied and held calls never reach the tool), and every call is an `execute_tool {tool}` span with a `tool_arg {key}` child per argument.
 * No framework is imported at run time, so importing this entry point needs none installed.
 */
export { instrumentMcpClient, mcpResultContext } from './mcp/index.js';
export type {
  InstrumentedMcpClient,
  McpAdapterOptions,
  McpCallToolParams,
  McpCallToolResult,
  McpClientLike,
  McpRequestArgspanOptions,
  McpToolInfo,
  UserQuestion,
} from './mcp/index.js';
export { instrumentAiTools, jsonSchemaOf } from './ai/index.js';
export type { AiAdapterOptions, AiToolExecutionOptions, AiToolLike } from './ai/index.js';
export { instrumentAgentTools } from './openai-agents/index.js';
export type { AgentToolCallDetails, AgentToolLike, AgentsAdapterOptions } from './openai-agents/index.js';
export { toolSchemaFromJsonSchema } from './shared/gated-instrumentation.js';
export type { AdapterOptions, RefusalMode } from './shared/types.js';
