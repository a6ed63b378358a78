/**
 * `argspan mcp-proxy` (the built CLI, a real child process) in front of the REAL
 * @modelcontextprotocol/server-filesystem, driven by the SDK's real Client over stdio, on a
 * temporary git repository with a `.env` canary. The same server without the proxy is the reference.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgAttributes, CallAttributes, GenAiAttributes, McpAttributes, OtelAttributes } from '@argspan/conventions';
import { makeCanary, makeCanaryRepo, type CanaryRepo } from '../packages/adapters/test-support/fixtures.js';
import { allText, argSpansOf, CLI_BIN, FILESYSTEM_SERVER, isAlive, peakRss, RawJsonLines, readFileSpans, resultText, startProxy, toolSpans, waitGone, type FileSpan, type ProxyRun } from './support/mcp-proxy.js';

describe('argspan mcp-proxy in front of the real filesystem server', () => {
  let repo: CanaryRepo;
  let proxy: ProxyRun;
  let direct: Client;
  let spans: FileSpan[];
  const secretArgument = makeCanary();
  const MEDIUM_BYTES = 3 * 1024 * 1024;

  beforeAll(async () => {
    repo = makeCanaryRepo();
    // Over the proxy's 1 MiB stream threshold, with quotes, backslashes and non-ASCII text to escape.
    const line = 'Parser vectors: "quoted", back\\slash, café ☕, tab\t.\n';
    writeFileSync(join(repo.root, 'medium.txt'), line.repeat(Math.ceil(MEDIUM_BYTES / line.length)).slice(0, MEDIUM_BYTES));
    proxy = await startProxy([process.execPath, FILESYSTEM_SERVER, repo.root], { cwd: repo.root });
    const transport = new StdioClientTransport({ command: process.execPath, args: [FILESYSTEM_SERVER, repo.root], stderr: 'pipe', cwd: repo.root });
    direct = new Client({ name: 'argspan-test-client', version: '9.8.7' });
    await direct.connect(transport);
  });

  afterAll(async () => {
    await direct?.close();
    if (proxy && isAlive(proxy.pid)) await proxy.close();
    proxy?.remove();
    repo?.remove();
  });

  it('relays initialize and tools/list exactly as the server answers them', async () => {
    expect(proxy.client.getServerVersion()).toEqual(direct.getServerVersion());
    expect(proxy.client.getServerCapabilities()).toEqual(direct.getServerCapabilities());
    expect(await proxy.client.listTools()).toEqual(await direct.listTools());
  });

  it('passes allowed calls through with the server\'s own result, and the server\'s errors unchanged', async () => {
    const read = { name: 'read_text_file', arguments: { path: join(repo.root, 'src/parser.py') } };
    expect(await proxy.client.callTool(read)).toEqual(await direct.callTool(read));
    // parser.py names its notes file: the model copies that path into the next call.
    const notes = { name: 'read_text_file', arguments: { path: repo.parserNotesPath } };
    expect(await proxy.client.callTool(notes)).toEqual(await direct.callTool(notes));
    const list = { name: 'list_directory', arguments: { path: repo.root } };
    expect(await proxy.client.callTool(list)).toEqual(await direct.callTool(list));
    // Outside the allowed directories: the server's own tool error comes back as it is.
    const outside = { name: 'read_text_file', arguments: { path: '/etc/hostname' } };
    const viaProxy = await proxy.client.callTool(outside);
    expect(viaProxy).toEqual(await direct.callTool(outside));
    expect(viaProxy.isError).toBe(true);
    // A tool the server does not have: its JSON-RPC error (or error result) comes back unchanged.
    const unknown = { name: 'no_such_tool', arguments: {} };
    const [a, b] = await Promise.allSettled([proxy.client.callTool(unknown), direct.callTool(unknown)]);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('holds a .env read: an MCP tool error naming the rule and key, never the file\'s content', async () => {
    const result = await proxy.client.callTool({ name: 'read_text_file', arguments: { path: join(repo.root, '.env') } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^argspan refused read_text_file: denied: secret argument stays local \(rule secret-file-name at path\)/);
    expect(resultText(result)).not.toContain(repo.canary);
    const many = await proxy.client.callTool({ name: 'read_multiple_files', arguments: { paths: [join(repo.root, 'src/config.py'), join(repo.root, '.env')] } });
    expect(resultText(many)).toContain('rule secret-file-name at paths[1]');
  });

  it('refuses a secret-bearing argument: the server never writes it', async () => {
    const target = join(repo.root, 'notes', 'key.txt');
    const result = await proxy.client.callTool({ name: 'write_file', arguments: { path: target, content: `OPENAI_API_KEY=${secretArgument}\n` } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('at content');
    expect(existsSync(target)).toBe(false);
  });

  it('relays a result larger than the stream threshold (streamed, not held) exactly as the server sent it', async () => {
    const read = { name: 'read_text_file', arguments: { path: join(repo.root, 'medium.txt') } };
    const viaProxy = await proxy.client.callTool(read);
    expect(viaProxy).toEqual(await direct.callTool(read));
    expect(resultText(viaProxy).length).toBe(MEDIUM_BYTES);
  });

  it('writes the spans the instrumentation writes, with the client and server from initialize, and nothing secret anywhere', async () => {
    const serverPid = await proxy.serverPid();
    await proxy.close();
    await waitGone(serverPid);
    spans = readFileSpans(proxy.tracesDir);

    const reads = toolSpans(spans, 'read_text_file');
    expect(reads.length).toBe(5);
    for (const s of [...reads, ...toolSpans(spans, 'write_file')]) {
      expect(s.attributes).toMatchObject({
        [GenAiAttributes.TOOL_NAME]: expect.any(String),
        [GenAiAttributes.TOOL_TYPE]: 'extension',
        [McpAttributes.CLIENT_NAME]: 'argspan-test-client',
        [McpAttributes.CLIENT_VERSION]: '9.8.7',
        [McpAttributes.SERVER_NAME]: direct.getServerVersion()!.name,
        [McpAttributes.SERVER_VERSION]: direct.getServerVersion()!.version,
        [McpAttributes.PROTOCOL_VERSION]: expect.any(String),
        [McpAttributes.REQUEST_ID]: expect.any(String),
      });
    }
    const env = reads.find((s) => s.attributes[CallAttributes.RESIDENCY] === 'secret')!;
    expect(env.attributes).toMatchObject({ [CallAttributes.ENFORCEMENT]: 'deny', [OtelAttributes.ERROR_TYPE]: 'ArgspanRefusedError' });
    expect(toolSpans(spans, 'write_file')[0]!.attributes[CallAttributes.ENFORCEMENT]).toBe('deny');
    // The proxy sees no user words: a path nobody gave before is no_evidence; one copied from a result is context_retrieved, linked.
    expect(argSpansOf(spans, reads[0]!)['path']!.attributes[ArgAttributes.PROVENANCE]).toBe('no_evidence');
    const notes = argSpansOf(spans, reads[1]!)['path']!;
    expect(notes.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
    expect(notes.links[0]!.spanId).toBe(reads[0]!.spanId);
    // The server's own isError result is recorded as a failed tool call.
    expect(reads.some((s) => s.attributes[OtelAttributes.ERROR_TYPE] === 'McpToolError')).toBe(true);

    for (const [where, content] of [
      ['traces', allText(proxy.tracesDir)],
      ['state dir', allText(proxy.stateDir)],
      ['proxy stderr', proxy.stderr()],
      ['messages to the client', JSON.stringify(proxy.received)],
    ] as const) {
      expect(content, where).not.toContain(repo.canary);
      expect(content, where).not.toContain(secretArgument);
    }
  });

  it('argspan analyze reads the proxy\'s spans unchanged', () => {
    const r = spawnSync(process.execPath, [CLI_BIN, 'analyze', proxy.tracesDir, '--format', 'json', '--fail-on', 'none'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { stats: Record<string, number>; findings: { rule: string }[] };
    expect(report.stats).toMatchObject({ spans: spans.length, malformed_lines: 0, duplicate_spans: 0 });
    // The proxy's evidence is consistent: no check rule fires, and nothing secret was dispatched.
    const rules = new Set(report.findings.map((f) => f.rule));
    for (const rule of ['invalid_argument_label', 'gate_without_inferred_leaf', 'stopwatch_missing', 'sensitive_arg_dispatched', 'held_call_dispatched', 'context_lineage_broken']) {
      expect(rules.has(rule), rule).toBe(false);
    }
    expect(r.stdout).not.toContain(repo.canary);
  });
});

describe('argspan mcp-proxy with a result far larger than the stream threshold', () => {
  it('relays a 48 MiB file read byte for byte as the server wrote it, its memory not growing with the message', async () => {
    const repo = makeCanaryRepo();
    const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-big-'));
    const children: ChildProcessWithoutNullStreams[] = [];
    try {
      const line = 'start-of-big docs/big-notes-7361.md; vectors: "quoted", back\\slash, café ☕.\n';
      writeFileSync(join(repo.root, 'big.txt'), line.repeat(Math.ceil((48 * 1024 * 1024) / line.length)));
      const exchange = async (command: string[], measure?: (pid: number) => void) => {
        const child = spawn(command[0]!, command.slice(1), { cwd: repo.root, stdio: ['pipe', 'pipe', 'pipe'] });
        children.push(child);
        const lines = new RawJsonLines(child.stdout);
        const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
        send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
        await lines.next();
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'src/parser.py' } } });
        await lines.next();
        measure?.(child.pid!);
        send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'big.txt' } } });
        const big = await lines.next();
        measure?.(child.pid!);
        // A value from the start of the streamed result, copied into the next call.
        send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'docs/big-notes-7361.md' } } });
        await lines.next();
        child.stdin.end();
        const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
        return { big, code };
      };
      const direct = await exchange([process.execPath, FILESYSTEM_SERVER, repo.root]);
      const peaks: number[] = [];
      const traces = join(work, 'traces');
      const viaProxy = await exchange([process.execPath, CLI_BIN, 'mcp-proxy', '--traces-dir', traces, '--state-dir', join(work, 'state'), '--', process.execPath, FILESYSTEM_SERVER, repo.root], (pid) =>
        peaks.push(peakRss(pid)),
      );
      const [before, after] = peaks as [number, number];
      expect(viaProxy.code).toBe(0);
      expect(viaProxy.big.bytes).toBeGreaterThan(96 * 1024 * 1024); // the text twice: content and structuredContent
      expect(viaProxy.big).toEqual(direct.big);
      // Held whole, the message (bytes, joined, decoded, parsed) would add several times its 96 MiB.
      // Streamed, what grows is bounded by the 1 MiB of text kept as provenance context (and its index).
      expect(after - before, `peak RSS grew by ${((after - before) / 1048576).toFixed(1)} MiB`).toBeLessThan(64 * 1024 * 1024);
      const spans = readFileSpans(traces);
      const reads = toolSpans(spans, 'read_text_file');
      expect(reads).toHaveLength(3);
      const copied = argSpansOf(spans, reads[2]!)['path']!;
      expect(copied.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
      expect(copied.links[0]!.spanId).toBe(reads[1]!.spanId);
    } finally {
      for (const c of children) c.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true });
      repo.remove();
    }
  }, 180_000);
});
