/**
 * `npm run bench:adapters` — what the MCP adapter adds to a real tool call, in one process: two
 * `@modelcontextprotocol/server-filesystem` processes over stdio on the same temporary directory,
 * one reached through a bare SDK `Client`, one through `instrumentMcpClient` (classify + gate + a
 * span per call and per argument, into a tracer provider with no exporter). Calls alternate between
 * the two so both see the same machine load. Prints the median round trip of each and the ratio.
 * Then the adapter layer alone (the learned-schema table) against the plain
 * `ArgspanInstrumentation` on the same in-process call, alternating, median per call.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { ArgspanInstrumentation, ArgspanSession } from '@argspan/instrumentation';
import type { ArgspanInstrumentationConfig } from '@argspan/instrumentation';
import { gatedInstrumentation } from '../shared/gated-instrumentation.js';
import { instrumentMcpClient } from '../mcp/index.js';

const CALLS = 400;
const WARMUP = 40;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'argspan-bench-'));
  writeFileSync(join(dir, 'parser.py'), 'def parse(text):\n    return dict(l.split("=", 1) for l in text.splitlines() if "=" in l)\n');
  const bin = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  const transport = () => new StdioClientTransport({ command: process.execPath, args: [bin, dir], cwd: dir, stderr: 'ignore' });
  const bare = new Client({ name: 'bench-bare', version: '0.0.0' });
  const wrapped = instrumentMcpClient(new Client({ name: 'bench-argspan', version: '0.0.0' }), {
    tracerProvider: new BasicTracerProvider(),
    hashKey: new Uint8Array(32).fill(1),
    session: new ArgspanSession({ userText: 'Tidy up the config parser' }),
  });
  await bare.connect(transport());
  await wrapped.connect(transport());
  try {
    const params = { name: 'read_text_file', arguments: { path: 'parser.py', head: 2 } };
    const times = { bare: [] as number[], argspan: [] as number[] };
    for (let i = 0; i < WARMUP + CALLS; i++) {
      for (const [name, client] of [['bare', bare], ['argspan', wrapped]] as const) {
        const t0 = performance.now();
        await client.callTool(params);
        if (i >= WARMUP) times[name].push(performance.now() - t0);
      }
    }
    const b = median(times.bare);
    const a = median(times.argspan);
    console.log(`mcp read_text_file over stdio, median of ${CALLS}: bare ${(b * 1000).toFixed(0)} µs, argspan ${(a * 1000).toFixed(0)} µs`);
    console.log(`ratio argspan/bare ${(a / b).toFixed(2)}x (overhead ${((a - b) * 1000).toFixed(0)} µs per call)`);
  } finally {
    await bare.close();
    await wrapped.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The adapter's own layer: gatedInstrumentation vs the plain instrumentation, same call, alternating. */
async function layer(): Promise<void> {
  const config = (): ArgspanInstrumentationConfig => ({
    tracerProvider: new BasicTracerProvider(),
    hashKey: new Uint8Array(32).fill(1),
    session: new ArgspanSession({ userText: 'Tidy up the config parser' }),
  });
  const plain = new ArgspanInstrumentation(config());
  const gated = gatedInstrumentation(config()).instrumentation;
  const args = { path: 'src/parser.py', head: 2 };
  const result = { content: [{ type: 'text', text: 'def parse(text): ...' }] };
  const times = { plain: [] as number[], gated: [] as number[] };
  const n = 4000;
  for (let i = 0; i < n + 400; i++) {
    for (const [name, inst] of [['plain', plain], ['gated', gated]] as const) {
      const t0 = performance.now();
      await inst.call('read_text_file', args, undefined, () => result);
      if (i >= 400) times[name].push(performance.now() - t0);
    }
  }
  const p = median(times.plain);
  const g = median(times.gated);
  console.log(`in-process call, median of ${n}: instrumentation ${(p * 1000).toFixed(0)} µs, with the adapter layer ${(g * 1000).toFixed(0)} µs`);
  console.log(`ratio adapter/instrumentation ${(g / p).toFixed(2)}x`);
}

await main();
await layer();
