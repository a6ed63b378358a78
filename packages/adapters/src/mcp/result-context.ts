import type { McpCallToolResult } from './types.js';

/**
 * What of an MCP tool result later calls may copy values from: the text of every `text` content
 * item (and of embedded text resources) plus `structuredContent`. Images, audio and blobs are
 * base64 and carry no values a model would copy, so they are left out. `undefined` adds nothing.
 */
export function mcpResultContext(result: unknown): unknown {
  if (result === null || typeof result !== 'object') return result;
  const r = result as McpCallToolResult;
  const texts: string[] = [];
  if (Array.isArray(r.content)) {
    for (const item of r.content as unknown[]) {
      if (item === null || typeof item !== 'object') continue;
      const i = item as { type?: unknown; text?: unknown; resource?: { text?: unknown } };
      if (i.type === 'text' && typeof i.text === 'string') texts.push(i.text);
      else if (i.type === 'resource' && typeof i.resource?.text === 'string') texts.push(i.resource.text);
    }
  }
  const structured = r.structuredContent;
  if (texts.length === 0 && structured === undefined) return undefined;
  return structured === undefined ? texts : { text: texts, structured };
}
