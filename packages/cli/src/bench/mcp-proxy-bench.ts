/**
 * `npm run bench:mcp-proxy` — what `argspan mcp-proxy` adds to a tools/call, in one run: the same
 * small SDK server (`bench-mcp-server.js`, a 9-leaf `calendar_create`) reached by the SDK's Client
 * over stdio directly, and through the built proxy (a real child process: relay, classification,
 * gate, 10 spans per call into its embedded file exporter). Calls are interleaved in chunks of 100
 * so both kinds see the same machine load; prints the median per-call time of each, the added time
 * (target <= 1 ms), and the median and interquartile range of the per-chunk added time. Then the
 * proxy's memory across 2 x 1,000 more calls: resident set (/proc) and V8 heap (Node's diagnostic
 * report, taken on SIGUSR2), so growth per call shows as a trend.
 * Environment: BENCH_CALLS (per kind, default 2000), BENCH_MEMORY_CALLS (default 1000),
 * BENCH_PROXY_NODE_ARGS (extra node options for the proxy process, e.g. `--cpu-prof`).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const MEMORY_CALLS = Number(process.env.BENCH_MEMORY_CALLS ?? 1000);
const CHUNK = 100;
const WARMUP = 200;

const SERVER = fileURLToPath(new URL('./bench-mcp-server.js', import.meta.url));
const CLI = fileURLToPath(new URL('../../bin/argspan.js', import.meta.url));

/** The 9-leaf call: title, start, end, location, notes, and two attendees' name and email. */
const CALL = {
  name: 'calendar_create',
  arguments: {
    title: 'Q3 planning sync',
    start: '2026-09-14T09:00:00+02:00',
    end: '2026-09-14T09:30:00+02:00',
    location: 'Room 4.12',
    notes: 'Bring the draft roadmap.',
    attendees: [
      { name: 'Kenji Watanabe', email: 'kenji@example.com' },
      { name: 'Priya Raman', email: 'priya@example.com' },
    ],
  },
};

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const us = (ms: number) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

async function timeCalls(client: Client, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await client.callTool(CALL);
    into.push(performance.now() - t0);
  }
}

function residentSet(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** The proxy's V8 heap from a diagnostic report it writes on SIGUSR2. */
async function heapUsed(pid: number, dir: string): Promise<number> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 400; i++) {
    const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.json'));
    if (file) {
      try {
        const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { javascriptHeap: { usedMemory: number } };
        return report.javascriptHeap.usedMemory;
      } catch {
        // still being written
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the proxy wrote no diagnostic report');
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'argspan-bench-mcp-proxy-'));
  const reports = join(work, 'reports');
  mkdirSync(reports);
  const direct = new Client({ name: 'bench-direct', version: '1.0.0' });
  const proxied = new Client({ name: 'bench-proxied', version: '1.0.0' });
  const proxyTransport = new StdioClientTransport({
    command: process.execPath,
    args: [...(process.env.BENCH_PROXY_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${reports}`, CLI, 'mcp-proxy', '--traces-dir', join(work, 'traces'), '--state-dir', join(work, 'state'), '--', process.execPath, SERVER],
    stderr: 'ignore',
  });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'ignore' }));
  await proxied.connect(proxyTransport);
  const pid = proxyTransport.pid!;
  try {
    await direct.listTools();
    await proxied.listTools();
    console.log(`mcp-proxy bench: 9-leaf calendar_create over stdio, ${CALLS} calls per kind in chunks of ${CHUNK}, after ${WARMUP} warm-up calls each`);
    console.log(`load average before: ${load()}`);
    await timeCalls(direct, WARMUP, []);
    await timeCalls(proxied, WARMUP, []);
    const times = { direct: [] as number[], proxy: [] as number[] };
    const added: number[] = [];
    for (let c = 0; c < CALLS / CHUNK; c++) {
      const d: number[] = [];
      const p: number[] = [];
      // Alternate which kind goes first, so neither always runs on a warmer (or busier) machine.
      if (c % 2 === 0) {
        await timeCalls(direct, CHUNK, d);
        await timeCalls(proxied, CHUNK, p);
      } else {
        await timeCalls(proxied, CHUNK, p);
        await timeCalls(direct, CHUNK, d);
      }
      times.direct.push(...d);
      times.proxy.push(...p);
      added.push(quantile(p, 0.5) - quantile(d, 0.5));
    }
    const md = quantile(times.direct, 0.5);
    const mp = quantile(times.proxy, 0.5);
    console.log(`  direct to the server     ${us(md)} per call (median)`);
    console.log(`  through argspan mcp-proxy ${us(mp)} per call (median)`);
    console.log(`  added by the proxy        ${us(mp - md)} per call (median; target <= 1000 µs)`);
    console.log(`  added per chunk of ${CHUNK}     median ${us(quantile(added, 0.5))}, interquartile ${us(quantile(added, 0.25))} .. ${us(quantile(added, 0.75))}`);
    console.log(`load average after: ${load()}`);

    const memory: string[] = [];
    const sample = async (label: string) => memory.push(`  ${label.padEnd(22)} RSS ${mib(residentSet(pid)).padStart(10)}   heap used ${mib(await heapUsed(pid, reports)).padStart(10)}`);
    await sample('before');
    await timeCalls(proxied, MEMORY_CALLS, []);
    await sample(`after ${MEMORY_CALLS} calls`);
    await timeCalls(proxied, MEMORY_CALLS, []);
    await sample(`after ${2 * MEMORY_CALLS} calls`);
    console.log(`memory of the proxy process over ${2 * MEMORY_CALLS} more calls (heap used includes garbage not yet collected):`);
    for (const line of memory) console.log(line);
  } finally {
    await direct.close();
    await proxied.close();
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}

await main();
