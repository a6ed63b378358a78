// A user's agent, installed from argspan's tarballs into a project of its own: its own
// NodeTracerProvider (argspan's file exporter for spans on disk), plain instrumented dispatch,
// and an MCP client in front of the real filesystem server. Prints one JSON line per outcome.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FileSpanExporter } from '@argspan/setup';
import { ArgspanClarificationError, ArgspanRefusedError, ArgspanSession, instrumentDispatch, runAgentTurn } from '@argspan/instrumentation';
import { instrumentMcpClient } from '@argspan/adapters/mcp';

const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FileSpanExporter({ directory: 'traces' }))] });
provider.register();

const say = (o) => console.log(JSON.stringify(o));
const outcome = async (name, fn) => {
  try {
    await fn();
    say({ name, outcome: 'ran' });
  } catch (err) {
    if (err instanceof ArgspanClarificationError) say({ name, outcome: 'held', question: err.question });
    else if (err instanceof ArgspanRefusedError) say({ name, outcome: 'denied', enforcement: err.enforcement });
    else throw err;
  }
};

const workspace = join(process.cwd(), 'workspace');
mkdirSync(workspace, { recursive: true });
writeFileSync(join(workspace, 'notes.md'), '# notes\nship on Friday\n');
writeFileSync(join(workspace, '.env'), 'DATABASE_PASSWORD=hunter2-install-canary\n');

const session = new ArgspanSession({ conversationId: 'install-thread', userText: 'Book a follow-up with Priya tomorrow morning, then read my notes' });
const dispatch = instrumentDispatch(async () => ({ ok: true }), { session });

const client = instrumentMcpClient(new Client({ name: 'install-agent', version: '1.0.0' }), { session });
await client.connect(new StdioClientTransport({
  command: process.execPath,
  args: [join('node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), workspace],
  stderr: 'ignore',
}));

await runAgentTurn(async () => {
  await outcome('calendar.create', () => dispatch('calendar.create', { title: 'Follow-up with Priya', when: 'tomorrow morning', timezone: 'UTC' }, { callId: 'call_1' }));
  await outcome('read notes', () => client.callTool({ name: 'read_text_file', arguments: { path: join(workspace, 'notes.md') } }));
  await outcome('read .env', () => client.callTool({ name: 'read_text_file', arguments: { path: join(workspace, '.env') } }));
}, { agentName: 'install-agent', session });

await client.close();
await provider.shutdown();
