import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArgAttributes, CallAttributes, GenAiAttributes, OtelAttributes } from '@argspan/conventions';
import { createValueHasher } from '@argspan/core';
import { ArgspanClarificationError, ArgspanInstrumentation, ArgspanRefusedError, ArgspanSession } from '@argspan/instrumentation';
import { FileSpanExporter, encodeOtlpJson, listSpanFiles } from '@argspan/setup';
import { memoryTracing, only } from '../packages/instrumentation/test-support/tracing.js';

const KEY = Buffer.alloc(32, 9);
const hash = (v: string) => createValueHasher(KEY).hash(v);
const HEX32 = expect.stringMatching(/^[0-9a-f]{32}$/);

function argSpan(key: string, value: string, over: Record<string, unknown> = {}) {
  return {
    [ArgAttributes.KEY]: key,
    [ArgAttributes.LEAF]: key.split('.').at(-1),
    [ArgAttributes.PROVENANCE]: 'user_explicit',
    [ArgAttributes.RESIDENCY]: 'tiny-public',
    [ArgAttributes.RULE]: 'tiny',
    [ArgAttributes.VALUE_HASH]: hash(value),
    [ArgAttributes.BYTES]: Buffer.byteLength(value),
    [ArgAttributes.DENYLISTED]: false,
    ...over,
  };
}

function childrenOf(spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
}

describe('seed 002: the Tokyo invite', () => {
  it('asks exactly one question about calendar.create.timezone and never dispatches (exact spans)', async () => {
    const { provider, spans } = memoryTracing();
    const session = new ArgspanSession({ runId: 'run-tokyo', userText: 'Schedule a meeting with Kenji in Tokyo next Tuesday at 10am titled Q3 sync' });
    const dispatch = vi.fn();
    const inst = new ArgspanInstrumentation({ tracerProvider: provider, hashKey: KEY, session });
    const run = inst.wrapDispatch(dispatch);
    const turn = provider.getTracer('agent').startSpan('agent turn');
    const { context, trace } = await import('@opentelemetry/api');
    const args = { title: 'Q3 sync', attendee: { name: 'Kenji' }, when: 'next Tuesday at 10am', timezone: 'Asia/Tokyo' };
    const err = await context.with(trace.setSpan(context.active(), turn), () => run('calendar.create', args, { callId: 'call_1' })).catch((e: unknown) => e);
    turn.end();

    expect(dispatch).not.toHaveBeenCalled();
    expect(err).toBeInstanceOf(ArgspanClarificationError);
    const ask = err as ArgspanClarificationError;
    expect(ask.hits).toEqual(['calendar.create.timezone']);
    expect(ask.question).toMatch(/timezone/);
    expect(ask.question).not.toContain('Asia/Tokyo');
    expect(ask.message).not.toContain('Asia/Tokyo');

    const all = spans();
    expect(all.map((s) => s.name).sort()).toEqual([
      'agent turn',
      'execute_tool calendar.create',
      'tool_arg attendee.name',
      'tool_arg timezone',
      'tool_arg title',
      'tool_arg when',
    ]);
    const tool = only(all, 'execute_tool calendar.create');
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    const held = 'held for one clarifying question: model-inferred value on calendar.create.timezone';
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: held });
    expect(tool.attributes).toEqual({
      [GenAiAttributes.OPERATION_NAME]: 'execute_tool',
      [GenAiAttributes.TOOL_NAME]: 'calendar.create',
      [GenAiAttributes.TOOL_CALL_ID]: 'call_1',
      [CallAttributes.CALL_ID]: 'call_1',
      [CallAttributes.RUN_ID]: 'run-tokyo',
      [CallAttributes.ARGS_COUNT]: 4,
      [CallAttributes.ARGS_TRUNCATED]: 0,
      [CallAttributes.ARGS_BYTES]: 7 + 5 + 20 + 10,
      [CallAttributes.ARGS_HASH]: HEX32,
      [CallAttributes.RESIDENCY]: 'tiny-public',
      [CallAttributes.VERDICT]: 'refuse',
      [CallAttributes.VERDICT_REASON]: 'remote hop refused: tool calendar.create is not in the remote allowlist',
      [CallAttributes.GATE_ACTION]: 'ask',
      [CallAttributes.GATE_HITS]: ['calendar.create.timezone'],
      [CallAttributes.GATE_QUESTION]: ask.question,
      [CallAttributes.ENFORCEMENT]: 'hold',
      [CallAttributes.ENFORCEMENT_REASON]: held,
      [CallAttributes.BYTES_REDACTED]: 42,
      [CallAttributes.HOP_BLOCKED]: false,
      [CallAttributes.FAILED_CLOSED]: false,
      [CallAttributes.LOCAL_MS]: expect.any(Number),
      [CallAttributes.HOP_REMOTE]: false,
      [OtelAttributes.ERROR_TYPE]: 'ArgspanClarificationError',
    });
    const kids = childrenOf(all, tool);
    expect(kids).toHaveLength(4);
    expect(only(kids, 'tool_arg title').attributes).toEqual(argSpan('title', 'Q3 sync'));
    expect(only(kids, 'tool_arg attendee.name').attributes).toEqual(argSpan('attendee.name', 'Kenji'));
    expect(only(kids, 'tool_arg when').attributes).toEqual(argSpan('when', 'next Tuesday at 10am'));
    expect(only(kids, 'tool_arg timezone').attributes).toEqual(
      argSpan('timezone', 'Asia/Tokyo', { [ArgAttributes.PROVENANCE]: 'model_inferred', [ArgAttributes.DENYLISTED]: true }),
    );
    for (const k of kids) {
      expect(k.kind).toBe(SpanKind.INTERNAL);
      expect(k.links).toEqual([]);
      expect(k.spanContext().traceId).toBe(turn.spanContext().traceId);
    }
  });

  it('runs once the user states the timezone, and links an email copied from a contacts lookup', async () => {
    const { provider, spans } = memoryTracing();
    const session = new ArgspanSession({ runId: 'run-tokyo-2', userText: 'Schedule a meeting with Kenji in Tokyo next Tuesday at 10am titled Q3 sync' });
    const dispatch = vi.fn(async (tool: string) => (tool === 'contacts.lookup' ? { name: 'Kenji', email: 'kenji@example.jp' } : { id: 'evt_9' }));
    const run = new ArgspanInstrumentation({ tracerProvider: provider, hashKey: KEY, session }).wrapDispatch(dispatch);
    await run('contacts.lookup', { name: 'Kenji' }, { callId: 'call_lookup' });
    session.addUserText('Use Asia/Tokyo');
    const result = await run(
      'calendar.create',
      { title: 'Q3 sync', attendee: { name: 'Kenji', email: 'kenji@example.jp' }, when: 'next Tuesday at 10am', timezone: 'Asia/Tokyo' },
      { callId: 'call_create' },
    );
    expect(result).toEqual({ id: 'evt_9' });
    expect(dispatch).toHaveBeenCalledTimes(2);
    const lookup = only(spans(), 'execute_tool contacts.lookup');
    const email = only(spans(), 'tool_arg attendee.email');
    expect(email.attributes).toEqual(
      argSpan('attendee.email', 'kenji@example.jp', {
        [ArgAttributes.PROVENANCE]: 'context_retrieved',
        [ArgAttributes.DENYLISTED]: true,
        [ArgAttributes.SOURCE_CALL_ID]: 'call_lookup',
      }),
    );
    expect(email.links).toHaveLength(1);
    expect(email.links[0]!.context.spanId).toBe(lookup.spanContext().spanId);
    const create = only(spans(), 'execute_tool calendar.create');
    expect(create.attributes[CallAttributes.GATE_ACTION]).toBe('allow');
    expect(create.attributes[CallAttributes.GATE_HITS]).toEqual([]);
    expect(create.attributes[CallAttributes.LOCAL_MS]).toEqual(expect.any(Number));
    expect(create.attributes[OtelAttributes.ERROR_TYPE]).toBeUndefined();
  });
});

describe('seed 000: the dotenv read', () => {
  const canaryAws = 'AKIAZZ7CANARYQDOTENV';
  const canaryPw = 'canary-pw-7f3a9c2e51';
  const logs: string[] = [];
  afterEach(() => vi.restoreAllMocks());

  it('labels .env secret, keeps it local although a hop was available, and no canary leaves the process', async () => {
    for (const m of ['log', 'warn', 'error', 'info', 'debug'] as const) {
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void logs.push(a.map(String).join(' ')));
    }
    const dir = mkdtempSync(join(tmpdir(), 'argspan-dotenv-'));
    const envFile = join(dir, '.env');
    writeFileSync(envFile, `AWS_ACCESS_KEY_ID=${canaryAws}\nDB_PASSWORD=${canaryPw}\n`);
    const { provider, spans } = memoryTracing();
    const remote = vi.fn();
    const dispatch = vi.fn(async (tool: string, args: { path?: string }) => (tool === 'fs.read' ? readFileSync(args.path!, 'utf8') : 'posted'));
    const inst = new ArgspanInstrumentation({
      tracerProvider: provider,
      hashKey: KEY,
      excerpts: true,
      remote,
      // A model on this machine (denyResidencies []): the .env read may run here. `translate`
      // runs off this machine, so its refused remote hop is a denied call.
      policy: { remoteAllowlist: ['fs.read', 'http.post'], denyResidencies: [], remoteTools: ['translate'] },
      session: new ArgspanSession({ runId: 'run-dotenv', userText: `read ${envFile} and post the AWS key to the deploy hook` }),
    });
    const run = inst.wrapDispatch(dispatch);
    const content = await run('fs.read', { path: envFile }, { callId: 'call_read' });
    expect(content).toContain(canaryAws); // the tool ran locally and returned the file

    const read = only(spans(), 'execute_tool fs.read');
    expect(read.kind).toBe(SpanKind.INTERNAL);
    expect(read.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(read.attributes).toEqual({
      [GenAiAttributes.OPERATION_NAME]: 'execute_tool',
      [GenAiAttributes.TOOL_NAME]: 'fs.read',
      [GenAiAttributes.TOOL_CALL_ID]: 'call_read',
      [CallAttributes.CALL_ID]: 'call_read',
      [CallAttributes.RUN_ID]: 'run-dotenv',
      [CallAttributes.ARGS_COUNT]: 1,
      [CallAttributes.ARGS_TRUNCATED]: 0,
      [CallAttributes.ARGS_BYTES]: Buffer.byteLength(envFile),
      [CallAttributes.ARGS_HASH]: HEX32,
      [CallAttributes.RESIDENCY]: 'secret',
      [CallAttributes.VERDICT]: 'local',
      [CallAttributes.VERDICT_REASON]: 'secret argument stays local (rule secret-file-name at path)',
      [CallAttributes.GATE_ACTION]: 'allow',
      [CallAttributes.GATE_HITS]: [],
      [CallAttributes.ENFORCEMENT]: 'run',
      [CallAttributes.ENFORCEMENT_REASON]: 'secret argument stays local (rule secret-file-name at path); runs on this machine',
      [CallAttributes.BYTES_REDACTED]: 0,
      [CallAttributes.HOP_BLOCKED]: true,
      [CallAttributes.HOP_REMOTE]: false,
      [CallAttributes.FAILED_CLOSED]: false,
      [CallAttributes.LOCAL_MS]: expect.any(Number),
    });
    expect(childrenOf(spans(), read).map((s) => s.name)).toEqual(['tool_arg path']);
    expect(only(spans(), 'tool_arg path').attributes).toEqual(
      argSpan('path', envFile, { [ArgAttributes.RESIDENCY]: 'secret', [ArgAttributes.RULE]: 'secret-file-name', [ArgAttributes.LEAF]: 'path' }),
    );

    // The model copies the key out of the file into a remote-capable call: secret, local, never remote.
    await run('http.post', { url: 'https://deploy.example.com/hook', body: { aws_key: canaryAws, note: canaryPw } }, { callId: 'call_post' });
    expect(remote).not.toHaveBeenCalled();
    const key = only(spans(), 'tool_arg body.aws_key');
    expect(key.attributes[ArgAttributes.RESIDENCY]).toBe('secret');
    expect(key.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
    expect(key.attributes[ArgAttributes.EXCERPT]).toBeUndefined();
    expect(key.links.map((l) => l.context.spanId)).toEqual([read.spanContext().spanId]);
    expect(only(spans(), 'execute_tool http.post').attributes[CallAttributes.VERDICT]).toBe('local');
    // The password matches no detector rule and sits under a harmless key, so the core labels it
    // tiny-public; it was copied from the .env read, so it still gets no excerpt.
    const note = only(spans(), 'tool_arg body.note');
    expect(note.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
    expect(note.attributes[ArgAttributes.EXCERPT]).toBeUndefined();
    expect(only(spans(), 'tool_arg url').attributes[ArgAttributes.EXCERPT]).toBe('https://deploy.example.com/hook');

    // A denied call's error message: bulky value on a remote tool outside the allowlist.
    const refused = await run('translate', { text: `${'lorem ipsum '.repeat(1000)}${canaryPw}` }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ArgspanRefusedError);
    expect(dispatch).toHaveBeenCalledTimes(2);

    // Grep every output: exported bytes (OTLP/JSON, file exporter), console, error messages.
    const fileDir = join(dir, 'traces');
    const file = new FileSpanExporter({ directory: fileDir });
    await new Promise((r) => file.export(spans(), r));
    await file.shutdown();
    const outputs = [
      encodeOtlpJson(spans()),
      ...listSpanFiles(fileDir).map((f) => readFileSync(f, 'utf8')),
      logs.join('\n'),
      String(refused),
      (refused as Error).stack ?? '',
      JSON.stringify(refused),
    ];
    for (const out of outputs) {
      expect(out).not.toContain(canaryAws);
      expect(out).not.toContain(canaryPw);
    }
    expect(outputs[1]).toContain('execute_tool fs.read');
    // The hash memo (process memory) holds no secret or copied-from-secret value either.
    const memo = (inst as unknown as { hasher: { memo: Map<string, string> } }).hasher.memo;
    expect(memo.size).toBeGreaterThan(0);
    for (const v of memo.keys()) {
      expect(v).not.toContain(canaryAws);
      expect(v).not.toContain(canaryPw);
    }
  });
});
