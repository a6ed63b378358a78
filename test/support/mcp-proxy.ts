/** Test support for `argspan mcp-proxy`: start the built CLI as a child process and read what it wrote. */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ArgAttributes, toolCallSpanName } from '@argspan/conventions';

export const CLI_BIN = fileURLToPath(new URL('../../packages/cli/bin/argspan.js', import.meta.url));
export const FILESYSTEM_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
export const FIXTURE_SERVER = fileURLToPath(new URL('./mcp-fixture-server.mjs', import.meta.url));

export interface ProxyRun {
  client: Client;
  transport: StdioClientTransport;
  /** Every message the client received, as the proxy wrote it. */
  received: JSONRPCMessage[];
  /** Everything the proxy printed on stderr so far. */
  stderr: () => string;
  /** The proxy's pid. */
  pid: number;
  /** The server's pid, from the proxy's "started … (pid N)" line. */
  serverPid: () => Promise<number>;
  tracesDir: string;
  stateDir: string;
  /** Close the client (the proxy then exits) and wait until the proxy process is gone. */
  close: () => Promise<void>;
  remove: () => void;
}

export interface StartOptions {
  /** Extra proxy options (before `--`). */
  options?: string[];
  env?: Record<string, string>;
  capabilities?: ConstructorParameters<typeof Client>[1];
  /** The proxy's working directory (the server inherits it). */
  cwd?: string;
}

/** Start `argspan mcp-proxy [options] -- <server…>` and connect the SDK's real Client to it over stdio. */
export async function startProxy(server: string[], start: StartOptions = {}): Promise<ProxyRun> {
  const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-'));
  const tracesDir = join(work, 'traces');
  const stateDir = join(work, 'state');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp-proxy', '--traces-dir', tracesDir, '--state-dir', stateDir, ...(start.options ?? []), '--', ...server],
    env: { ...getDefaultEnvironment(), ...start.env },
    stderr: 'pipe',
    ...(start.cwd !== undefined ? { cwd: start.cwd } : {}),
  });
  let stderr = '';
  transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const received: JSONRPCMessage[] = [];
  const client = new Client({ name: 'argspan-test-client', version: '9.8.7' }, start.capabilities);
  await client.connect(transport);
  const onmessage = transport.onmessage!;
  transport.onmessage = (m: JSONRPCMessage) => {
    received.push(m);
    onmessage(m);
  };
  const pid = transport.pid!;
  return {
    client,
    transport,
    received,
    stderr: () => stderr,
    pid,
    serverPid: async () => {
      for (let i = 0; i < 200; i++) {
        const m = /started \S+ \(pid (\d+)\)/.exec(stderr);
        if (m) return Number(m[1]);
        await sleep(25);
      }
      throw new Error('the proxy did not say which server it started');
    },
    tracesDir,
    stateDir,
    close: async () => {
      await client.close();
      await waitGone(pid);
    },
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a process with this pid exists (and is not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

/** Wait until `pid` is gone; throws after `ms`. */
export async function waitGone(pid: number, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > until) throw new Error(`process ${pid} is still running`);
    await sleep(25);
  }
}

/** A process's peak resident set (VmHWM) in bytes, from /proc. */
export function peakRss(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for ${pid}`);
  return Number(m[1]) * 1024;
}

/** A span as the file exporter wrote it, with its attributes as plain values. */
export interface FileSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string;
  attributes: Record<string, unknown>;
  links: { spanId: string; attributes: Record<string, unknown> }[];
  status?: { code?: number; message?: string };
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: OtlpValue[] } };
type OtlpKv = { key: string; value: OtlpValue };

function value(v: OtlpValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  return undefined;
}

function attrs(kvs: OtlpKv[] | undefined): Record<string, unknown> {
  return Object.fromEntries((kvs ?? []).map((kv) => [kv.key, value(kv.value)]));
}

/** Every span in the OTLP JSON-lines files under `dir`. */
export function readFileSpans(dir: string): FileSpan[] {
  if (!existsSync(dir)) return [];
  const spans: FileSpan[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const doc = JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: (Omit<FileSpan, 'attributes' | 'links'> & { attributes?: OtlpKv[]; links?: { spanId: string; attributes?: OtlpKv[] }[] })[] }[] }[] };
      for (const rs of doc.resourceSpans) {
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            spans.push({ ...s, attributes: attrs(s.attributes), links: (s.links ?? []).map((l) => ({ spanId: l.spanId, attributes: attrs(l.attributes) })) });
          }
        }
      }
    }
  }
  return spans;
}

/** Every file under `dir`, as text (for canary greps). */
export function allText(dir: string): string {
  if (!existsSync(dir)) return '';
  let out = '';
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += readFileSync(join(entry.parentPath ?? (entry as { path?: string }).path ?? dir, entry.name), 'latin1');
  }
  return out;
}

/** One line read by {@link RawJsonLines}: its size, hash, and its text when it is small. */
export interface RawLine {
  bytes: number;
  sha256: string;
  /** The whole line, when under 1 MiB. */
  text?: string;
}

/**
 * A lean JSON-lines reader for a process's stdout: each line is hashed as it arrives and only kept
 * whole when small, so a test can compare a 100 MB message byte for byte without holding it (the
 * SDK's own stdio reader re-copies its buffer on every chunk, which is quadratic in the message).
 */
export class RawJsonLines {
  private readonly lines: RawLine[] = [];
  private waiters: ((line: RawLine) => void)[] = [];
  private hash = createHash('sha256');
  private bytes = 0;
  private small: Buffer[] = [];

  constructor(stream: NodeJS.ReadableStream) {
    stream.on('data', (chunk: Buffer) => {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
        this.hash.update(piece);
        this.bytes += piece.length;
        if (this.bytes <= 1024 * 1024) this.small.push(piece);
        if (nl === -1) return;
        const line: RawLine = { bytes: this.bytes, sha256: this.hash.digest('hex') };
        if (this.bytes <= 1024 * 1024) line.text = Buffer.concat(this.small).toString('utf8');
        this.hash = createHash('sha256');
        this.bytes = 0;
        this.small = [];
        const waiter = this.waiters.shift();
        if (waiter) waiter(line);
        else this.lines.push(line);
        start = nl + 1;
      }
    });
  }

  next(): Promise<RawLine> {
    const line = this.lines.shift();
    return line ? Promise.resolve(line) : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** The text items of an MCP tool result, joined. */
export function resultText(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');
}

/** The tool spans of `tool`, in the order the calls started. */
export function toolSpans(spans: readonly FileSpan[], tool: string): FileSpan[] {
  return spans.filter((s) => s.name === toolCallSpanName(tool)).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
}

/** The argument spans of a tool span, by key. */
export function argSpansOf(spans: readonly FileSpan[], call: FileSpan): Record<string, FileSpan> {
  return Object.fromEntries(spans.filter((s) => s.parentSpanId === call.spanId).map((s) => [String(s.attributes[ArgAttributes.KEY]), s]));
}
