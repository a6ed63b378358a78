import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { GatePolicy } from '@argspan/core';

/** What the proxy relays to and from, and where its evidence goes. */
export interface McpProxyConfig {
  /** The server to start (after `--`), or undefined with `serverUrl`. */
  command?: { file: string; args: string[] };
  /** A Streamable HTTP server to relay to instead of a command. */
  serverUrl?: URL;
  /** Headers sent to `serverUrl` (values may hold credentials: never printed). */
  serverHeaders: Record<string, string>;
  /** Serve Streamable HTTP here instead of stdio; `idleTimeoutMs`: how long a session no request is open on lives. */
  http?: { host: string; port: number; idleTimeoutMs: number };
  tracesDir: string;
  stateDir: string;
  serviceName: string;
  policy: Partial<GatePolicy>;
  /** How long a question put to the user through the client waits for an answer, in ms. */
  askTimeoutMs: number;
}

/** The command line's own options (the policy options are declared once, in `policy-options.ts`). */
export interface McpProxyCliOptions {
  serverUrl?: string;
  serverHeader?: string[];
  http?: string;
  tracesDir?: string;
  stateDir?: string;
  serviceName?: string;
  askTimeout?: string;
  sessionIdleTimeout?: string;
}

/** A proxy option that cannot be used: the message names the option, never a header value. */
export class ProxyOptionError extends Error {
  override name = 'ProxyOptionError';
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** Add the proxy's own options to its command. */
export function addProxyOptions(command: Command): Command {
  return command
    .option('--server-url <url>', 'relay to a Streamable HTTP MCP server at this URL instead of starting a command')
    .option('--server-header <header>', 'header sent to --server-url, "Name: value"; ${VAR} in the value is read from the environment (repeatable; never printed)', collect)
    .option('--http <[host:]port>', 'serve MCP over Streamable HTTP at http://host:port/mcp (host 127.0.0.1 unless given) instead of stdio')
    .option('--traces-dir <dir>', 'where the embedded file exporter writes spans (default ~/.argspan/traces)')
    .option('--state-dir <dir>', "argspan's local state, the hash key (default ~/.argspan)")
    .option('--service-name <name>', 'service.name of the spans (default $OTEL_SERVICE_NAME, else argspan-mcp-proxy)')
    .option('--ask-timeout <seconds>', "how long a question put to the user through the client (MCP elicitation) waits for the answer; the call stays held after (default 300)")
    .option('--session-idle-timeout <seconds>', 'with --http: a client session with no request open (not even its event stream) for this long is ended and its server stopped (default 1800)');
}

/** Check and combine the options and the server command. */
export function proxyConfig(serverCommand: readonly string[], opts: McpProxyCliOptions, policy: Partial<GatePolicy>, env: NodeJS.ProcessEnv): McpProxyConfig {
  const home = homedir();
  const config: McpProxyConfig = {
    serverHeaders: {},
    tracesDir: opts.tracesDir !== undefined ? expandHome(opts.tracesDir) : join(home, '.argspan', 'traces'),
    stateDir: opts.stateDir !== undefined ? expandHome(opts.stateDir) : join(home, '.argspan'),
    serviceName: opts.serviceName ?? (env.OTEL_SERVICE_NAME?.trim() || 'argspan-mcp-proxy'),
    policy,
    askTimeoutMs: opts.askTimeout === undefined ? DEFAULT_ASK_TIMEOUT_SECONDS * 1000 : parseSeconds('--ask-timeout', opts.askTimeout),
  };
  if (opts.serverUrl !== undefined) {
    if (serverCommand.length > 0) throw new ProxyOptionError('give either a server command after -- or --server-url, not both');
    let url: URL;
    try {
      url = new URL(opts.serverUrl);
    } catch {
      throw new ProxyOptionError('--server-url is not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProxyOptionError('--server-url must be an http: or https: URL');
    // (fetch refuses a URL with credentials in it: every request would fail)
    if (url.username !== '' || url.password !== '') throw new ProxyOptionError('--server-url must not hold a user or password: send them with --server-header "Authorization: Basic ${VAR}"');
    config.serverUrl = url;
    for (const h of opts.serverHeader ?? []) {
      const [name, value] = parseHeader(h, env);
      config.serverHeaders[name] = value;
    }
  } else {
    if (serverCommand.length === 0) throw new ProxyOptionError('no MCP server: give its command after -- (argspan mcp-proxy -- npx -y @modelcontextprotocol/server-filesystem DIR), or --server-url');
    if (opts.serverHeader) throw new ProxyOptionError('--server-header needs --server-url');
    config.command = { file: serverCommand[0]!, args: serverCommand.slice(1) };
  }
  if (opts.http !== undefined) {
    const idleTimeoutMs = opts.sessionIdleTimeout === undefined ? DEFAULT_SESSION_IDLE_TIMEOUT_SECONDS * 1000 : parseSeconds('--session-idle-timeout', opts.sessionIdleTimeout);
    config.http = { ...parseListen(opts.http), idleTimeoutMs };
  } else if (opts.sessionIdleTimeout !== undefined) {
    throw new ProxyOptionError('--session-idle-timeout needs --http (a stdio session ends with its client)');
  }
  return config;
}

/** Seconds a question put to the user waits for the answer unless `--ask-timeout` says otherwise. */
export const DEFAULT_ASK_TIMEOUT_SECONDS = 300;

/** Seconds an HTTP client session with no request open lives unless `--session-idle-timeout` says otherwise. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_SECONDS = 1800;

/** A timeout option's seconds as milliseconds: more than 0, at most a day. */
function parseSeconds(option: string, text: string): number {
  const seconds = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) throw new ProxyOptionError(`${option} must be a number of seconds, more than 0 and at most 86400`);
  return Math.round(seconds * 1000);
}

function parseHeader(header: string, env: NodeJS.ProcessEnv): [string, string] {
  const colon = header.indexOf(':');
  const name = colon < 0 ? '' : header.slice(0, colon).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new ProxyOptionError('--server-header must be "Name: value" with a valid header name');
  const value = header.slice(colon + 1).trim().replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, variable: string) => {
    const v = env[variable];
    if (v === undefined) throw new ProxyOptionError(`--server-header ${name}: the environment variable ${variable} is not set`);
    return v;
  });
  // (a header value is one line of Latin-1 text: anything else makes every request fail)
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw new ProxyOptionError(`--server-header ${name}: the value holds a line break or a character a header cannot carry`);
  return [name, value];
}

function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[^:]+):)?(\d+)$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || !Number.isInteger(port) || port < 0 || port > 65535) throw new ProxyOptionError('--http must be PORT or HOST:PORT (PORT 0 picks a free one)');
  const host = m[1] === undefined ? '127.0.0.1' : m[1].replace(/^\[|\]$/g, '');
  return { host, port };
}

/**
 * A leading `~/` as the home folder: a client's JSON config runs the command without a shell, so
 * nothing else would expand it (the filesystem server does the same for its folders).
 */
export function expandHome(path: string): string {
  return path === '~' ? homedir() : path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}
