import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ServerStartError } from './links.js';
import { TransportClientLink } from './transport-links.js';

/** The path the HTTP front serves MCP on. */
export const MCP_PATH = '/mcp';

/** The HTTP front: a Streamable HTTP endpoint at {@link MCP_PATH}; each session gets its own relay. */
export interface HttpFront {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serve MCP over Streamable HTTP on `host:port`. A POST of `initialize` without a session id starts
 * a session: `startSession` gets its client link (and connects it to a server) before the request
 * is handled; any other request without a session starts nothing.
 * Requests whose `Host` is not this front's (DNS rebinding), or whose `Origin` is a page of another
 * site, are refused; a first POST that is not `application/json` starts nothing.
 */
export function serveHttpFront(
  { host, port, idleTimeoutMs }: { host: string; port: number; idleTimeoutMs: number },
  startSession: (link: TransportClientLink) => Promise<void>,
  log: (line: string) => void,
): Promise<HttpFront> {
  const sessions = new Map<string, TransportClientLink>();
  // Per session: its requests still open (an SDK client holds its event stream open for as long as
  // it lives) and when the last one ended. A client that vanished without ending its session
  // (no DELETE) would otherwise keep its server running until the proxy exits.
  const open = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  const track = (sid: string, res: ServerResponse) => {
    open.set(sid, (open.get(sid) ?? 0) + 1);
    res.once('close', () => {
      open.set(sid, (open.get(sid) ?? 1) - 1);
      lastSeen.set(sid, Date.now());
    });
  };
  const forget = (sid: string) => {
    sessions.delete(sid);
    open.delete(sid);
    lastSeen.delete(sid);
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [sid, link] of sessions) {
      if (link.closed) forget(sid);
      if (link.closed || (open.get(sid) ?? 0) > 0 || now - (lastSeen.get(sid) ?? now) < idleTimeoutMs) continue;
      forget(sid);
      log(`argspan mcp-proxy: a client session had no request open for ${Math.round(idleTimeoutMs / 1000)} s: ended, its server stopped`);
      void link.close().catch(() => undefined);
    }
  }, Math.max(50, Math.min(idleTimeoutMs / 4, 60_000)));
  sweep.unref();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!allowedHost(req.headers.host, host)) return plain(res, 403, 'host not allowed');
    // A page of another site (its browser sends its Origin) may not reach in, even by a loopback name.
    if (req.headers.origin !== undefined && !allowedOrigin(req.headers.origin, host)) return plain(res, 403, 'origin not allowed');
    if (url.pathname !== MCP_PATH) return plain(res, 404, `not found: MCP is served at ${MCP_PATH}`);
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const link = sessions.get(sid);
      // A session whose relay ended (its server exited or lost the session) is gone: MCP clients initialize anew on a 404.
      if (link?.closed) forget(sid);
      if (!link || link.closed) return jsonRpcError(res, 404, 'session not found: initialize a new one');
      track(sid, res);
      return (link.transport as StreamableHTTPServerTransport).handleRequest(req, res);
    }
    if (req.method !== 'POST') return jsonRpcError(res, 400, 'no session: the first request must be a POST of initialize');
    // As the transport requires, checked before a server is started (a browser's form or no-CORS post is text/plain).
    if (!isJsonContentType(req.headers['content-type'])) return jsonRpcError(res, 415, 'Unsupported Media Type: Content-Type must be application/json');
    // Read before a server is started: a stray request (not JSON, not initialize) starts nothing.
    const body = await readJsonBody(req);
    if ('error' in body) return jsonRpcError(res, body.status, body.error, body.code);
    if (!startsSession(body.message)) return jsonRpcError(res, 400, 'no session: the first request must be a POST of initialize');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, link);
        track(id, res);
      },
      onsessionclosed: (id) => forget(id),
    });
    const link = new TransportClientLink(transport);
    await link.start();
    try {
      await startSession(link);
    } catch (err) {
      log(`argspan mcp-proxy: could not start a session (${err instanceof Error ? err.message : 'error'})`);
      return jsonRpcError(res, 502, 'argspan mcp-proxy could not start the MCP server for this session');
    }
    await transport.handleRequest(req, res, body.message);
    // Not a session after all (the transport refused the request): nothing will use this one.
    if (transport.sessionId === undefined) await link.close();
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      log(`argspan mcp-proxy: an HTTP request failed (${err instanceof Error ? err.name : 'error'})`);
      if (!res.headersSent) jsonRpcError(res, 500, 'argspan mcp-proxy: internal error');
      else res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      clearInterval(sweep);
      reject(new ServerStartError(`cannot listen on ${host}:${port}: ${err.code ?? 'error'}`));
    });
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}${MCP_PATH}`,
        close: async () => {
          clearInterval(sweep);
          await Promise.all([...sessions.values()].map((l) => l.close().catch(() => undefined)));
          server.closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

/** Loopback names always; the bound host too. Anything else is a page of another site reaching in. */
function allowedHost(header: string | undefined, bound: string): boolean {
  if (header === undefined) return false;
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0]!;
  return name === 'localhost' || name === '127.0.0.1' || name === '[::1]' || name === bound || `[${bound}]` === name;
}

/**
 * An `Origin` (sent by browsers) of a page served from this machine — `http(s)://` and a host
 * {@link allowedHost} allows, any port — as the MCP transport spec asks (DNS rebinding, and a
 * page of another site posting to a loopback address). `null` (a sandboxed or `file:` page) is not.
 */
function allowedOrigin(origin: string, bound: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && allowedHost(url.host, bound);
}

function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(text + '\n');
}

function jsonRpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** Largest request body read, as the SDK's transport allows. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request's body as JSON, or why not (the HTTP status and JSON-RPC error to answer with). */
async function readJsonBody(req: IncomingMessage): Promise<{ message: unknown } | { status: number; code: number; error: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { status: 413, code: -32600, error: `request body over ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk);
  }
  try {
    return { message: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { status: 400, code: -32700, error: 'Parse error: the request body is not JSON' };
  }
}

/** Whether a first request can start a session: an `initialize` request (alone, or in a batch the transport then judges). */
function startsSession(message: unknown): boolean {
  return Array.isArray(message) ? message.some((m) => isInitializeRequest(m)) : isInitializeRequest(message);
}
