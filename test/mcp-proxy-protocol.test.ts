/**
 * `argspan mcp-proxy` (the built CLI) in front of a small real MCP server written with the SDK
 * (test/support/mcp-fixture-server.mjs): resources, prompts, logging, progress, cancellation, a
 * server-to-client request, the no-evidence gate, and the server crashing, failing to start or being
 * stopped with the proxy.
 */
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ElicitRequestSchema, LATEST_PROTOCOL_VERSION, LoggingMessageNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgAttributes, CallAttributes, OtelAttributes } from '@argspan/conventions';
import { makeCanary } from '../packages/adapters/test-support/fixtures.js';
import { allText, argSpansOf, CLI_BIN, FIXTURE_SERVER, isAlive, RawJsonLines, readFileSpans, resultText, sleep, startProxy, toolSpans, waitGone, type ProxyRun, type StartOptions } from './support/mcp-proxy.js';

/** What the fixture server saw, one event per line of its events file. */
function events(file: string): { tool: string; phase?: string; subject?: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('argspan mcp-proxy relays every message type of a real SDK server', () => {
  let work: string;
  let eventsFile: string;
  let proxy: ProxyRun;
  let direct: Client;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-protocol-'));
    eventsFile = join(work, 'events.jsonl');
    proxy = await startProxy([process.execPath, FIXTURE_SERVER], { env: { FIXTURE_EVENTS: eventsFile }, capabilities: { capabilities: { elicitation: {} } } });
    direct = new Client({ name: 'argspan-test-client', version: '9.8.7' });
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE_SERVER], stderr: 'pipe', env: { ...getDefaultEnvironment(), FIXTURE_EVENTS: join(work, 'direct-events.jsonl') } }));
  });

  afterAll(async () => {
    await direct?.close();
    if (proxy && isAlive(proxy.pid)) await proxy.close();
    proxy?.remove();
    rmSync(work, { recursive: true, force: true });
  });

  it('relays resources, resource templates and prompts as the server answers them', async () => {
    expect(await proxy.client.listResources()).toEqual(await direct.listResources());
    expect(await proxy.client.listResourceTemplates()).toEqual(await direct.listResourceTemplates());
    for (const uri of ['fixture://notes', 'fixture://tickets/TCK-42']) {
      expect(await proxy.client.readResource({ uri })).toEqual(await direct.readResource({ uri }));
    }
    expect(await proxy.client.listPrompts()).toEqual(await direct.listPrompts());
    expect(await proxy.client.getPrompt({ name: 'review', arguments: { file: 'src/parser.py' } })).toEqual(await direct.getPrompt({ name: 'review', arguments: { file: 'src/parser.py' } }));
    await proxy.client.ping();
  });

  it('relays progress notifications, logging and the server\'s own isError result', async () => {
    await proxy.client.setLoggingLevel('info');
    const logged: unknown[] = [];
    proxy.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(n.params.data));
    const from = proxy.received.length;
    const result = await proxy.client.callTool({ name: 'count', arguments: { steps: 3 } }, undefined, { onprogress: () => undefined });
    expect(resultText(result)).toBe('counted 3');
    // The server's progress notifications reach the client with the token the client chose, before the result.
    const after = proxy.received.slice(from) as { method?: string; id?: unknown; params?: { progressToken?: unknown; progress?: number } }[];
    const answer = after.findIndex((m) => m.id !== undefined && m.method === undefined);
    const progress = after.slice(0, answer).filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m.params!.progress)).toEqual([1, 2, 3]);
    expect(new Set(progress.map((m) => m.params!.progressToken))).toEqual(new Set([after[answer]!.id]));
    await until('the log message', () => logged.length > 0);
    expect(logged).toEqual(['counted to 3']);
    const failed = await proxy.client.callTool({ name: 'fail', arguments: { why: 'test' } });
    expect(failed).toEqual(await direct.callTool({ name: 'fail', arguments: { why: 'test' } }));
  });

  it('relays a request the server makes of the client (elicitation) and its answer', async () => {
    proxy.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      expect(request.params.message).toBe('Which colour for the logo?');
      return { action: 'accept', content: { colour: 'teal' } };
    });
    expect(resultText(await proxy.client.callTool({ name: 'ask_user', arguments: { topic: 'the logo' } }))).toBe('accept: teal');
  });

  it('forwards a cancellation to the server, which stops the call', async () => {
    const abort = new AbortController();
    const call = proxy.client.callTool({ name: 'wait_for_cancel', arguments: { label: 'long job' } }, undefined, { signal: abort.signal });
    await until('the server to start the call', () => events(eventsFile).some((e) => e.tool === 'wait_for_cancel' && e.phase === 'started'));
    abort.abort('the user stopped it');
    await expect(call).rejects.toThrow();
    await until('the server to see the cancellation', () => events(eventsFile).some((e) => e.tool === 'wait_for_cancel' && e.phase === 'cancelled'));
    // The relay still works after it.
    expect(resultText(await proxy.client.callTool({ name: 'echo', arguments: { text: 'after the cancel' } }))).toBe('after the cancel');
  });

  it('answers a malformed tools/call itself, never sending it to the server', async () => {
    const seen = events(eventsFile).length;
    const bad = proxy.client.request({ method: 'tools/call', params: { name: 'echo', arguments: 'not an object' } } as never, CallToolResultSchema);
    await expect(bad).rejects.toSatisfy((e: unknown) => e instanceof McpError && e.code === -32602);
    expect(events(eventsFile).length).toBe(seen);
  });

  it('records every tools/call, with no_evidence on values nobody can be shown to have given (logged, not gated, by default)', async () => {
    const sent = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Parser notes' } });
    expect(resultText(sent)).toBe('sent');
    await proxy.close();
    const spans = readFileSpans(proxy.tracesDir);
    const email = toolSpans(spans, 'send_email')[0]!;
    expect(email.attributes).toMatchObject({ [CallAttributes.GATE_ACTION]: 'allow', [CallAttributes.ENFORCEMENT]: 'run' });
    expect(argSpansOf(spans, email)['to']!.attributes).toMatchObject({ [ArgAttributes.PROVENANCE]: 'no_evidence', [ArgAttributes.DENYLISTED]: true });
    expect(toolSpans(spans, 'wait_for_cancel')[0]!.attributes[OtelAttributes.ERROR_TYPE]).toBe('McpRequestCancelledError');
    expect(toolSpans(spans, 'fail')[0]!.attributes[OtelAttributes.ERROR_TYPE]).toBe('McpToolError');
    expect(toolSpans(spans, 'count')[0]!.attributes[OtelAttributes.ERROR_TYPE]).toBeUndefined();
  });
});

describe('argspan mcp-proxy --on-no-evidence', () => {
  const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-noev-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  let runs = 0;
  async function withProxy(options: string[], run: (proxy: ProxyRun, seen: () => ReturnType<typeof events>) => Promise<void>, capabilities?: StartOptions['capabilities']): Promise<void> {
    const eventsFile = join(work, `events-${++runs}.jsonl`);
    const proxy = await startProxy([process.execPath, FIXTURE_SERVER], { options, env: { FIXTURE_EVENTS: eventsFile }, ...(capabilities ? { capabilities } : {}) });
    try {
      await run(proxy, () => events(eventsFile));
    } finally {
      await proxy.close();
      proxy.remove();
    }
  }

  it('ask: holds a denylisted value found in no tool result, with one question; a value copied from a result runs', async () => {
    await withProxy(['--on-no-evidence', 'ask'], async (proxy, seen) => {
      const held = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } });
      expect(held.isError).toBe(true);
      expect(resultText(held)).toBe('Before I run send_email: which recipient (`to`) should I use? I could not confirm that you gave it, so I will not guess.');
      expect(seen().some((e) => e.tool === 'send_email')).toBe(false);
      await proxy.client.callTool({ name: 'lookup_contact', arguments: { name: 'Maria' } });
      const sent = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } });
      expect(resultText(sent)).toBe('sent');
    });
  });

  const QUESTION = 'Before I run send_email: which recipient (`to`) should I use? I could not confirm that you gave it, so I will not guess.';
  const ASKING_CLIENT = { capabilities: { elicitation: {} } };
  type Elicitation = { message: string; requestedSchema: { properties: Record<string, { type: string; title?: string }>; required?: string[] } };

  /** Answer the proxy's questions (MCP elicitation) with `answer`; returns what was asked. */
  function answerWith(proxy: ProxyRun, answer: (asked: Elicitation) => Promise<Record<string, unknown>> | Record<string, unknown>): Elicitation[] {
    const asked: Elicitation[] = [];
    proxy.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params as unknown as Elicitation);
      return (await answer(request.params as unknown as Elicitation)) as never;
    });
    return asked;
  }

  it('ask, with a client that can put a form to its user: the user is asked, and the value they give runs as their own', async () => {
    await withProxy(
      ['--on-no-evidence', 'ask'],
      async (proxy, seen) => {
        const asked = answerWith(proxy, () => ({ action: 'accept', content: { answer_1: 'maria.lopez@example.com' } }));
        const sent = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } });
        expect(resultText(sent)).toBe('sent');
        expect(asked).toEqual([{ message: QUESTION, requestedSchema: { type: 'object', properties: { answer_1: { type: 'string', title: 'to', description: 'the value of `to` for send_email' } }, required: ['answer_1'] } }]);
        expect(seen().filter((e) => e.tool === 'send_email')).toHaveLength(1);
        await proxy.close();
        // The held try and the call that ran, each on its own span; the value is the user's on the second.
        const [held, ran] = toolSpans(readFileSpans(proxy.tracesDir), 'send_email');
        const spans = readFileSpans(proxy.tracesDir);
        expect(held!.attributes).toMatchObject({ [CallAttributes.GATE_ACTION]: 'ask', [CallAttributes.ENFORCEMENT]: 'hold' });
        expect(argSpansOf(spans, held!)['to']!.attributes[ArgAttributes.PROVENANCE]).toBe('no_evidence');
        expect(ran!.attributes).toMatchObject({ [CallAttributes.GATE_ACTION]: 'allow', [CallAttributes.ENFORCEMENT]: 'run' });
        expect(argSpansOf(spans, ran!)['to']!.attributes[ArgAttributes.PROVENANCE]).toBe('user_explicit');
        const analysed = spawnSync(process.execPath, [CLI_BIN, 'analyze', proxy.tracesDir, '--format', 'json', '--fail-on', 'none'], { encoding: 'utf8' });
        expect(analysed.status, analysed.stderr).toBe(0);
        // The analyzer sees the held try as the gate working (info), and nothing wrong with the call that ran.
        const findings = (JSON.parse(analysed.stdout) as { findings: { rule: string; severity: string; span_id: string }[] }).findings;
        expect(findings.map((f) => [f.rule, f.severity, f.span_id])).toEqual([['held_assumption', 'info', argSpansOf(spans, held!)['to']!.spanId]]);
      },
      ASKING_CLIENT,
    );
  });

  it('ask: an answer that is not the value holds the call and tells the model what the user said (a credential redacted); a call with it runs unasked', async () => {
    const canary = makeCanary();
    await withProxy(
      ['--on-no-evidence', 'ask'],
      async (proxy, seen) => {
        const asked = answerWith(proxy, () => ({ action: 'accept', content: { answer_1: `ana.silva@example.com ${canary}` } }));
        const held = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } });
        expect(held.isError).toBe(true);
        const text = resultText(held);
        expect(text.startsWith(`${QUESTION} The user answered \`to\` = "ana.silva@example.com `)).toBe(true);
        expect(text.endsWith('"; call send_email again with what they gave.')).toBe(true);
        expect(text).not.toContain(canary);
        expect(seen().some((e) => e.tool === 'send_email')).toBe(false);
        const sent = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'ana.silva@example.com', subject: 'Notes' } });
        expect(resultText(sent)).toBe('sent');
        expect(asked).toHaveLength(1);
        await proxy.close();
        expect(readdirSync(proxy.tracesDir).map((f) => readFileSync(join(proxy.tracesDir, f), 'utf8')).join('')).not.toContain(canary);
        expect(allText(proxy.stateDir)).not.toContain(canary);
        expect(proxy.stderr()).not.toContain(canary);
      },
      ASKING_CLIENT,
    );
  });

  it('ask: declined, or not answered within --ask-timeout (the client is told the question is cancelled): the call stays held', async () => {
    await withProxy(
      ['--on-no-evidence', 'ask'],
      async (proxy, seen) => {
        answerWith(proxy, () => ({ action: 'decline' }));
        const held = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } });
        expect(held.isError).toBe(true);
        expect(resultText(held)).toBe(QUESTION);
        expect(seen()).toEqual([]);
      },
      ASKING_CLIENT,
    );
    await withProxy(
      ['--on-no-evidence', 'ask', '--ask-timeout', '0.5'],
      async (proxy, seen) => {
        // A user who never answers: the form stays open until the proxy cancels it.
        answerWith(proxy, () => new Promise(() => undefined));
        const held = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } });
        expect(resultText(held)).toBe(QUESTION);
        expect(seen()).toEqual([]);
        const cancelled = proxy.received.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
        expect(cancelled).toHaveLength(1);
        // The relay still works after.
        expect(resultText(await proxy.client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
      },
      ASKING_CLIENT,
    );
  });

  it('ask: a client that cancels the call while its question is open gets the question withdrawn at once', async () => {
    await withProxy(
      ['--on-no-evidence', 'ask'],
      async (proxy, seen) => {
        let formClosed!: () => void;
        const closed = new Promise<void>((resolve) => (formClosed = resolve));
        proxy.client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
          extra.signal.addEventListener('abort', () => formClosed(), { once: true });
          return new Promise(() => undefined); // the user is still reading
        });
        const clientErrors: string[] = [];
        proxy.client.onerror = (err) => clientErrors.push(err.message);
        const stop = new AbortController();
        const call = proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } }, undefined, { signal: stop.signal });
        await until('the question', () => proxy.received.some((m) => 'method' in m && m.method === 'elicitation/create'));
        stop.abort();
        await expect(call).rejects.toThrow();
        // Withdrawn well before the 300 s the question could otherwise wait.
        await closed;
        expect(seen()).toEqual([]);
        expect(resultText(await proxy.client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
        // A cancelled request gets no answer (MCP: the receiver SHOULD NOT respond); the SDK reports one as an error.
        expect(clientErrors).toEqual([]);
      },
      ASKING_CLIENT,
    );
  });

  it('ask: two held calls at once, both cancelled by the client while the first question is open: the second call is never asked about', async () => {
    await withProxy(
      ['--on-no-evidence', 'ask'],
      async (proxy, seen) => {
        const asked = answerWith(proxy, () => new Promise(() => undefined)); // the user is away
        const stops = [new AbortController(), new AbortController()];
        const calls = ['maria.lopez@example.com', 'ana.silva@example.com'].map((to, i) => proxy.client.callTool({ name: 'send_email', arguments: { to, subject: 'Notes' } }, undefined, { signal: stops[i]!.signal }));
        await until('the first question', () => asked.length === 1);
        // The client gives up on both (the second first, so its cancellation is surely in before the
        // first question closes): the second waits behind the first's question.
        for (const stop of [...stops].reverse()) stop.abort();
        for (const call of calls) await expect(call).rejects.toThrow();
        // The relay is free at once (not after the second call's question times out), and the user was asked once.
        expect(resultText(await proxy.client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
        expect(asked).toHaveLength(1);
        expect(seen().some((e) => e.tool === 'send_email')).toBe(false);
      },
      ASKING_CLIENT,
    );
  });

  it('ask: two held calls at once, each answered: each is asked in turn and runs with the value the user gave', async () => {
    await withProxy(
      ['--on-no-evidence', 'ask'],
      async (proxy, seen) => {
        const answers = ['maria.lopez@example.com', 'ana.silva@example.com'];
        const asked = answerWith(proxy, () => ({ action: 'accept', content: { answer_1: answers.shift()! } }));
        const results = await Promise.all(['maria.lopez@example.com', 'ana.silva@example.com'].map((to) => proxy.client.callTool({ name: 'send_email', arguments: { to, subject: 'Notes' } })));
        expect(results.map(resultText)).toEqual(['sent', 'sent']);
        expect(asked).toHaveLength(2);
        expect(seen().filter((e) => e.tool === 'send_email')).toHaveLength(2);
      },
      ASKING_CLIENT,
    );
  });

  it("ask: the client's answer to the server's own question is not held up by an open question of the proxy", async () => {
    await withProxy(
      ['--on-no-evidence', 'ask'],
      async (proxy) => {
        const proxyAsked = { open: false };
        let serverAsked!: () => void;
        const serverAsking = new Promise<void>((resolve) => (serverAsked = resolve));
        proxy.client.setRequestHandler(ElicitRequestSchema, async (request) => {
          if (request.params.message === QUESTION) {
            proxyAsked.open = true;
            return new Promise(() => undefined); // the user leaves this one open
          }
          serverAsked();
          await until('the proxy question', () => proxyAsked.open);
          return { action: 'accept', content: { colour: 'teal' } };
        });
        const colour = proxy.client.callTool({ name: 'ask_user', arguments: { topic: 'the logo' } });
        await serverAsking;
        const stop = new AbortController();
        const held = proxy.client.callTool({ name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } }, undefined, { signal: stop.signal });
        // Answered while the proxy's question is open: the server gets the answer now, not when that question closes.
        expect(resultText(await colour)).toBe('accept: teal');
        stop.abort();
        await expect(held).rejects.toThrow();
      },
      ASKING_CLIENT,
    );
  });

  it('block, from the flag or a policy file: denies it, naming the key and the option', async () => {
    const policy = join(work, 'policy.json');
    writeFileSync(policy, JSON.stringify({ no_evidence_action: 'block' }));
    for (const options of [['--on-no-evidence', 'block'], ['--policy', policy]]) {
      await withProxy(options, async (proxy, seen) => {
        const denied = await proxy.client.callTool({ name: 'send_email', arguments: { to: 'someone@example.com', subject: 'Hi' } });
        expect(denied.isError).toBe(true);
        expect(resultText(denied)).toBe('argspan blocked send_email: value with no evidence of who gave it on send_email.to');
        expect(seen()).toEqual([]);
      });
    }
  });
});

describe('argspan mcp-proxy when the server crashes, cannot start, or is stopped with the proxy', () => {
  /** The proxy as a plain child process speaking raw JSON lines (to see its exit code and stderr). */
  function rawProxy(server: string[], env: Record<string, string> = {}, options: string[] = []) {
    const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-raw-'));
    const child = spawn(process.execPath, [CLI_BIN, 'mcp-proxy', '--traces-dir', join(work, 'traces'), '--state-dir', join(work, 'state'), ...options, '--', ...server], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const lines = new RawJsonLines(child.stdout);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    return {
      child,
      send: (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n'),
      next: async () => JSON.parse((await lines.next()).text!) as { id: unknown; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string } },
      stderr: () => stderr,
      exited,
      serverPid: async () => {
        await until('the started line', () => /started \S+ \(pid \d+\)/.test(stderr));
        return Number(/started \S+ \(pid (\d+)\)/.exec(stderr)![1]);
      },
      tracesText: () => allText(join(work, 'traces')),
      remove: () => rmSync(work, { recursive: true, force: true }),
    };
  }

  async function initialize(p: ReturnType<typeof rawProxy>, capabilities: Record<string, unknown> = {}, clientInfo = { name: 'raw', version: '1' }): Promise<void> {
    p.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, clientInfo } });
    await p.next();
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  it('a crash: the pending call gets a clear error, the server\'s stderr is passed on redacted, the proxy exits 4 and leaves no process', async () => {
    const canary = makeCanary();
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const p = rawProxy([process.execPath, FIXTURE_SERVER], { FIXTURE_STDERR_CANARY: canary, FIXTURE_STDERR_PEM: pem });
    try {
      // (a client's name and version holding a credential, the name's past the length kept: the cut comes after the redaction)
      await initialize(p, {}, { name: `${'x'.repeat(217)}${canary}`, version: `v${canary}` });
      const serverPid = await p.serverPid();
      p.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'crash', arguments: { code: 3 } } });
      const answer = await p.next();
      expect(answer).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'argspan mcp-proxy: the MCP server exited with code 3 before answering tools/call' } });
      expect(await p.exited).toEqual({ code: 4, signal: null });
      expect(isAlive(serverPid)).toBe(false);
      expect(p.stderr()).toContain('fixture server crashing on purpose; token [REDACTED:');
      expect(p.stderr()).toContain('argspan mcp-proxy: the MCP server exited with code 3');
      expect(p.stderr()).not.toContain(canary);
      expect(p.stderr()).toContain('loaded the deploy key: [REDACTED:private-key]');
      expect(p.stderr()).toContain('and carried on');
      for (const line of pem.split('\n').slice(1, -2)) expect(p.stderr()).not.toContain(line);
      expect(p.tracesText()).toContain('[REDACTED:');
      expect(p.tracesText()).not.toContain(canary.slice(0, 12));
      expect(p.tracesText()).not.toContain(canary.slice(-12));
    } finally {
      p.child.kill('SIGKILL');
      p.remove();
    }
  });

  it('answers a JSON-RPC batch and a line that is not JSON itself: neither reaches the server', async () => {
    const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-batch-'));
    const eventsFile = join(work, 'events.jsonl');
    const p = rawProxy([process.execPath, FIXTURE_SERVER], { FIXTURE_EVENTS: eventsFile });
    try {
      await initialize(p);
      // A batch could carry a tools/call past the gate.
      p.send([{ jsonrpc: '2.0', id: 'b1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'smuggled' } } }]);
      expect(await p.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'argspan mcp-proxy does not relay JSON-RPC batches; send one message per line' } });
      p.child.stdin.write('{"jsonrpc": "2.0", "id": 9, "method": "tools/call", \n');
      expect(await p.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'argspan mcp-proxy: a line that is not JSON' } });
      p.send({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still relaying' } } });
      expect(await p.next()).toMatchObject({ id: 10, result: { content: [{ type: 'text', text: 'still relaying' }] } });
      expect(events(eventsFile)).toEqual([{ tool: 'echo' }]);
    } finally {
      p.child.kill('SIGKILL');
      p.remove();
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('sends the server a message as it read it, not the client\'s bytes: a repeated "method" cannot smuggle a tools/call past the gate', async () => {
    const work = mkdtempSync(join(tmpdir(), 'argspan-mcp-proxy-dup-'));
    const rawFile = join(work, 'raw.jsonl');
    const p = rawProxy([process.execPath, FIXTURE_SERVER], { FIXTURE_RAW_INPUT: rawFile });
    try {
      await initialize(p);
      // JSON.parse keeps the last "method" (a ping); a server whose parser keeps the first would run the call.
      p.child.stdin.write('{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"text":"smuggled"}},"method":"ping"}\n');
      expect(await p.next()).toMatchObject({ id: 11, result: {} });
      const received = readFileSync(rawFile, 'utf8').split('\n').filter((l) => l.includes('"id":11'));
      expect(received).toHaveLength(1);
      expect(received[0]).not.toContain('tools/call');
      expect(JSON.parse(received[0]!)).toMatchObject({ id: 11, method: 'ping' });
    } finally {
      p.child.kill('SIGKILL');
      p.remove();
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('a server command that does not exist: exit 2 naming the command, not its arguments', async () => {
    const token = makeCanary();
    const p = rawProxy(['/nonexistent/bin/mcp-server', '--token', token]);
    try {
      expect(await p.exited).toEqual({ code: 2, signal: null });
      expect(p.stderr()).toBe('argspan mcp-proxy: cannot start mcp-server: ENOENT\n');
    } finally {
      p.remove();
    }
    // Over HTTP, where a server starts per session, it is refused at start too (nothing is served).
    const overHttp = rawProxy(['/nonexistent/bin/mcp-server', '--token', token], {}, ['--http', '127.0.0.1:0']);
    try {
      expect(await overHttp.exited).toEqual({ code: 2, signal: null });
      expect(overHttp.stderr()).toBe('argspan mcp-proxy: cannot start mcp-server: ENOENT\n');
    } finally {
      overHttp.remove();
    }
  });

  it('the client closing stdin: the proxy stops the server and exits 0', async () => {
    const p = rawProxy([process.execPath, FIXTURE_SERVER]);
    try {
      await initialize(p);
      const serverPid = await p.serverPid();
      p.child.stdin.end();
      expect(await p.exited).toEqual({ code: 0, signal: null });
      await waitGone(serverPid);
    } finally {
      p.remove();
    }
  });

  /** A held call whose question (MCP elicitation) is open: returns the question's id. */
  async function openQuestion(p: ReturnType<typeof rawProxy>): Promise<unknown> {
    await initialize(p, { elicitation: {} });
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send_email', arguments: { to: 'maria.lopez@example.com', subject: 'Notes' } } });
    const question = await p.next();
    expect(question.method).toBe('elicitation/create');
    return question.id;
  }

  /** The proxy's exit, or 'still running' after `ms` (the ask timeout is 300 s: an exit well before it is not the timer's). */
  function exitWithin(p: ReturnType<typeof rawProxy>, ms: number): Promise<unknown> {
    return Promise.race([p.exited, sleep(ms).then(() => 'still running')]);
  }

  it('the server exiting while a question is open: the question is withdrawn, the call answered, and the proxy exits 4 at once', async () => {
    const p = rawProxy([process.execPath, FIXTURE_SERVER], {}, ['--on-no-evidence', 'ask']);
    try {
      const questionId = await openQuestion(p);
      process.kill(await p.serverPid(), 'SIGKILL');
      const after = [await p.next(), await p.next()];
      expect(after).toContainEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: questionId, reason: 'the MCP server is gone' } });
      expect(after.find((m) => m.id === 2)).toBeDefined();
      expect(await exitWithin(p, 20_000)).toEqual({ code: 4, signal: null });
    } finally {
      p.child.kill('SIGKILL');
      p.remove();
    }
  });

  it('the client closing stdin while a question is open: the proxy stops the server and exits 0 at once', async () => {
    const p = rawProxy([process.execPath, FIXTURE_SERVER], {}, ['--on-no-evidence', 'ask']);
    try {
      await openQuestion(p);
      const serverPid = await p.serverPid();
      p.child.stdin.end();
      expect(await exitWithin(p, 20_000)).toEqual({ code: 0, signal: null });
      await waitGone(serverPid);
    } finally {
      p.child.kill('SIGKILL');
      p.remove();
    }
  });

  it('SIGTERM to the proxy: the server and any process it started are stopped with it', async () => {
    const marker = `argspan-orphan-check-${process.pid}-${Date.now()}`;
    // A shell that stays the parent of the real server, as npx does: the whole process group must go.
    const p = rawProxy(['sh', '-c', `"${process.execPath}" "${FIXTURE_SERVER}" ${marker}; true`]);
    try {
      await initialize(p);
      const withMarker = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d) && isAlive(Number(d)) && safeCmdline(d).includes(marker));
      await until('the server behind the shell', () => withMarker().length > 0);
      p.child.kill('SIGTERM');
      expect(await p.exited).toEqual({ code: null, signal: 'SIGTERM' });
      await until('no process left', () => withMarker().length === 0);
    } finally {
      p.child.kill('SIGKILL');
      p.remove();
    }
  });
});

function safeCmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return '';
  }
}
