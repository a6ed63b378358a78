import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ArgAttributes } from '@argspan/conventions';
import { ArgspanBlockedError, ArgspanClarificationError } from '@argspan/instrumentation';
import type { RemoteHopRequest } from '@argspan/instrumentation';
import { argSpans, memoryTracing, toolSpan } from '../../test-support/fixtures.js';
import { instrumentMcpClient } from './instrument-client.js';
import type { McpAdapterOptions } from './types.js';

const hashKey = new Uint8Array(32).fill(4);

/** An in-process SDK server (real protocol over a linked in-memory transport) that counts requests. */
async function serve(options: McpAdapterOptions) {
  const counts = { list: 0, calls: [] as string[], sent: [] as string[] };
  const server = new McpServer({ name: 'calendar', version: '0.0.0' });
  server.registerTool(
    'create_event',
    { inputSchema: { title: z.string(), timezone: z.string().optional(), send_updates: z.enum(['all', 'none']).default('all') } },
    async ({ title }) => {
      counts.calls.push(title);
      return { content: [{ type: 'text', text: `created ${title}` }] };
    },
  );
  server.registerTool('summarise', { inputSchema: { text: z.string(), style: z.string().default('brief') } }, async ({ text }) => {
    counts.calls.push(`summarise ${text.length}`);
    return { content: [{ type: 'text', text: 'summary' }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const onmessage = serverSide.onmessage!;
  serverSide.onmessage = (m, extra) => {
    if ('method' in m && m.method === 'tools/list') counts.list += 1;
    counts.sent.push(JSON.stringify(m));
    onmessage(m, extra);
  };
  const client = instrumentMcpClient(new Client({ name: 'test', version: '0.0.0' }), { hashKey, ...options });
  await client.connect(clientSide);
  return { client, counts, close: () => client.close() };
}

describe('instrumentMcpClient (in-process SDK server)', () => {
  it('lists tools once even when the first calls run concurrently, and uses the learned defaults', async () => {
    const { provider, spans } = memoryTracing();
    const s = await serve({ tracerProvider: provider });
    try {
      await Promise.all([
        s.client.callTool({ name: 'create_event', arguments: { title: 'A', send_updates: 'all' } }, undefined, { argspan: { callId: 'a' } }),
        s.client.callTool({ name: 'create_event', arguments: { title: 'B' } }, undefined, { argspan: { callId: 'b' } }),
      ]);
      expect(s.counts.list).toBe(1);
      expect(s.counts.calls.sort()).toEqual(['A', 'B']);
      const a = argSpans(spans(), toolSpan(spans(), 'create_event', 'a'));
      expect(a.find((x) => x.attributes[ArgAttributes.KEY] === 'send_updates')?.attributes[ArgAttributes.PROVENANCE]).toBe('schema_default');
    } finally {
      await s.close();
    }
  });

  it('sends what a call holds besides its arguments (`_meta`, any other key) with every credential redacted, keys too', async () => {
    const token = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    const aws = 'AKIA' + 'Q7R2XKZ4M3PLT3VB';
    const s = await serve({});
    try {
      // (and a token split across nested keys: neither key holds a credential alone)
      const split = { [token.slice(0, 20)]: { [token.slice(20)]: 1 } };
      const params = { name: 'create_event', arguments: { title: 'A' }, _meta: { progressToken: 7, note: `use ${token}`, [aws]: [aws], split }, extra: { deep: [`key=${aws}`] } };
      await s.client.callTool(params as never);
      expect(s.counts.calls).toEqual(['A']);
      const call = s.counts.sent.map((m) => JSON.parse(m) as { method?: string; params?: Record<string, unknown> }).find((m) => m.method === 'tools/call')!;
      expect(call.params).toEqual({
        name: 'create_event',
        arguments: { title: 'A' },
        _meta: { progressToken: 7, note: 'use [REDACTED:github-pat]', '[REDACTED:aws-access-key-id]': ['[REDACTED:aws-access-key-id]'], split: { '[REDACTED:github-pat]': { '[REDACTED:github-pat]': 1 } } },
        extra: { deep: ['key=[REDACTED:aws-access-key-id]'] },
      });
      expect(s.counts.sent.join('\n')).not.toContain(token.slice(4, 20));
      expect(s.counts.sent.join('\n')).not.toContain(token.slice(20));
      expect(s.counts.sent.join('\n')).not.toContain(aws.slice(4));
    } finally {
      await s.close();
    }
  });

  it('reads the tool name once: the name sent is the name gated, whatever a getter says next', async () => {
    const s = await serve({ remoteTools: ['upload'] });
    try {
      let reads = 0;
      const params = { arguments: { title: 'A' } } as Record<string, unknown>;
      Object.defineProperty(params, 'name', { enumerable: true, get: () => (reads++ === 0 ? 'create_event' : 'upload') });
      await s.client.callTool(params as never);
      const call = s.counts.sent.map((m) => JSON.parse(m) as { method?: string; params?: { name?: string } }).find((m) => m.method === 'tools/call')!;
      expect(call.params?.name).toBe('create_event');
    } finally {
      await s.close();
    }
  });

  it('does not list tools when listToolsFirst is false', async () => {
    const s = await serve({ listToolsFirst: false });
    try {
      await s.client.callTool({ name: 'create_event', arguments: { title: 'A' } });
      expect(s.counts.list).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('asks before a model-inferred timezone reaches the server; the result mode returns the question', async () => {
    const thrown = await serve({});
    const answered = await serve({ onRefused: 'result' });
    try {
      const args = { title: 'Follow-up', timezone: 'UTC' };
      await expect(thrown.client.callTool({ name: 'create_event', arguments: args })).rejects.toBeInstanceOf(ArgspanClarificationError);
      const result = (await answered.client.callTool({ name: 'create_event', arguments: args })) as { isError: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toBe('Before I run create_event: which time zone (`timezone`) should I use? You did not give it, so I will not guess.');
      expect(thrown.counts.calls).toEqual([]);
      expect(answered.counts.calls).toEqual([]);
    } finally {
      await thrown.close();
      await answered.close();
    }
  });

  it('blocks instead of asking under inferredAction "block", before the server sees the call', async () => {
    const s = await serve({ policy: { inferredAction: 'block' } });
    try {
      await expect(s.client.callTool({ name: 'create_event', arguments: { title: 'X', timezone: 'UTC' } })).rejects.toBeInstanceOf(ArgspanBlockedError);
      expect(s.counts.calls).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('strips keys the listed input schema does not declare from a remote hop', async () => {
    const hops: RemoteHopRequest[] = [];
    const s = await serve({
      policy: { remoteAllowlist: ['summarise'] },
      remote: async (request) => {
        hops.push(request);
        return { content: [{ type: 'text', text: 'summarised remotely' }] };
      },
    });
    try {
      const text = 'Parser design notes. '.repeat(500); // bulky-public
      const result = await s.client.callTool({ name: 'summarise', arguments: { text, style: 'brief', debug_dump: 'x' } });
      expect(result).toEqual({ content: [{ type: 'text', text: 'summarised remotely' }] });
      expect(s.counts.calls).toEqual([]); // went to the hop, not to the local server
      expect(hops).toHaveLength(1);
      expect(hops[0]!.args).toEqual({ text, style: 'brief' });
      expect(hops[0]!.strippedKeys).toEqual(['debug_dump']);
    } finally {
      await s.close();
    }
  });

  it('refuses to instrument a client twice and rejects a bad onRefused', async () => {
    const client = new Client({ name: 'test', version: '0.0.0' });
    instrumentMcpClient(client, { hashKey });
    expect(() => instrumentMcpClient(client, { hashKey })).toThrow(/already instrumented/);
    expect(() => instrumentMcpClient(new Client({ name: 't', version: '0' }), { hashKey, onRefused: 'drop' as 'throw' })).toThrow(/onRefused/);
  });
});
