import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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
 * Serve MCP over Streamable HTTP on `host:port`. A POST without a session id starts a session:
 * `startSession` gets its client link (and connects it to a server) before the request is handled.
 * Requests whose `Host` is not this front's (DNS rebinding) are refused.
 */
export function serveHttpFront(
  host: string,
  port: number,
  startSession: (link: TransportClientLink) => Promise<void>,
  log: (line: string) => void,
): Promise<HttpFront> {
  const sessions = new Map<string, TransportClientLink>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!allowedHost(req.headers.host, host)) return plain(res, 403, 'host not allowed');
    if (url.pathname !== MCP_PATH) return plain(res, 404, `not found: MCP is served at ${MCP_PATH}`);
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const link = sessions.get(sid);
      if (!link) return jsonRpcError(res, 404, 'session not found: initialize a new one');
      return (link.transport as StreamableHTTPServerTransport).handleRequest(req, res);
    }
    if (req.method !== 'POST') return jsonRpcError(res, 400, 'no session: the first request must be a POST of initialize');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, link),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    const link = new TransportClientLink(transport);
    await link.start();
    try {
      await startSession(link);
    } catch (err) {
      log(`argspan mcp-proxy: could not start a session (${err instanceof Error ? err.message : 'error'})`);
      return jsonRpcError(res, 502, 'argspan mcp-proxy could not start the MCP server for this session');
    }
    await transport.handleRequest(req, res);
    // Not an initialize request: no session was made, so nothing will use this one.
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
    server.once('error', (err: NodeJS.ErrnoException) => reject(new ServerStartError(`cannot listen on ${host}:${port}: ${err.code ?? 'error'}`)));
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}${MCP_PATH}`,
        close: async () => {
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

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(text + '\n');
}

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}
