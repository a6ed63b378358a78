import { basename } from 'node:path';
import { shownName } from '@argspan/core/internal';
import { ResourceAttributes } from '@argspan/conventions';
import { setupTracing, type TracingHandle } from '@argspan/setup';
import { ExitCode } from '../../exit-codes.js';
import type { CommandIO } from '../../io.js';
import { ChildServerLink, findsExecutable } from './child-server-link.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttpFront } from './http-front.js';
import { TransportServerLink, type TransportClientLink } from './transport-links.js';
import { ServerStartError, type ServerLink } from './links.js';
import type { McpProxyConfig } from './options.js';
import { McpRelay } from './relay.js';
import { StdioClientLink } from './stdio-client-link.js';
import type { ToolGateOptions } from './tool-gate.js';
import { DEFAULT_MAX_CONTEXT_CHARS } from '@argspan/instrumentation';

/** Lines of a server's stdout over this many bytes are streamed to the client, not held. */
export const STREAM_THRESHOLD_BYTES = 1024 * 1024;

/**
 * Run the proxy until the client goes away (exit 0), the server does (stdio front: exit 4), or a
 * SIGINT/SIGTERM arrives (everything is closed and flushed, then the signal is re-raised).
 */
export async function runMcpProxy(config: McpProxyConfig, io: CommandIO): Promise<number> {
  const log = (line: string) => void io.stderr.write(line + '\n');
  const tracing = setupTracing({
    serviceName: config.serviceName,
    file: { directory: config.tracesDir },
    // Small batches often: an export runs on the relay's thread, and a short one delays fewer calls.
    batch: { scheduledDelayMillis: 100, maxExportBatchSize: 256 },
    register: false,
    resourceAttributes: { [ResourceAttributes.REMOTE_ALLOWLIST]: [...(config.policy.remoteAllowlist ?? [])] },
  });
  const gateOptions: ToolGateOptions = { tracerProvider: tracing.provider, policy: config.policy, stateDir: config.stateDir };
  const stop = signalled();
  try {
    const code = config.http ? await serveOverHttp(config, gateOptions, io, stop.signal, log) : await serveOverStdio(config, gateOptions, io, stop.signal, log);
    return code;
  } finally {
    stop.remove();
    await shutdown(tracing, log);
    if (stop.received) process.kill(process.pid, stop.received);
  }
}

async function serveOverStdio(config: McpProxyConfig, gateOptions: ToolGateOptions, io: CommandIO, stop: Promise<void>, log: (line: string) => void): Promise<number> {
  const server = serverLink(config, io, log);
  try {
    await server.start();
  } catch (err) {
    if (!(err instanceof ServerStartError)) throw err;
    log(`argspan mcp-proxy: ${err.message}`);
    return ExitCode.INPUT_ERROR;
  }
  announce(server, log);
  const client = new StdioClientLink(io.stdin, io.stdout);
  const relay = new McpRelay(client, server, gateOptions, log, { askTimeoutMs: config.askTimeoutMs });
  client.start();
  const end = await Promise.race([relay.ended, stop.then(() => undefined)]);
  await client.close();
  await server.close();
  return end?.by === 'server' ? ExitCode.SERVER_FAILED : ExitCode.OK;
}

async function serveOverHttp(config: McpProxyConfig, gateOptions: ToolGateOptions, io: CommandIO, stop: Promise<void>, log: (line: string) => void): Promise<number> {
  const { host, port, idleTimeoutMs } = config.http!;
  // A server starts per session; one that can never start is a usage error now, as over stdio.
  if (config.command && !findsExecutable(config.command.file)) {
    log(`argspan mcp-proxy: cannot start ${basename(config.command.file)}: ENOENT`);
    return ExitCode.INPUT_ERROR;
  }
  const servers = new Set<ServerLink>();
  const startSession = async (link: TransportClientLink) => {
    const server = serverLink(config, io, log);
    await server.start();
    announce(server, log);
    servers.add(server);
    // Each session is its own run: its own argspan session (provenance context) through its own gate.
    const relay = new McpRelay(link, server, gateOptions, log, { askTimeoutMs: config.askTimeoutMs });
    void relay.ended.then(async () => {
      servers.delete(server);
      await Promise.all([server.close(), link.close()]).catch(() => undefined);
    });
  };
  let front;
  try {
    front = await serveHttpFront({ host, port, idleTimeoutMs }, startSession, log);
  } catch (err) {
    if (!(err instanceof ServerStartError)) throw err;
    log(`argspan mcp-proxy: ${err.message}`);
    return ExitCode.INPUT_ERROR;
  }
  log(`argspan mcp-proxy: serving MCP at ${front.url}`);
  await stop;
  await front.close();
  await Promise.all([...servers].map((s) => s.close()));
  return ExitCode.OK;
}

function serverLink(config: McpProxyConfig, io: CommandIO, log: (line: string) => void): ServerLink {
  if (config.serverUrl) {
    const transport = new StreamableHTTPClientTransport(config.serverUrl, { requestInit: { headers: { ...config.serverHeaders } } });
    return new TransportServerLink(transport, (kind) => log(`argspan mcp-proxy: the MCP server connection failed (${kind})`), shownName(config.serverUrl.host));
  }
  return new ChildServerLink({
    command: config.command!.file,
    args: config.command!.args,
    stderr: io.stderr,
    streamThreshold: STREAM_THRESHOLD_BYTES,
    maxContextBytes: DEFAULT_MAX_CONTEXT_CHARS,
  });
}

/** Say which server runs (its file name and pid; its arguments may hold tokens and are never printed). */
function announce(server: ServerLink, log: (line: string) => void): void {
  if (server instanceof ChildServerLink) log(`argspan mcp-proxy: started ${server.name} (pid ${server.pid})`);
}

/** Flush the spans: the embedded file exporter writes them; OTLP gets at most 5 s. */
async function shutdown(tracing: TracingHandle, log: (line: string) => void): Promise<void> {
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5000).unref());
  const r = await Promise.race([tracing.shutdown().then(() => 'done' as const, () => 'failed' as const), timeout]);
  if (r !== 'done') log(`argspan mcp-proxy: spans could not all be flushed (${r})`);
}

/** SIGINT / SIGTERM as a promise (the proxy closes both sides, flushes, then re-raises the signal). */
function signalled(): { signal: Promise<void>; received: NodeJS.Signals | undefined; remove: () => void } {
  let fire!: () => void;
  const state = {
    signal: new Promise<void>((resolve) => (fire = resolve)),
    received: undefined as NodeJS.Signals | undefined,
    remove: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
  const on = (signal: NodeJS.Signals) => {
    state.received = signal;
    fire();
  };
  process.once('SIGINT', on);
  process.once('SIGTERM', on);
  return state;
}
