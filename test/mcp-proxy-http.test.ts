/**
 * `argspan mcp-proxy` over Streamable HTTP, both ways, with the SDK's own transports on loopback:
 * the HTTP front (`--http`) in front of a stdio server, and a stdio front in front of an HTTP server
 * (`--server-url`).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallAttributes, McpAttributes } from '@argspan/conventions';
import { makeCanary } from '../packages/adapters/test-support/fixtures.js';
import { CLI_BIN, FIXTURE_SERVER, isAlive, readFileSpans, resultText, sleep, startProxy, toolSpans, waitGone } from './support/mcp-proxy.js';

describe('argspan mcp-proxy --http (Streamable HTTP front, stdio server behind)', () => {
  const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-http-'));
  const canary = makeCanary();
  let proxy: ReturnType<typeof spawn>;
  let stderr = '';
  let url: URL;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  beforeAll(async () => {
    proxy = spawn(process.execPath, [CLI_BIN, 'mcp-proxy', '--http', '127.0.0.1:0', '--traces-dir', join(work, 'traces'), '--state-dir', join(work, 'state'), '--', process.execPath, FIXTURE_SERVER], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => proxy.once('close', (code, signal) => resolve({ code, signal })));
    proxy.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    for (let i = 0; i < 600 && !/serving MCP at (\S+)/.test(stderr); i++) await sleep(25);
    url = new URL(/serving MCP at (\S+)/.exec(stderr)![1]!);
  });

  afterAll(async () => {
    if (proxy.exitCode === null) proxy.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport; received: JSONRPCMessage[] }> {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: 'argspan-http-client', version: '2.0.0' });
    await client.connect(transport);
    const received: JSONRPCMessage[] = [];
    const onmessage = transport.onmessage!;
    transport.onmessage = (m: JSONRPCMessage) => {
      received.push(m);
      onmessage(m);
    };
    return { client, transport, received };
  }

  it('relays calls and progress per session, refuses a secret argument, and starts one server per session', async () => {
    const a = await connect();
    const b = await connect();
    expect(a.transport.sessionId).toBeDefined();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    expect(stderr.match(/started node \(pid \d+\)/g)).toHaveLength(2);
    expect((await a.client.listTools()).tools.map((t) => t.name)).toContain('echo');
    expect(resultText(await b.client.callTool({ name: 'echo', arguments: { text: 'over http' } }))).toBe('over http');
    const refused = await a.client.callTool({ name: 'echo', arguments: { text: `OPENAI_API_KEY=${canary}` } });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('secret argument stays local');
    await a.client.callTool({ name: 'count', arguments: { steps: 2 } }, undefined, { onprogress: () => undefined });
    // Progress goes on the stream of the request it reports on: it reaches this client.
    expect(a.received.filter((m) => 'method' in m && m.method === 'notifications/progress')).toHaveLength(2);
    // Ending a session stops its server.
    const pids = [...stderr.matchAll(/started node \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    await b.transport.terminateSession();
    await b.client.close();
    await waitGone(pids[1]!);
    expect(isAlive(pids[0]!)).toBe(true);
    await a.client.close();
  });

  it('refuses a request whose Host is not loopback (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${url.port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }));
    });
    expect(status).toBe(403);
  });

  it("refuses a page of another site (its Origin) and a first POST that is not application/json, starting no server", async () => {
    const started = () => stderr.match(/started node \(pid \d+\)/g)?.length ?? 0;
    const before = started();
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } });
    const post = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { accept: 'application/json, text/event-stream', ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(initialize);
      });
    const json = { 'content-type': 'application/json' };
    // a browser's cross-site fetch to a loopback address: Host is loopback, Origin is not
    expect(await post({ ...json, origin: 'https://evil.example' })).toBe(403);
    expect(await post({ ...json, origin: 'null' })).toBe(403);
    expect(await post({ ...json, origin: `http://localhost.evil.example:${url.port}` })).toBe(403);
    // a form or no-CORS post (no preflight) can only be text/plain
    expect(await post({ 'content-type': 'text/plain' })).toBe(415);
    expect(await post({})).toBe(415);
    await sleep(200);
    expect(started()).toBe(before);
    // a page on this machine may
    expect(await post({ ...json, origin: `http://localhost:${url.port}` })).toBe(200);
    expect(started()).toBe(before + 1);
  });

  it('starts no server for a request without a session that is not initialize (not JSON, {}, tools/list, a notification)', async () => {
    const started = () => stderr.match(/started node \(pid \d+\)/g)?.length ?? 0;
    const before = started();
    const post = (body: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const answers = [
      await post('{"jsonrpc":"2.0","id":1,"method":'),
      await post('{}'),
      await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })),
      await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
    expect((JSON.parse(answers[0]!.body) as { error: { code: number } }).error.code).toBe(-32700);
    expect(answers[2]!.body).toContain('the first request must be a POST of initialize');
    await sleep(200);
    expect(started()).toBe(before);
    // an initialize still starts one
    const c = await connect();
    expect(started()).toBe(before + 1);
    await c.transport.terminateSession();
    await c.client.close();
  });

  it('stops every server on SIGTERM and writes spans with the HTTP session id', async () => {
    const pids = [...stderr.matchAll(/started node \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    proxy.kill('SIGTERM');
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
    for (const pid of pids) await waitGone(pid);
    const spans = readFileSpans(join(work, 'traces'));
    const echo = toolSpans(spans, 'echo');
    expect(echo).toHaveLength(2);
    for (const s of echo) expect(s.attributes[McpAttributes.SESSION_ID]).toMatch(/^[0-9a-f-]{36}$/);
    expect(echo.find((s) => s.attributes[CallAttributes.ENFORCEMENT] === 'deny')!.attributes[McpAttributes.CLIENT_NAME]).toBe('argspan-http-client');
    expect(stderr).not.toContain(canary);
    expect(JSON.stringify(spans)).not.toContain(canary);
  });
});

describe('argspan mcp-proxy --http --session-idle-timeout', () => {
  it('ends a session no request is open on for that long and stops its server; a client holding its event stream open keeps its own', async () => {
    const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-idle-'));
    const proxy = spawn(process.execPath, [CLI_BIN, 'mcp-proxy', '--http', '127.0.0.1:0', '--session-idle-timeout', '1', '--traces-dir', join(work, 'traces'), '--state-dir', join(work, 'state'), '--', process.execPath, FIXTURE_SERVER], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proxy.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      for (let i = 0; i < 600 && !/serving MCP at (\S+)/.test(stderr); i++) await sleep(25);
      const url = new URL(/serving MCP at (\S+)/.exec(stderr)![1]!);
      const pids = () => [...stderr.matchAll(/started node \(pid (\d+)\)/g)].map((m) => Number(m[1]));
      // A: an SDK client, which holds its event stream (GET) open while it lives.
      const transport = new StreamableHTTPClientTransport(url);
      const client = new Client({ name: 'kept', version: '1.0.0' });
      await client.connect(transport);
      // B: a client that initializes and vanishes without ending its session.
      const post = (headers: Record<string, string>, body: unknown) =>
        new Promise<{ status: number; sid?: string }>((resolve, reject) => {
          const req = httpRequest({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, sid: res.headers['mcp-session-id'] as string | undefined }));
          });
          req.on('error', reject);
          req.end(JSON.stringify(body));
        });
      const init = await post({}, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } });
      expect(init.status).toBe(200);
      expect(init.sid).toBeDefined();
      for (let i = 0; i < 200 && pids().length < 2; i++) await sleep(25);
      const [keptPid, gonePid] = pids();
      await waitGone(gonePid!);
      expect(stderr).toContain('a client session had no request open for 1 s: ended, its server stopped');
      expect((await post({ 'mcp-session-id': init.sid!, 'mcp-protocol-version': '2025-06-18' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(404);
      // A, idle for as long but with its stream open, still works.
      expect(isAlive(keptPid!)).toBe(true);
      expect(resultText(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
      await client.close();
    } finally {
      proxy.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('argspan mcp-proxy --server-url (stdio front, Streamable HTTP server behind)', () => {
  const token = `tok-${randomUUID()}`;
  const calls: string[] = [];
  const authorizations = new Set<string | undefined>();
  let server: Server;
  let serverUrl: string;

  beforeAll(async () => {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    server = createServer(async (req, res) => {
      authorizations.add(req.headers.authorization);
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (!transport) {
        const mcp = new McpServer({ name: 'remote-http-server', version: '5.0.0' });
        mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => {
          calls.push(text);
          return { content: [{ type: 'text', text }] };
        });
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, created) });
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('relays to the HTTP server with the configured header, gates calls first, and never prints the header', async () => {
    const canary = makeCanary();
    const proxy = await startProxy([], { options: ['--server-url', serverUrl, '--server-header', 'Authorization: Bearer ${REMOTE_MCP_TOKEN}'], env: { REMOTE_MCP_TOKEN: token } });
    try {
      expect(proxy.client.getServerVersion()).toMatchObject({ name: 'remote-http-server', version: '5.0.0' });
      expect(resultText(await proxy.client.callTool({ name: 'echo', arguments: { text: 'to the remote' } }))).toBe('to the remote');
      const refused = await proxy.client.callTool({ name: 'echo', arguments: { text: canary } });
      expect(refused.isError).toBe(true);
      expect(calls).toEqual(['to the remote']);
      expect(authorizations).toEqual(new Set([`Bearer ${token}`]));
    } finally {
      await proxy.close();
    }
    const spans = readFileSpans(proxy.tracesDir);
    expect(toolSpans(spans, 'echo')[0]!.attributes[McpAttributes.SERVER_NAME]).toBe('remote-http-server');
    for (const text of [proxy.stderr(), JSON.stringify(spans), JSON.stringify(proxy.received)]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(canary);
    }
    proxy.remove();
  });
});

describe('argspan mcp-proxy --server-url when the HTTP server fails', () => {
  /** A spec-following upstream: 404 for a session it does not know; `failCalls` answers tools/call with HTTP 500; `forget` drops every session (a restart). */
  async function upstream() {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    // lostAs: how it answers a session id it no longer has: 404 (the spec), or 400 as servers built from the SDKs' early examples do
    const state = { failCalls: false, lostAs: 404 as 404 | 400 };
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const message = body === '' ? undefined : (JSON.parse(body) as { method?: string });
      if (state.failCalls && message?.method === 'tools/call') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (typeof sid === 'string' && !transport) {
        const message = state.lostAs === 404 ? 'Session not found' : 'Bad Request: No valid session ID provided';
        return void res.writeHead(state.lostAs, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message } }));
      }
      if (!transport) {
        const mcp = new McpServer({ name: 'flaky-http-server', version: '1.0.0' });
        mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, created) });
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, message);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return {
      state,
      port,
      url: `http://127.0.0.1:${port}/mcp`,
      forget: () => sessions.clear(),
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('names the server and the cause: nothing listening (ECONNREFUSED), an HTTP 500 (a server error, not a server gone)', async () => {
    const up = await upstream();
    const proxy = await startProxy([], { options: ['--server-url', up.url] });
    try {
      up.state.failCalls = true;
      await expect(proxy.client.callTool({ name: 'echo', arguments: { text: 'hi' } })).rejects.toThrow(`the MCP server at 127.0.0.1:${up.port} answered HTTP 500 to tools/call`);
      await up.close();
      await expect(proxy.client.listTools()).rejects.toThrow(`the MCP server at 127.0.0.1:${up.port} could not be reached (ECONNREFUSED); tools/list was not delivered`);
    } finally {
      await proxy.close();
    }
    const echo = toolSpans(readFileSpans(proxy.tracesDir), 'echo');
    expect(echo.map((s) => s.attributes['error.type'])).toEqual(['McpServerError']);
    expect(proxy.stderr()).not.toContain('upstream exploded');
    proxy.remove();
  });

  it.each([404, 400] as const)('a server that lost the session (HTTP %i, restarted): the stdio proxy ends with exit 4, so the client starts it anew', async (lostAs) => {
    const up = await upstream();
    up.state.lostAs = lostAs;
    const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-lost-'));
    const proxy = spawn(process.execPath, [CLI_BIN, 'mcp-proxy', '--traces-dir', join(work, 'traces'), '--state-dir', join(work, 'state'), '--server-url', up.url], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => proxy.once('close', (code) => resolve(code)));
    let out = '';
    let stderr = '';
    proxy.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proxy.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const send = (m: unknown) => proxy.stdin!.write(JSON.stringify(m) + '\n');
    const answer = async (id: number) => {
      for (let i = 0; i < 400; i++) {
        const line = out.split('\n').find((l) => l.includes(`"id":${id},`) || l.includes(`"id":${id}}`));
        if (line) return JSON.parse(line) as { result?: unknown; error?: { message: string } };
        await sleep(25);
      }
      throw new Error(`no answer to ${id}`);
    };
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      expect((await answer(1)).result).toBeDefined();
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'before' } } });
      expect(JSON.stringify((await answer(2)).result)).toContain('before');
      up.forget();
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'after' } } });
      expect((await answer(3)).error?.message).toMatch(new RegExp(`lost the session \\(HTTP ${lostAs}\\)|answered HTTP ${lostAs}`));
      expect(await exited).toBe(4);
      expect(stderr).toContain(`the MCP server at 127.0.0.1:${up.port} lost the session (HTTP ${lostAs})`);
      expect(stderr).not.toContain('No valid session');
    } finally {
      if (proxy.exitCode === null) proxy.kill('SIGKILL');
      await up.close();
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('the same over the HTTP front: the client\'s session ends (HTTP 404 on its id), and a new one works', async () => {
    const up = await upstream();
    const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-lost-http-'));
    const proxy = spawn(process.execPath, [CLI_BIN, 'mcp-proxy', '--http', '127.0.0.1:0', '--traces-dir', join(work, 'traces'), '--state-dir', join(work, 'state'), '--server-url', up.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proxy.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      for (let i = 0; i < 600 && !/serving MCP at (\S+)/.test(stderr); i++) await sleep(25);
      const front = new URL(/serving MCP at (\S+)/.exec(stderr)![1]!);
      const transport = new StreamableHTTPClientTransport(front);
      const client = new Client({ name: 'argspan-http-client', version: '1.0.0' });
      await client.connect(transport);
      expect(resultText(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');
      up.forget();
      await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).rejects.toThrow(/HTTP 404/);
      const status = await fetch(front, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      }).then((r) => r.status);
      expect(status).toBe(404);
      await client.close().catch(() => undefined);
      const again = new Client({ name: 'argspan-http-client', version: '1.0.0' });
      await again.connect(new StreamableHTTPClientTransport(front));
      expect(resultText(await again.callTool({ name: 'echo', arguments: { text: 'anew' } }))).toBe('anew');
      await again.close();
    } finally {
      proxy.kill('SIGKILL');
      await up.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('argspan mcp-proxy with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('sends its spans over OTLP/HTTP instead of writing files', async () => {
    const bodies: string[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') bodies.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const proxy = await startProxy([process.execPath, FIXTURE_SERVER], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'desktop-proxy' } });
    try {
      expect(resultText(await proxy.client.callTool({ name: 'echo', arguments: { text: 'over otlp' } }))).toBe('over otlp');
    } finally {
      await proxy.close();
      collector.closeAllConnections();
      await new Promise((resolve) => collector.close(resolve));
    }
    const sent = bodies.join('\n');
    expect(sent).toContain('"execute_tool echo"');
    expect(sent).toContain('"argspan.mcp.client.name"');
    expect(sent).toContain('"desktop-proxy"');
    expect(readFileSpans(proxy.tracesDir)).toEqual([]); // nothing spilled: the collector took every batch
    proxy.remove();
  });
});

describe('argspan mcp-proxy --http --on-no-evidence ask', () => {
  const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-http-ask-'));
  const QUESTION = 'Before I run send_email: which recipient (`to`) should I use? I could not confirm that you gave it, so I will not guess.';
  const email = { name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } };
  let proxy: ReturnType<typeof spawn>;
  let stderr = '';
  let url: URL;

  beforeAll(async () => {
    proxy = spawn(process.execPath, [CLI_BIN, 'mcp-proxy', '--http', '127.0.0.1:0', '--on-no-evidence', 'ask', '--ask-timeout', '1', '--traces-dir', join(work, 'traces'), '--state-dir', join(work, 'state'), '--', process.execPath, FIXTURE_SERVER], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proxy.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    for (let i = 0; i < 600 && !/serving MCP at (\S+)/.test(stderr); i++) await sleep(25);
    url = new URL(/serving MCP at (\S+)/.exec(stderr)![1]!);
  });

  afterAll(async () => {
    proxy.kill('SIGTERM');
    await new Promise((resolve) => proxy.once('close', resolve));
    rmSync(work, { recursive: true, force: true });
  });

  /** A client that can put a form to its user, answering each question with `answer`; `asked` lists the questions, `closed` counts the forms the proxy closed. */
  async function asking(answer: () => Promise<Record<string, unknown>>) {
    const client = new Client({ name: 'argspan-http-client', version: '2.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    const forms = { closed: 0 };
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      asked.push(request.params.message);
      extra.signal.addEventListener('abort', () => (forms.closed += 1), { once: true });
      return (await answer()) as never;
    });
    const transport = new StreamableHTTPClientTransport(url);
    await client.connect(transport);
    return { client, transport, asked, forms };
  }

  it("puts the gate's question to the user on the stream of the held call, and runs the call with the value they give", async () => {
    const { client, asked } = await asking(async () => ({ action: 'accept', content: { answer_1: 'maria.lopez@example.com' } }));
    const sent = await client.callTool(email);
    expect(resultText(sent)).toBe('sent');
    expect(asked).toEqual([QUESTION]);
    await client.close();
  });

  it('a question not answered within --ask-timeout: the form is closed and the call held; one the client cancels is withdrawn at once', async () => {
    const { client, asked, forms } = await asking(() => new Promise(() => undefined)); // the user is away
    const held = await client.callTool(email);
    expect(resultText(held)).toBe(QUESTION);
    expect(forms.closed).toBe(1);
    const stop = new AbortController();
    const call = client.callTool(email, undefined, { signal: stop.signal });
    for (let i = 0; i < 600 && asked.length < 2; i++) await sleep(10);
    stop.abort();
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 600 && forms.closed < 2; i++) await sleep(10);
    expect(forms.closed).toBe(2);
    expect(resultText(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
    await client.close();
  });

  it('a client that ends its session while a question is open: that session\'s server is stopped', async () => {
    const { client, transport, asked } = await asking(() => new Promise(() => undefined));
    const serverPid = Number([...stderr.matchAll(/started \S+ \(pid (\d+)\)/g)].at(-1)![1]);
    void client.callTool(email).catch(() => undefined);
    for (let i = 0; i < 600 && asked.length < 1; i++) await sleep(10);
    expect(asked).toHaveLength(1);
    await transport.terminateSession();
    await client.close();
    await waitGone(serverPid);
  });
});
