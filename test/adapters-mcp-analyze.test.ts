/**
 * The MCP adapter's spans meet the analyzer: scene 1 (the config-parser tidy-up whose third call
 * bundles `.env`) against the real filesystem server, written by the file exporter, then analyzed.
 */
import { readdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '@argspan/analyzer';
import { readDirtySet } from '@argspan/core';
import { ArgspanRefusedError, ArgspanSession } from '@argspan/instrumentation';
import { FileSpanExporter } from '@argspan/setup';
import { instrumentMcpClient } from '@argspan/adapters/mcp';
import { inTurn, makeCanaryRepo, memoryTracing } from '../packages/adapters/test-support/fixtures.js';

const serverBin = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const repo = makeCanaryRepo();
const out = mkdtempSync(join(tmpdir(), 'argspan-adapters-traces-'));
afterAll(() => {
  repo.remove();
  rmSync(out, { recursive: true, force: true });
});

describe('MCP adapter → file exporter → analyzer', () => {
  it('records the tidy-up with .env kept local, and the analyzer finds no leak', async () => {
    memoryTracing(); // installs the AsyncLocalStorage context manager, so tool spans nest under the turn
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FileSpanExporter({ directory: join(out, 'traces') }))] });
    const client = instrumentMcpClient(new Client({ name: 'tidy-up-agent', version: '0.0.0' }), {
      tracerProvider: provider,
      hashKey: new Uint8Array(32).fill(11),
      session: new ArgspanSession({ runId: 'run-tidy-up', userText: 'Tidy up the config parser and get it reviewed' }),
      policy: { dirty: await readDirtySet(repo.root) },
      toolName: (n) => `fs.${n}`,
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverBin, repo.root], cwd: repo.root, stderr: 'pipe' }));
    try {
      await inTurn(provider, async () => {
        await client.callTool({ name: 'read_text_file', arguments: { path: 'src/parser.py' } }, undefined, { argspan: { callId: 'call_1' } });
        await client.callTool({ name: 'read_text_file', arguments: { path: 'src/config.py' } }, undefined, { argspan: { callId: 'call_2' } });
        const err = await client
          .callTool({ name: 'read_multiple_files', arguments: { paths: ['src/parser.py', 'src/config.py', '.env'] } }, undefined, { argspan: { callId: 'call_3' } })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ArgspanRefusedError);
      });
    } finally {
      await client.close();
      await provider.forceFlush();
      await provider.shutdown();
    }

    const files = readdirSync(join(out, 'traces'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(out, 'traces', f), 'utf8')).not.toContain(repo.canary);

    const result = await analyze({ paths: [join(out, 'traces')] });
    expect(result.stats.malformed_lines).toBe(0);
    expect(result.stats.spans).toBe(1 + 3 + 1 + 1 + 3); // turn + 3 tool spans + their argument spans
    expect(result.findings.map((f) => `${f.rule} ${f.tool} ${f.key}`)).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(repo.canary);
  });
});
