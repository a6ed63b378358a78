/** @argspan/adapters/mcp — an `@modelcontextprotocol/sdk` Client whose every `callTool` is classified, gated and traced. */
export { instrumentMcpClient } from './instrument-client.js';
export type { InstrumentedMcpClient } from './instrument-client.js';
export { mcpResultContext } from './result-context.js';
export type {
  McpAdapterOptions,
  McpCallToolParams,
  McpCallToolResult,
  McpClientLike,
  McpRequestArgspanOptions,
  McpToolInfo,
  UserQuestion,
} from './types.js';
