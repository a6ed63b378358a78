import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientLink, ServerLink } from './links.js';
import { McpRelay } from './relay.js';

/**
 * A relay between a real SDK client and a real SDK server, each over the SDK's linked in-memory
 * transport (the protocol as the SDK speaks it, in one process): the two links are the relay's
 * ends, as stdin/stdout and a child process are in `argspan mcp-proxy`.
 */
async function relayed(server: Server, options: { ownRequestTimeoutMs?: number } = {}) {
  const [clientEnd, proxyClientSide] = InMemoryTransport.createLinkedPair();
  const [proxyServerSide, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const sentToServer: JSONRPCMessage[] = [];
  const clientLink: ClientLink = {
    send: (message) => void proxyClientSide.send(message as JSONRPCMessage),
    close: () => proxyClientSide.close(),
  };
  const serverLink: ServerLink = {
    start: async () => undefined,
    send: async (message) => {
      sentToServer.push(message as JSONRPCMessage);
      await proxyServerSide.send(message as JSONRPCMessage);
    },
    close: () => proxyServerSide.close(),
  };
  proxyClientSide.onmessage = (m) => clientLink.onmessage?.(m);
  proxyServerSide.onmessage = (m) => serverLink.onmessage?.(m);
  await proxyClientSide.start();
  await proxyServerSide.start();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const stateDir = mkdtempSync(join(tmpdir(), 'relay-'));
  dirs.push(stateDir);
  const relay = new McpRelay(clientLink, serverLink, { tracerProvider: provider, policy: {}, stateDir }, () => undefined, { askTimeoutMs: 60_000, ...options });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientEnd);
  return { client, relay, sentToServer, spans: () => exporter.getFinishedSpans() };
}

/** A real SDK server whose `tools/list` never answers (a server stuck starting), and whose calls and pings do. */
function serverThatNeverLists(): { server: Server; calls: string[] } {
  const calls: string[] = [];
  const server = new Server({ name: 'slow-list', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => new Promise<never>(() => undefined));
  server.setRequestHandler(CallToolRequestSchema, async (r) => {
    calls.push(r.params.name);
    return { content: [{ type: 'text', text: `ok ${r.params.name}` }] };
  });
  return { server, calls };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('McpRelay with a server that never answers the proxy\'s own tools/list', () => {
  it('lets the client go on once it cancels the call, and never sends the cancelled call', async () => {
    const { server, calls } = serverThatNeverLists();
    const { client, sentToServer } = await relayed(server);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'hi' } }, undefined, { timeout: 300 })).rejects.toThrow(/timed out/i);
    await expect(client.ping({ timeout: 2000 })).resolves.toBeDefined();
    expect(calls).toEqual([]);
    expect(sentToServer.some((m) => 'method' in m && m.method === 'tools/call')).toBe(false);
    await client.close();
  });

  it('cancels its own tools/list after the timeout and gates the call without schemas', async () => {
    const { server, calls } = serverThatNeverLists();
    const { client, sentToServer, spans } = await relayed(server, { ownRequestTimeoutMs: 200 });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } }, undefined, { timeout: 5000 });
    expect(result.content).toEqual([{ type: 'text', text: 'ok echo' }]);
    expect(calls).toEqual(['echo']);
    const list = sentToServer.find((m) => 'method' in m && m.method === 'tools/list') as { id: string } | undefined;
    expect(list).toBeDefined();
    expect(sentToServer).toContainEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: list!.id, reason: expect.any(String) } });
    expect(spans().map((s) => s.name)).toContain('execute_tool echo');
    await client.close();
  });
});
