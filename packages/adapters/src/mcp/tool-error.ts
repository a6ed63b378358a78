import type { McpCallToolResult } from './types.js';

/**
 * Thrown inside the instrumented dispatch when the server answers `isError: true`, so the tool
 * span records a failure (`error.type` = `McpToolError`); the adapter catches it and resolves to
 * the server's own result, as the SDK would. Never escapes `callTool`.
 */
export class McpToolError extends Error {
  constructor(
    readonly tool: string,
    readonly result: McpCallToolResult,
  ) {
    super(`MCP tool ${tool} returned an error result`);
    this.name = 'McpToolError';
  }
}
