#!/usr/bin/env node
// A small real MCP server (the official SDK over stdio) with what server-filesystem does not have:
// resources, resource templates, prompts, logging, progress, cancellation, a server-to-client
// request (elicitation), a crash, and tools for the no-evidence gate. Each event the proxy must
// pass on is appended to $FIXTURE_EVENTS (one JSON line) so a test can see what the server saw.
import { appendFileSync } from 'node:fs';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const events = process.env.FIXTURE_EVENTS;
const note = (event) => {
  if (events) appendFileSync(events, JSON.stringify(event) + '\n');
};
// The bytes the server receives, as they come (what a server whose JSON parser differs would read).
const rawLines = process.env.FIXTURE_RAW_INPUT;
if (rawLines) process.stdin.on('data', (chunk) => appendFileSync(rawLines, chunk));

const server = new McpServer({ name: 'argspan-fixture-server', version: '3.1.4' }, { capabilities: { logging: {} } });

server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } }, async ({ text }) => {
  note({ tool: 'echo' });
  return { content: [{ type: 'text', text }] };
});

server.registerTool('fail', { inputSchema: { why: z.string() } }, async () => ({ isError: true, content: [{ type: 'text', text: 'the tool failed on purpose' }] }));

server.registerTool('lookup_contact', { inputSchema: { name: z.string() } }, async ({ name }) => {
  note({ tool: 'lookup_contact' });
  return { content: [{ type: 'text', text: `${name}: maria.lopez@example.com` }] };
});

server.registerTool(
  'send_email',
  { description: 'Send an email.', inputSchema: { to: z.string(), subject: z.string(), body: z.string().optional() } },
  async ({ subject }) => {
    note({ tool: 'send_email', subject });
    return { content: [{ type: 'text', text: 'sent' }] };
  },
);

server.registerTool('count', { inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= steps; i++) {
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
  }
  await server.sendLoggingMessage({ level: 'info', data: `counted to ${steps}` });
  return { content: [{ type: 'text', text: `counted ${steps}` }] };
});

server.registerTool('wait_for_cancel', { inputSchema: { label: z.string() } }, async ({ label }, extra) => {
  note({ tool: 'wait_for_cancel', phase: 'started', label });
  await new Promise((resolve) => {
    if (extra.signal.aborted) return resolve();
    extra.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  note({ tool: 'wait_for_cancel', phase: 'cancelled', label });
  return { content: [{ type: 'text', text: 'cancelled' }] };
});

server.registerTool('ask_user', { inputSchema: { topic: z.string() } }, async ({ topic }) => {
  const answer = await server.server.elicitInput({
    message: `Which colour for ${topic}?`,
    requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
  });
  return { content: [{ type: 'text', text: `${answer.action}: ${answer.content?.colour ?? ''}` }] };
});

server.registerTool('crash', { inputSchema: { code: z.number() } }, async ({ code }) => {
  // (and a private key logged over several lines, none of which holds a credential shape alone)
  if (process.env.FIXTURE_STDERR_PEM) process.stderr.write(`loaded the deploy key: ${process.env.FIXTURE_STDERR_PEM}and carried on\n`);
  process.stderr.write(`fixture server crashing on purpose; token ${process.env.FIXTURE_STDERR_CANARY ?? ''}\n`);
  process.exit(code);
});

server.registerTool('big_text', { inputSchema: { bytes: z.number() } }, async ({ bytes }) => {
  const line = 'The quick brown fox jumps over the lazy dog. "quoted" and \\ backslash.\n';
  return { content: [{ type: 'text', text: line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes) + '\nEND-MARKER-42' }] };
});

server.registerResource('notes', 'fixture://notes', { description: 'Project notes', mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, text: 'Release on Thursday.' }],
}));

server.registerResource(
  'ticket',
  new ResourceTemplate('fixture://tickets/{id}', { list: undefined }),
  { description: 'A ticket by id' },
  async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `Ticket ${id}: fix the parser` }] }),
);

server.registerPrompt('review', { description: 'Review a file', argsSchema: { file: z.string() } }, async ({ file }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Please review ${file}.` } }],
}));

await server.connect(new StdioServerTransport());
process.stderr.write('argspan fixture server ready\n');
