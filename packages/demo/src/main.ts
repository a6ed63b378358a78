/**
 * `npm run demo` — the three incidents argspan exists for, replayed by a scripted agent (no LLM)
 * against real components on loopback, traced with the embedded file exporter into
 * `traces/demo/`, then audited with `argspan analyze`:
 *
 *   1. the config-parser tidy-up whose third call bundles `.env` — through the real MCP
 *      filesystem server; refused before the server sees it;
 *   2. "Book a follow-up with Priya tomorrow morning", where the model adds `timezone: UTC` —
 *      one clarifying question instead of a wrong invite;
 *   3. the café outage — a remote overflow hop to a loopback model server that dies mid-flight;
 *      the agent process is killed; on restart it replays from its checkpoint and the server
 *      performs exactly one side effect for that idempotency key.
 *
 * Leaves nothing running: every child process is stopped and temporary folders are removed.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, trace } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { analyze, reporters } from '@argspan/analyzer';
import { instrumentMcpClient } from '@argspan/adapters/mcp';
import { readDirtySet } from '@argspan/core';
import { ArgspanClarificationError, ArgspanGateError, ArgspanInstrumentation, ArgspanSession } from '@argspan/instrumentation';
import { setupTracing, type TracingHandle } from '@argspan/setup';
import { runCafeOutage } from './cafe-outage.js';
import { DEMO_CANARY, makeDemoRepo } from './workspace.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

type Out = (line?: string) => void;

function outcome(err: unknown): string {
  if (err instanceof ArgspanClarificationError) return `asked: ${err.question}`;
  if (err instanceof ArgspanGateError) return `${err.name}: ${err.message}`;
  return err instanceof Error ? `error: ${err.name}` : 'error';
}

/** Scene 1: the real MCP filesystem server over stdio, behind the argspan MCP adapter. */
async function configTidyUp(repo: string, hashKey: Buffer, out: Out): Promise<void> {
  out('1. Config-parser tidy-up through the real MCP filesystem server (the third call bundles .env)');
  const serverBin = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  const session = new ArgspanSession({ runId: 'demo-config-tidy-up', userText: 'Tidy up the config parser and get it reviewed' });
  const dirty = await readDirtySet(repo);
  const client = instrumentMcpClient(new Client({ name: 'argspan-demo-agent', version: '0.1.0' }), {
    session,
    hashKey,
    policy: dirty ? { dirty } : {},
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverBin, repo], cwd: repo, stderr: 'ignore' }));
  const calls: [string, Record<string, unknown>][] = [
    ['read_text_file', { path: join(repo, 'src/parser.py') }],
    ['read_text_file', { path: join(repo, 'src/config.py') }],
    ['read_multiple_files', { paths: [join(repo, 'src/parser.py'), join(repo, 'src/config.py'), join(repo, '.env')] }],
  ];
  try {
    for (const [i, [name, args]] of calls.entries()) {
      const label = `   call ${i + 1} ${name}`;
      try {
        await client.callTool({ name, arguments: args }, undefined, { argspan: { callId: `call_fs_${i + 1}` } });
        out(`${label}: ran on the local MCP server`);
      } catch (err) {
        out(`${label}: ${outcome(err)}`);
      }
    }
  } finally {
    await client.close();
  }
}

/** Scene 2: a calendar tool behind `instrumentDispatch`; the model guessed the timezone. */
async function followUpInvite(hashKey: Buffer, out: Out): Promise<void> {
  out('2. "Book a follow-up with Priya tomorrow morning" (the model adds timezone: UTC)');
  const session = new ArgspanSession({ runId: 'demo-follow-up', userText: 'Book a follow-up with Priya tomorrow morning' });
  const invites: unknown[] = [];
  const tools: Record<string, (args: Record<string, unknown>) => unknown> = {
    'contacts.lookup': () => ({ name: 'Priya Raman', email: 'priya.raman@example.com', office: 'London' }),
    'calendar.create': (args) => (invites.push(args), { id: `evt_${invites.length}` }),
  };
  const dispatch = new ArgspanInstrumentation({ session, hashKey }).wrapDispatch((tool, args) => tools[tool]!(args as Record<string, unknown>));
  await dispatch('contacts.lookup', { name: 'Priya' }, { callId: 'call_contacts_1' });
  const invite = { title: 'Follow-up with Priya', attendee: { name: 'Priya', email: 'priya.raman@example.com' }, when: 'tomorrow morning', timezone: 'UTC' };
  try {
    await dispatch('calendar.create', invite, { callId: 'call_calendar_1' });
    out('   calendar.create ran (unexpected)');
  } catch (err) {
    out(`   calendar.create: ${outcome(err)}`);
  }
  out(`   invites sent so far: ${invites.length}`);
  session.addUserText('Use Europe/London');
  await dispatch('calendar.create', { ...invite, timezone: 'Europe/London' }, { callId: 'call_calendar_2' });
  out(`   the user answered "Europe/London"; calendar.create ran; invites sent: ${invites.length}`);
}

async function runInTurn(tracing: TracingHandle, name: string, fn: () => Promise<void>): Promise<void> {
  const turn = tracing.provider.getTracer('argspan-demo').startSpan(name);
  try {
    await context.with(trace.setSpan(context.active(), turn), fn);
  } finally {
    turn.end();
  }
}

export async function runDemo(write: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  const out: Out = (line = '') => write(`${line}\n`);
  const tracesDir = resolve(process.env.ARGSPAN_DEMO_TRACES ?? join(REPO_ROOT, 'traces', 'demo'));
  rmSync(tracesDir, { recursive: true, force: true });
  const hashKey = randomBytes(32);
  const tracing = setupTracing({
    serviceName: 'argspan-demo-agent',
    exporter: process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? 'both' : 'file',
    file: { directory: tracesDir, prefix: 'agent' },
  });
  const repo = makeDemoRepo();
  try {
    out('argspan demo: a scripted agent, real components on loopback, every tool call traced');
    out(`traces: ${tracesDir}${tracing.otlpUrl ? ` and ${tracing.otlpUrl}` : ''}`);
    out();
    await runInTurn(tracing, 'turn: tidy up the config parser', () => configTidyUp(repo, hashKey, out));
    out();
    await runInTurn(tracing, 'turn: book a follow-up with Priya', () => followUpInvite(hashKey, out));
    out();
    await runCafeOutage({ tracesDir, hashKey, out });
  } finally {
    await tracing.shutdown();
    rmSync(repo, { recursive: true, force: true });
  }

  out();
  // The first café agent was SIGKILLed by design, possibly mid-write: its file may end in a torn
  // line, which a plain run refuses (exit 2). --allow-partial analyses the rest and names what it skipped.
  out(`argspan analyze --allow-partial ${tracesDir}`);
  const result = await analyze({ paths: [tracesDir], remoteAllowlist: ['model.summarise'], allowPartial: true, overview: true });
  write(reporters.table(result));
  // The same run as a page (argspan analyze --html): beside the traces, which a directory walk
  // never reads back (it picks up *.json*, *.gz and *.zst).
  const htmlReport = join(tracesDir, 'report.html');
  writeFileSync(htmlReport, reporters.html(result));
  if (result.stats.skipped.length > 0) out('(the skipped line is the killed café agent\'s last export, torn by the SIGKILL.)');
  if (result.findings.some((f) => f.rule === 'incomplete_evidence')) {
    out('(incomplete_evidence is the first café agent: it was killed mid-hop, so its tool span never ended.)');
  }
  out(`HTML report of this run: ${htmlReport}`);
  const leaked = JSON.stringify(result).includes(DEMO_CANARY);
  out(leaked ? 'CANARY LEAKED into the analysis' : 'The .env canary appears in no span: argspan recorded rules, keys and keyed hashes, never values.');
  out(`View the traces: mkdir -p exports && ARGSPAN_UID=$(id -u) ARGSPAN_GID=$(id -g) docker compose up -d, then rerun with OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 and open http://localhost:16686`);
  return leaked ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  runDemo().then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      process.stderr.write(`demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
