/**
 * Residency follows the value, end to end: the real filesystem MCP server reads `.env` (allowed
 * locally by the policy), the model copies a password that does not look like a credential into
 * a later call to a remote-allowlisted tool. With the gate on, the call never leaves the machine
 * and its span says why; with the gate switched off (audit mode), the analyzer's lineage rule
 * reports it. The password is grepped for in every output.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { analyze } from '@argspan/analyzer';
import { ArgAttributes, CallAttributes } from '@argspan/conventions';
import { readDirtySet } from '@argspan/core';
import { createHopRunner, createHttpSender, createRemoteHop } from '@argspan/hop';
import { ArgspanRefusedError, ArgspanSession, instrumentDispatch } from '@argspan/instrumentation';
import type { ArgspanInstrumentationConfig } from '@argspan/instrumentation';
import { FileSpanExporter } from '@argspan/setup';
import { instrumentMcpClient } from '@argspan/adapters/mcp';
import { inTurn, makeCanaryRepo, memoryTracing } from '../packages/adapters/test-support/fixtures.js';
import { startIdempotentServer } from '../packages/hop/src/testing/idempotent-server.js';

const PASSWORD = 'correct-horse-battery-staple-42';
const serverBin = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const repo = makeCanaryRepo();
writeFileSync(join(repo.root, '.env'), `OPENAI_API_KEY=${repo.canary}\nDB_USER=reporting\nDB_PASSWORD=${PASSWORD}\nTZ=UTC\n`);
const out = mkdtempSync(join(tmpdir(), 'argspan-inherit-'));
afterAll(() => {
  repo.remove();
  rmSync(out, { recursive: true, force: true });
});

/** The .env read allowed locally (model on this machine); `summarize_docs` may go remote and runs off this machine. */
const policy = { denyResidencies: [], remoteAllowlist: ['summarize_docs'], remoteTools: ['summarize_docs'] } as const;
const bulkyDoc = 'Quarterly report, public edition. '.repeat(400);

/** One agent run: read `.env` through the real server, then copy the password into summarize_docs. */
async function runAgent(name: string, extra: Partial<ArgspanInstrumentationConfig>, summarize: (tool: string, args: unknown) => unknown) {
  memoryTracing();
  const dir = join(out, name);
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FileSpanExporter({ directory: dir }))] });
  const session = new ArgspanSession({ runId: `run-${name}`, userText: 'Summarise the quarterly report for the board' });
  const config = { tracerProvider: provider, hashKey: new Uint8Array(32).fill(5), session, ...extra };
  const dirty = await readDirtySet(repo.root);
  const client = instrumentMcpClient(new Client({ name: 'report-agent', version: '0.0.0' }), { ...config, policy: { ...policy, dirty }, toolName: (n) => `fs.${n}` });
  const dispatch = instrumentDispatch(summarize, { ...config, policy: { ...policy, ...extra.policy } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverBin, repo.root], cwd: repo.root, stderr: 'pipe' }));
  let outcome: unknown;
  try {
    await inTurn(provider, async () => {
      const env = await client.callTool({ name: 'read_text_file', arguments: { path: '.env' } }, undefined, { argspan: { callId: 'call_env' } });
      expect(JSON.stringify(env)).toContain(PASSWORD); // the model saw it
      outcome = await Promise.resolve(dispatch('summarize_docs', { doc: bulkyDoc, note: PASSWORD }, { callId: 'call_sum' })).catch((e: unknown) => e);
    });
  } finally {
    await client.close();
    await provider.forceFlush();
    await provider.shutdown();
  }
  const files = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
  const spans = files.flatMap((t) => t.split('\n').filter((l) => l !== '').flatMap((l) => JSON.parse(l).resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans))));
  return { outcome, dir, files, spans };
}

const attr = (span: any, key: string) => {
  const a = span.attributes.find((x: any) => x.key === key)?.value;
  return a?.stringValue ?? a?.boolValue ?? a?.intValue;
};

describe('a value copied from a secret source keeps its residency', () => {
  it('gate on: the call to the remote tool is refused, and its spans say why without the value', async () => {
    const summarize = vi.fn(() => 'summary');
    const { outcome, files, spans } = await runAgent('gate-on', {}, summarize);
    expect(outcome).toBeInstanceOf(ArgspanRefusedError);
    expect(summarize).not.toHaveBeenCalled();
    const call = spans.find((s: any) => s.name === 'execute_tool summarize_docs');
    expect(attr(call, CallAttributes.RESIDENCY)).toBe('secret');
    expect(attr(call, CallAttributes.ENFORCEMENT)).toBe('deny');
    expect(attr(call, CallAttributes.VERDICT_REASON)).toBe(
      'secret argument stays local (rule inherited-secret at note, copied from the result of call call_env)',
    );
    const note = spans.find((s: any) => s.name === 'tool_arg note');
    expect(attr(note, ArgAttributes.RULE)).toBe('inherited-secret');
    expect(attr(note, ArgAttributes.SOURCE_CALL_ID)).toBe('call_env');
    for (const f of files) {
      expect(f).not.toContain(PASSWORD);
      expect(f).not.toContain(repo.canary);
    }
    const result = await analyze({ paths: [join(out, 'gate-on')] });
    expect(result.findings.filter((f) => f.severity === 'critical')).toEqual([]);
  });

  it('gate on with a remote hop: the call is kept local, and nothing reaches the hop, its state or the wire', async () => {
    const server = await startIdempotentServer();
    const stateDir = mkdtempSync(join(tmpdir(), 'argspan-inherit-hop-'));
    try {
      const runner = createHopRunner({ stateDir, runId: 'inherit', probe: { host: '127.0.0.1', port: server.port, timeoutMs: 5000 } });
      const remote = vi.fn(createRemoteHop(runner, { send: createHttpSender({ url: server.url }) }));
      const summarize = vi.fn(() => 'summary made here');
      // Not a remote tool this time: it runs here unless the gate lets it hop.
      const { outcome, spans } = await runAgent('gate-on-hop', { remote, policy: { remoteTools: [] } }, summarize);
      expect(outcome).toBe('summary made here');
      expect(remote).not.toHaveBeenCalled();
      expect(server.received).toHaveLength(0);
      const call = spans.find((s: any) => s.name === 'execute_tool summarize_docs');
      expect(attr(call, CallAttributes.VERDICT)).toBe('local');
      expect(attr(call, CallAttributes.HOP_REMOTE)).toBe(false);
      for (const f of readdirSync(stateDir, { recursive: true }) as string[]) {
        try {
          expect(readFileSync(join(stateDir, f), 'utf8')).not.toContain(PASSWORD);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EISDIR') throw e;
        }
      }
    } finally {
      await server.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('gate off (audit mode): the call runs, and the analyzer reports the lineage as critical', async () => {
    const summarize = vi.fn(() => 'summary');
    const { outcome, files } = await runAgent('gate-off', { enforce: false }, summarize);
    expect(outcome).toBe('summary');
    expect(summarize).toHaveBeenCalledOnce();
    for (const f of files) expect(f).not.toContain(PASSWORD);
    const result = await analyze({ paths: [join(out, 'gate-off')] });
    const lineage = result.findings.filter((f) => f.rule === 'inherited_value_sent_remote');
    expect(lineage).toHaveLength(1);
    expect(lineage[0]).toMatchObject({ severity: 'critical', tool: 'summarize_docs', key: 'note' });
    expect(lineage[0]!.message).toMatch(/copied from the result of fs\.read_text_file \(span [0-9a-f]{16}, call call_env\), a secret source \(rule inherited-secret\)/);
    // The audit trail also says the policy would have denied it; the own-shape rule stays quiet.
    expect(result.findings.map((f) => f.rule)).toContain('held_call_dispatched');
    expect(result.findings.map((f) => f.rule)).not.toContain('sensitive_arg_sent_remote');
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
  });
});

