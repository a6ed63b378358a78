/**
 * The MCP adapter against a REAL @modelcontextprotocol/server-filesystem, spawned over stdio on a
 * temporary git repository with a `.env` canary and an uncommitted `src/config.py`.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ArgAttributes, CallAttributes, ErrorType, GenAiAttributes, OtelAttributes } from '@argspan/conventions';
import { readDirtySet } from '@argspan/core';
import { ArgspanRefusedError, ArgspanSession } from '@argspan/instrumentation';
import { instrumentMcpClient } from '@argspan/adapters/mcp';
import type { InstrumentedMcpClient, McpAdapterOptions } from '@argspan/adapters/mcp';
import { instrumentAiTools } from '@argspan/adapters/ai';
import { argSpans, inTurn, makeCanaryRepo, memoryTracing, spansText, toolSpan } from '../packages/adapters/test-support/fixtures.js';
import type { CanaryRepo } from '../packages/adapters/test-support/fixtures.js';

const serverBin = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const USER_TEXT = 'Tidy up the config parser and get it reviewed';

interface Connected {
  client: InstrumentedMcpClient<Client>;
  /** Every JSON-RPC message the client sent to the server process. */
  sent: JSONRPCMessage[];
}

/** Spawn the filesystem server on `repo` and connect an instrumented client that records what it sends. */
async function connect(repo: CanaryRepo, options: Parameters<typeof instrumentMcpClient>[1]): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverBin, repo.root], cwd: repo.root, stderr: 'pipe' });
  const sent: JSONRPCMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    sent.push(message);
    return send(message);
  };
  const client = instrumentMcpClient(new Client({ name: 'argspan-test-agent', version: '0.0.0' }), options);
  await client.connect(transport);
  return { client, sent };
}

/** The `tools/call` requests the server received. */
function toolCalls(sent: JSONRPCMessage[]): { name: string; arguments: unknown }[] {
  return sent
    .filter((m): m is JSONRPCMessage & { method: string; params: { name: string; arguments: unknown } } => 'method' in m && m.method === 'tools/call')
    .map((m) => ({ name: m.params.name, arguments: m.params.arguments }));
}

function text(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? '').join('\n');
}

describe('instrumentMcpClient with a real filesystem server over stdio', () => {
  let repo: CanaryRepo;
  const tracing = memoryTracing();
  let conn: Connected;
  let session: ArgspanSession;

  beforeAll(async () => {
    repo = makeCanaryRepo();
    session = new ArgspanSession({ runId: 'run-mcp', userText: USER_TEXT });
    conn = await connect(repo, {
      tracerProvider: tracing.provider,
      hashKey: new Uint8Array(32).fill(7),
      session,
      policy: { dirty: await readDirtySet(repo.root), remoteAllowlist: ['code.review'] },
    });
  });
  afterAll(async () => {
    await conn?.client.close();
    repo?.remove();
  });

  it('reads a committed file through the server and traces the call under its real tool name and call id', async () => {
    const { result, turn } = await inTurn(tracing.provider, () =>
      conn.client.callTool({ name: 'read_text_file', arguments: { path: 'src/parser.py' } }, undefined, { argspan: { callId: 'call_1' } }),
    );
    expect(text(result)).toContain('def parse(text)');
    const span = toolSpan(tracing.spans(), 'read_text_file', 'call_1');
    expect(span.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(span.attributes).toMatchObject({
      [GenAiAttributes.TOOL_NAME]: 'read_text_file',
      [GenAiAttributes.TOOL_CALL_ID]: 'call_1',
      [CallAttributes.RUN_ID]: 'run-mcp',
      [CallAttributes.RESIDENCY]: 'tiny-public',
      [CallAttributes.VERDICT]: 'refuse', // no remote hop for a tool outside the allowlist
      [CallAttributes.ENFORCEMENT]: 'run', // it runs here
      [CallAttributes.ARGS_COUNT]: 1,
    });
    const [arg] = argSpans(tracing.spans(), span);
    expect(arg?.attributes[ArgAttributes.KEY]).toBe('path');
    // listTools ran before the first call; the server then received exactly this call.
    expect(conn.sent.some((m) => 'method' in m && m.method === 'tools/list')).toBe(true);
    expect(toolCalls(conn.sent)).toEqual([{ name: 'read_text_file', arguments: { path: 'src/parser.py' } }]);
  });

  it('turns a tool result into provenance context: a path copied from it is context_retrieved and links to that call', async () => {
    await conn.client.callTool({ name: 'read_text_file', arguments: { path: repo.parserNotesPath } }, undefined, { argspan: { callId: 'call_2' } });
    const span = toolSpan(tracing.spans(), 'read_text_file', 'call_2');
    const [arg] = argSpans(tracing.spans(), span);
    expect(arg?.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
    expect(arg?.attributes[ArgAttributes.SOURCE_CALL_ID]).toBe('call_1');
    const source = toolSpan(tracing.spans(), 'read_text_file', 'call_1');
    expect(arg?.links.map((l) => l.context.spanId)).toEqual([source.spanContext().spanId]);
  });

  it('runs a dirty-tree read locally (the server is on this machine) and labels it dirty-tree', async () => {
    const result = await conn.client.callTool({ name: 'read_text_file', arguments: { path: 'src/config.py' } }, undefined, { argspan: { callId: 'call_3' } });
    expect(text(result)).toContain('RETRIES = 5');
    const span = toolSpan(tracing.spans(), 'read_text_file', 'call_3');
    expect(span.attributes[CallAttributes.RESIDENCY]).toBe('dirty-tree');
    expect(span.attributes[CallAttributes.VERDICT]).toBe('local');
    expect(argSpans(tracing.spans(), span)[0]?.attributes[ArgAttributes.RULE]).toBe('dirty-path');
  });

  it('keeps .env local: a call bundling it is refused before it reaches the server', async () => {
    const before = toolCalls(conn.sent).length;
    const err = await conn.client
      .callTool({ name: 'read_multiple_files', arguments: { paths: ['src/config.py', '.env'] } }, undefined, { argspan: { callId: 'call_4' } })
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ArgspanRefusedError);
    const refused = err as ArgspanRefusedError;
    expect(refused.residency).toBe('secret');
    expect(refused.callId).toBe('call_4');
    expect(refused.message).toContain('paths[1]');
    await expect(
      conn.client.callTool({ name: 'read_text_file', arguments: { path: '.env' } }, undefined, { argspan: { callId: 'call_5' } }),
    ).rejects.toBeInstanceOf(ArgspanRefusedError);
    expect(toolCalls(conn.sent).length).toBe(before);
    expect(JSON.stringify(conn.sent)).not.toContain('.env');

    const span = toolSpan(tracing.spans(), 'read_multiple_files', 'call_4');
    expect(span.attributes).toMatchObject({
      [CallAttributes.RESIDENCY]: 'secret',
      [CallAttributes.VERDICT]: 'local',
      [CallAttributes.ENFORCEMENT]: 'deny',
      [OtelAttributes.ERROR_TYPE]: ErrorType.REFUSED,
    });
    expect(String(span.attributes[CallAttributes.ENFORCEMENT_REASON])).toMatch(/^denied: secret argument stays local .*paths\[1\].*denyResidencies/);
    const args = argSpans(tracing.spans(), span);
    expect(args.map((a) => [a.attributes[ArgAttributes.KEY], a.attributes[ArgAttributes.RESIDENCY]])).toEqual([
      ['paths[0]', 'dirty-tree'],
      ['paths[1]', 'secret'],
    ]);
  });

  it('refuses a write whose content carries the secret value: nothing is written, no span holds it', async () => {
    const before = toolCalls(conn.sent).length;
    const err = await conn.client
      .callTool({ name: 'write_file', arguments: { path: 'notes.txt', content: `key for later: OPENAI_API_KEY=${repo.canary}` } }, undefined, { argspan: { callId: 'call_w' } })
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ArgspanRefusedError);
    expect((err as Error).message).not.toContain(repo.canary);
    expect(existsSync(join(repo.root, 'notes.txt'))).toBe(false);
    expect(toolCalls(conn.sent).length).toBe(before);
    const span = toolSpan(tracing.spans(), 'write_file', 'call_w');
    const content = argSpans(tracing.spans(), span).find((a) => a.attributes[ArgAttributes.KEY] === 'content');
    expect(content?.attributes[ArgAttributes.RESIDENCY]).toBe('secret');
  });

  it('learns schema defaults from listTools: a value equal to the default is schema_default', async () => {
    await conn.client.callTool({ name: 'list_directory_with_sizes', arguments: { path: 'src', sortBy: 'name' } }, undefined, { argspan: { callId: 'call_6' } });
    const span = toolSpan(tracing.spans(), 'list_directory_with_sizes', 'call_6');
    const sortBy = argSpans(tracing.spans(), span).find((a) => a.attributes[ArgAttributes.KEY] === 'sortBy');
    expect(sortBy?.attributes[ArgAttributes.PROVENANCE]).toBe('schema_default');
  });

  it('records a server error result as a failed call and still returns it', async () => {
    const result = await conn.client.callTool({ name: 'read_text_file', arguments: { path: 'missing.txt' } }, undefined, { argspan: { callId: 'call_7' } });
    expect((result as { isError?: boolean }).isError).toBe(true);
    const span = toolSpan(tracing.spans(), 'read_text_file', 'call_7');
    expect(span.attributes[OtelAttributes.ERROR_TYPE]).toBe('McpToolError');
  });

  it('answers with an MCP error result instead of throwing when onRefused is "result"', async () => {
    const other = memoryTracing();
    const c = await connect(repo, { tracerProvider: other.provider, hashKey: new Uint8Array(32).fill(7), onRefused: 'result', toolName: (n) => `fs.${n}` });
    try {
      const result = await c.client.callTool({ name: 'read_text_file', arguments: { path: '.env' } });
      expect(result).toMatchObject({ isError: true });
      expect(text(result)).toMatch(/^argspan refused fs\.read_text_file/);
      expect(text(result)).not.toContain(repo.canary);
      expect(toolCalls(c.sent)).toEqual([]);
      const [span] = other.spans().filter((s) => s.name === 'execute_tool fs.read_text_file');
      expect(span?.attributes[GenAiAttributes.TOOL_NAME]).toBe('fs.read_text_file');
      // No framework call id: argspan's own is generated ({runId}:{n}) and never passed off as gen_ai.tool.call.id.
      expect(span?.attributes[CallAttributes.CALL_ID]).toMatch(/:1$/);
      expect(span?.attributes[GenAiAttributes.TOOL_CALL_ID]).toBeUndefined();
    } finally {
      await c.client.close();
    }
  });

  it('shares provenance with another adapter on the same session: an AI SDK tool argument copied from an MCP result', async () => {
    const review = vi.fn(async (_input: unknown, _options: unknown) => 'queued');
    const tools = instrumentAiTools({ code_review: { execute: review } }, { tracerProvider: tracing.provider, hashKey: new Uint8Array(32).fill(7), session });
    await tools.code_review.execute!({ files: [repo.parserNotesPath] }, { toolCallId: 'call_review', messages: [] });
    expect(review).toHaveBeenCalledTimes(1);
    const [file] = argSpans(tracing.spans(), toolSpan(tracing.spans(), 'code_review', 'call_review'));
    expect(file?.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
    expect(file?.links[0]?.context.spanId).toBe(toolSpan(tracing.spans(), 'read_text_file', 'call_1').spanContext().spanId);
  });

  it('never exports the canary in any span', () => {
    expect(tracing.spans().length).toBeGreaterThan(10);
    expect(spansText(tracing.spans())).not.toContain(repo.canary);
    expect(spansText(tracing.spans())).not.toContain(repo.canary.slice(3, 23));
  });
});

describe('instrumentMcpClient askUser: the gate asks the user before the model', () => {
  const tracing = memoryTracing();
  const fixtureServer = new URL('./support/mcp-fixture-server.mjs', import.meta.url).pathname;
  const email = { name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } };

  /** An instrumented client of the fixture server (its send_email has a denylisted `to`) in a session where the user never gave an address. */
  async function asking(askUser: McpAdapterOptions['askUser']) {
    const client = instrumentMcpClient(new Client({ name: 'argspan-test-agent', version: '0.0.0' }), {
      tracerProvider: tracing.provider,
      session: new ArgspanSession({ userText: 'Email Maria the parser notes' }),
      ...(askUser ? { askUser } : {}),
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixtureServer], stderr: 'pipe' }));
    return client;
  }

  it('asks with the gate question and the argument key; a matching answer lets the call run', async () => {
    const questions: unknown[] = [];
    const client = await asking(async (q) => {
      questions.push(q);
      return { to: 'maria.lopez@example.com' };
    });
    try {
      expect(text(await client.callTool(email))).toBe('sent');
      expect(questions).toEqual([{ tool: 'send_email', question: expect.stringContaining('which recipient (`to`)'), fields: ['to'] }]);
      expect(client.argspan.session.userText).toContain('maria.lopez@example.com');
    } finally {
      await client.close();
    }
  });

  it('takes an answer for any key the gate asks about, `__proto__` included', async () => {
    const client = instrumentMcpClient(new Client({ name: 'argspan-test-agent', version: '0.0.0' }), {
      tracerProvider: tracing.provider,
      session: new ArgspanSession({ userText: 'Email Maria the parser notes' }),
      policy: { denyInferred: ['to', '__proto__'] },
      askUser: async () => JSON.parse('{"to":"maria.lopez@example.com","__proto__":"zz-top"}') as Record<string, string>,
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixtureServer], stderr: 'pipe' }));
    try {
      const args = JSON.parse('{"to":"maria.lopez@example.com","subject":"Notes","__proto__":"zz-top"}') as Record<string, unknown>;
      expect(text(await client.callTool({ name: 'send_email', arguments: args }))).toBe('sent');
      expect(client.argspan.session.userText).toContain('zz-top');
    } finally {
      await client.close();
    }
  });

  it('a throw, a decline or an answer of the wrong shape keeps the call held (the clarification error, nothing sent)', async () => {
    const answers: (() => Promise<Readonly<Record<string, string>> | undefined>)[] = [
      async () => {
        throw new Error('the prompt window was closed');
      },
      async () => undefined,
      async () => ({ to: 42 }) as unknown as Record<string, string>,
      async () => ({ recipient: 'maria.lopez@example.com' }),
      async () => ({ to: '   ' }),
    ];
    for (const answer of answers) {
      const client = await asking(answer);
      try {
        await expect(client.callTool(email)).rejects.toMatchObject({ name: 'ArgspanClarificationError' });
        expect(client.argspan.session.userText).toEqual(['Email Maria the parser notes']);
      } finally {
        await client.close();
      }
    }
  });
});
