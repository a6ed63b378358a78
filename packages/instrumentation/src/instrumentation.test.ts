import { randomBytes } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import { ArgAttributes, CallAttributes, ErrorType, GenAiAttributes, OtelAttributes } from '@argspan/conventions';
import { createValueHasher } from '@argspan/core';
import type { CallClassification } from '@argspan/core';
import { classification, inTurn, memoryTracing, only } from '../test-support/tracing.js';
import { ArgspanBlockedError, ArgspanClarificationError, ArgspanGateError, ArgspanRefusedError } from './errors.js';
import { encodeOtlpJson } from '@argspan/setup';
import { FAIL_CLOSED_REASON } from './fail-closed.js';
import { MAX_RECORDED_CONTENT } from './recorded-content.js';
import { ArgspanInstrumentation, instrumentDispatch, wrapTool } from './instrumentation.js';
import { ArgspanSession } from './session.js';
import type { Classifier } from './types.js';

const key = randomBytes(32);
const hasher = createValueHasher(key);

/** A classifier returning a fixed classification per tool (what the core would decide). */
function fixed(byTool: Record<string, CallClassification>): Classifier {
  return (call) => {
    const c = byTool[call.tool];
    if (!c) throw new Error(`no fixture for ${call.tool}`);
    return c;
  };
}

describe('ArgspanInstrumentation spans', () => {
  it('records one execute_tool span under the active span and one tool_arg child per leaf', async () => {
    const { provider, spans } = memoryTracing();
    const c = classification('calendar.create', [
      { key: 'title', text: 'Q3 sync' },
      { key: 'attendee.name', text: 'Kenji' },
    ]);
    const dispatch = vi.fn(async () => ({ id: 'evt-1' }));
    const session = new ArgspanSession({ runId: 'run-1' });
    const wrapped = instrumentDispatch(dispatch, { tracerProvider: provider, hashKey: key, classifier: fixed({ 'calendar.create': c }), session });
    const { result, turn } = await inTurn(provider, () => wrapped('calendar.create', { title: 'Q3 sync' }, { callId: 'call-1' }));

    expect(result).toEqual({ id: 'evt-1' });
    expect(dispatch).toHaveBeenCalledWith('calendar.create', { title: 'Q3 sync' });
    const tool = only(spans(), 'execute_tool calendar.create');
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(tool.spanContext().traceId).toBe(turn.spanContext().traceId);
    expect(tool.attributes).toMatchObject({
      [GenAiAttributes.OPERATION_NAME]: 'execute_tool',
      [GenAiAttributes.TOOL_NAME]: 'calendar.create',
      [GenAiAttributes.TOOL_CALL_ID]: 'call-1',
      [CallAttributes.CALL_ID]: 'call-1',
      [CallAttributes.RUN_ID]: 'run-1',
      [CallAttributes.ARGS_COUNT]: 2,
      [CallAttributes.ARGS_TRUNCATED]: 0,
      [CallAttributes.ARGS_BYTES]: c.bytes,
      [CallAttributes.RESIDENCY]: 'tiny-public',
      [CallAttributes.VERDICT]: 'local',
      [CallAttributes.GATE_ACTION]: 'allow',
      [CallAttributes.GATE_HITS]: [],
      [CallAttributes.HOP_REMOTE]: false,
      [CallAttributes.HOP_BLOCKED]: false,
      [CallAttributes.FAILED_CLOSED]: false,
    });
    expect(tool.attributes[CallAttributes.ARGS_HASH]).toMatch(/^[0-9a-f]{32}$/);
    expect(tool.attributes[CallAttributes.LOCAL_MS]).toBeGreaterThanOrEqual(0);
    expect(tool.attributes[OtelAttributes.ERROR_TYPE]).toBeUndefined();
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);

    const arg = only(spans(), 'tool_arg attendee.name');
    expect(arg.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(arg.attributes).toEqual({
      [ArgAttributes.KEY]: 'attendee.name',
      [ArgAttributes.LEAF]: 'name',
      [ArgAttributes.PROVENANCE]: 'user_explicit',
      [ArgAttributes.RESIDENCY]: 'tiny-public',
      [ArgAttributes.RULE]: 'tiny',
      [ArgAttributes.VALUE_HASH]: hasher.hash('Kenji'),
      [ArgAttributes.BYTES]: 5,
      [ArgAttributes.DENYLISTED]: false,
    });
  });

  it('links a context_retrieved argument to the span of the call whose result supplied it', async () => {
    const { provider, spans } = memoryTracing();
    const search = classification('contacts.search', [{ key: 'q', text: 'Kenji' }]);
    const invite = classification('mail.send', [
      { key: 'to', text: 'kenji@example.jp', provenance: 'context_retrieved', sourceCallId: 'c-search', denylisted: true },
    ]);
    const inst = new ArgspanInstrumentation({ tracerProvider: provider, hashKey: key, classifier: fixed({ 'contacts.search': search, 'mail.send': invite }) });
    const dispatch = inst.wrapDispatch(async (tool) => (tool === 'contacts.search' ? [{ email: 'kenji@example.jp' }] : 'sent'));
    await dispatch('contacts.search', { q: 'Kenji' }, { callId: 'c-search' });
    await dispatch('mail.send', { to: 'kenji@example.jp' }, { callId: 'c-send' });

    expect(inst.session.context).toEqual([{ callId: 'c-search', content: [{ email: 'kenji@example.jp' }] }, { callId: 'c-send', content: 'sent' }]);
    const source = only(spans(), 'execute_tool contacts.search');
    const to = only(spans(), 'tool_arg to');
    expect(to.links).toHaveLength(1);
    expect(to.links[0]!.context.spanId).toBe(source.spanContext().spanId);
    expect(to.links[0]!.context.traceId).toBe(source.spanContext().traceId);
    expect(to.attributes[ArgAttributes.SOURCE_CALL_ID]).toBe('c-search');
    expect(to.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
    expect(only(spans(), 'tool_arg q').links).toEqual([]);
  });

  it('writes per-call attributes on the tool span, under argspan\'s own', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(async () => 'ok', { tracerProvider: provider, hashKey: key, classifier: fixed({ t: classification('t', []) }) });
    await run('t', {}, { callId: 'c1', attributes: { 'argspan.mcp.client.name': 'claude-ai', [CallAttributes.CALL_ID]: 'spoofed' } });
    await run('t', {}, { callId: 'c2' });
    const [first, second] = spans().filter((s) => s.name === 'execute_tool t');
    expect(first!.attributes['argspan.mcp.client.name']).toBe('claude-ai');
    expect(first!.attributes[CallAttributes.CALL_ID]).toBe('c1');
    expect(second!.attributes['argspan.mcp.client.name']).toBeUndefined();
  });

  it('hands classification the session user text and earlier results', async () => {
    const { provider } = memoryTracing();
    const seen: unknown[] = [];
    const classifier: Classifier = (call, ctx) => {
      seen.push(structuredClone({ userText: ctx.userText, context: ctx.context, publicSchemaKeys: ctx.publicSchemaKeys }));
      return classification(call.tool, []);
    };
    const session = new ArgspanSession({ userText: 'find Kenji' });
    const run = instrumentDispatch(async () => 'result-1', {
      tracerProvider: provider,
      hashKey: key,
      classifier,
      session,
      schemas: { t: { publicKeys: ['q'] } },
    });
    await run('t', {}, { callId: 'a' });
    session.addUserText('and invite him');
    await run('t', {});
    expect(seen).toEqual([
      { userText: ['find Kenji'], context: [], publicSchemaKeys: ['q'] },
      { userText: ['find Kenji', 'and invite him'], context: [{ callId: 'a', content: 'result-1' }], publicSchemaKeys: ['q'] },
    ]);
  });
});

describe('ArgspanInstrumentation gate', () => {
  const cases: [string, Partial<CallClassification>, new (...a: never[]) => Error, string][] = [
    ['deny (secret)', { residency: 'secret', verdict: 'local', reason: 'secret argument stays local (rule secret-file-name at path)' }, ArgspanRefusedError, ErrorType.REFUSED],
    ['block', { gate: { action: 'block', hits: ['calendar.create.timezone'] } }, ArgspanBlockedError, ErrorType.BLOCKED],
    [
      'ask',
      { gate: { action: 'ask', hits: ['calendar.create.timezone'], question: 'Which timezone should calendar.create use?' } },
      ArgspanClarificationError,
      ErrorType.CLARIFICATION,
    ],
  ];
  for (const [name, over, Err, errorType] of cases) {
    it(`${name}: never reaches the dispatcher, throws a typed error, records error.type and status`, async () => {
      const { provider, spans } = memoryTracing();
      const dispatch = vi.fn();
      const c = classification('calendar.create', [{ key: 'timezone', text: 'Asia/Tokyo', provenance: 'model_inferred', denylisted: true }], over);
      const run = instrumentDispatch(dispatch, { tracerProvider: provider, hashKey: key, classifier: fixed({ 'calendar.create': c }) });
      const err = await run('calendar.create', { timezone: 'Asia/Tokyo' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Err);
      expect(dispatch).not.toHaveBeenCalled();
      const tool = only(spans(), 'execute_tool calendar.create');
      expect(tool.attributes[OtelAttributes.ERROR_TYPE]).toBe(errorType);
      // The status says why the call was held or denied (the enforcement reason), not only the verdict.
      const why = (err as ArgspanGateError).reason;
      expect(why).toMatch(name === 'ask' ? /^held for one clarifying question/ : /^denied: /);
      expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: why });
      expect(tool.attributes[CallAttributes.ENFORCEMENT]).toBe(name === 'ask' ? 'hold' : 'deny');
      expect(tool.attributes[CallAttributes.ENFORCEMENT_REASON]).toBe(why);
      expect(only(spans(), 'tool_arg timezone').parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
      expect(String((err as Error).message)).not.toContain('Asia/Tokyo');
      if (err instanceof ArgspanClarificationError) {
        expect(err.question).toBe('Which timezone should calendar.create use?');
        expect(tool.attributes[CallAttributes.GATE_QUESTION]).toBe(err.question);
      }
    });
  }

  it('fails closed when the classifier throws or returns garbage, and never quotes its message', async () => {
    const { provider, spans } = memoryTracing();
    const dispatch = vi.fn();
    for (const classifier of [
      () => {
        throw new Error('boom CANARY-THROWN-VALUE');
      },
      () => ({ verdict: 'local' }) as unknown as CallClassification,
      // well-formed at the top, but a leaf without its value text
      () => {
        const c = classification('shell.exec', [{ key: 'cmd', text: 'ls' }]);
        (c.flat[0] as unknown as { text?: string }).text = undefined;
        return c;
      },
    ] as Classifier[]) {
      const run = instrumentDispatch(dispatch, { tracerProvider: provider, hashKey: key, classifier });
      const err = await run('shell.exec', { cmd: 'ls' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ArgspanRefusedError);
      expect((err as ArgspanRefusedError).reason).toBe(`denied: ${FAIL_CLOSED_REASON}`);
      expect(String(err)).not.toContain('CANARY');
    }
    expect(dispatch).not.toHaveBeenCalled();
    for (const s of spans()) {
      expect(s.attributes[CallAttributes.FAILED_CLOSED]).toBe(true);
      expect(s.attributes[CallAttributes.VERDICT]).toBe('refuse');
      expect(JSON.stringify(s.attributes)).not.toContain('CANARY');
    }
  });

  it('records a tool failure as error.type without copying its message', async () => {
    const { provider, spans } = memoryTracing();
    class QuotaError extends Error {}
    const run = wrapTool('files.read', async () => {
      throw new QuotaError('quota exceeded reading CANARY-TOOL-MESSAGE');
    }, { tracerProvider: provider, hashKey: key, classifier: fixed({ 'files.read': classification('files.read', []) }) });
    await expect(run({ path: 'a' })).rejects.toBeInstanceOf(QuotaError);
    const tool = only(spans(), 'execute_tool files.read');
    expect(tool.attributes[OtelAttributes.ERROR_TYPE]).toBe('QuotaError');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool failed' });
    expect(encodeOtlpJson(spans())).not.toContain('CANARY');
  });

  it('records _OTHER as error.type when a tool throws a non-Error', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(() => Promise.reject('nope'), { tracerProvider: provider, hashKey: key, classifier: fixed({ t: classification('t', []) }) });
    await expect(run('t', {})).rejects.toBe('nope');
    expect(only(spans(), 'execute_tool t').attributes[OtelAttributes.ERROR_TYPE]).toBe(ErrorType.OTHER);
  });
});

describe('ArgspanInstrumentation span volume', () => {
  it('caps tool_arg spans, keeps the evidence leaves, and summarises the rest', async () => {
    const { provider, spans } = memoryTracing();
    const leaves = Array.from({ length: 10_000 }, (_, i) => ({ key: `rows[${i}]`, text: `row ${i}`, leaf: 'rows' }));
    leaves[7_777] = { key: 'rows[7777]', text: 'AKIA-ish', leaf: 'rows', residency: 'secret', rule: 'aws-access-key-id' } as (typeof leaves)[number];
    const c = classification('db.insert', leaves, { residency: 'secret', verdict: 'local', droppedLeaves: 5 });
    const dispatch = vi.fn(async () => 'ok');
    // A model on this machine (denyResidencies []): the secret call runs, so its spans are recorded in full.
    const run = instrumentDispatch(dispatch, { tracerProvider: provider, hashKey: key, maxArgSpans: 50, classifier: fixed({ 'db.insert': c }), policy: { denyResidencies: [] } });
    await run('db.insert', {});
    const all = spans();
    expect(all).toHaveLength(51);
    const tool = only(all, 'execute_tool db.insert');
    expect(tool.attributes[CallAttributes.ARGS_COUNT]).toBe(50);
    expect(tool.attributes[CallAttributes.ARGS_TRUNCATED]).toBe(10_000 - 50 + 5);
    expect(tool.attributes[CallAttributes.RESIDENCY]).toBe('secret');
    const secret = only(all, 'tool_arg rows[7777]');
    expect(secret.attributes[ArgAttributes.RULE]).toBe('aws-access-key-id');
    expect(all.filter((s) => s.name.startsWith('tool_arg rows[')).map((s) => s.name).slice(0, 3)).toEqual([
      'tool_arg rows[0]',
      'tool_arg rows[1]',
      'tool_arg rows[2]',
    ]);
  });
});

describe('ArgspanInstrumentation excerpts', () => {
  const leaves = [
    { key: 'note', text: 'x'.repeat(200) },
    { key: 'token', text: 'ghp_CANARYexcerpt000000000000000000000000', residency: 'secret' as const, rule: 'github-pat' },
    { key: 'diff', text: 'dirty line CANARY-DIRTY', residency: 'dirty-tree' as const, rule: 'dirty-hunk' },
  ];

  it('is off by default', async () => {
    const { provider, spans } = memoryTracing();
    await instrumentDispatch(async () => 0, { tracerProvider: provider, hashKey: key, classifier: fixed({ t: classification('t', leaves) }) })('t', {});
    for (const s of spans()) expect(s.attributes[ArgAttributes.EXCERPT]).toBeUndefined();
  });

  it('when on, is at most 80 chars and never on secret or dirty-tree leaves', async () => {
    const { provider, spans } = memoryTracing();
    await instrumentDispatch(async () => 0, {
      tracerProvider: provider,
      hashKey: key,
      excerpts: true,
      excerptLength: 500,
      classifier: fixed({ t: classification('t', leaves) }),
    })('t', {});
    expect(only(spans(), 'tool_arg note').attributes[ArgAttributes.EXCERPT]).toBe('x'.repeat(80));
    expect(only(spans(), 'tool_arg token').attributes[ArgAttributes.EXCERPT]).toBeUndefined();
    expect(only(spans(), 'tool_arg diff').attributes[ArgAttributes.EXCERPT]).toBeUndefined();
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('CANARY');
  });
});

describe('ArgspanInstrumentation GenAI content attributes', () => {
  const CANARY = 'ghp_' + 'C4NARYc4naryC4NARYc4naryC4NARYc4nary';
  const KEY_CANARY = 'ghp_' + 'K3YCANARYk3ycanaryK3YCANARYk3ycanary';

  it('records neither arguments nor results by default', async () => {
    const { provider, spans } = memoryTracing();
    await instrumentDispatch(async () => 'done', { tracerProvider: provider, hashKey: key })('search', { q: 'weather' });
    const tool = only(spans(), 'execute_tool search');
    expect(tool.attributes[GenAiAttributes.TOOL_CALL_ARGUMENTS]).toBeUndefined();
    expect(tool.attributes[GenAiAttributes.TOOL_CALL_RESULT]).toBeUndefined();
  });

  it('records the arguments with secret values and credential keys replaced by markers, even on a refused call', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(async () => 'sent', { tracerProvider: provider, hashKey: key, recordArguments: true });
    await expect(run('http.post', { title: 'Q3 sync', token: CANARY, headers: { [KEY_CANARY]: 'x' }, n: 3 })).rejects.toBeInstanceOf(ArgspanRefusedError);
    const recorded = only(spans(), 'execute_tool http.post').attributes[GenAiAttributes.TOOL_CALL_ARGUMENTS];
    expect(typeof recorded).toBe('string');
    const parsed = JSON.parse(recorded as string) as Record<string, unknown>;
    expect(parsed).toMatchObject({ title: 'Q3 sync', n: 3 });
    expect(parsed.token).toMatch(/^\[REDACTED:[a-z0-9-]+\]$/);
    expect(Object.keys(parsed.headers as object)).toEqual([expect.stringMatching(/^\[REDACTED:[a-z0-9-]+\]$/)]);
    expect(JSON.stringify(spans().map((s) => [s.name, s.attributes, s.status]))).not.toContain('C4NARY');
    expect(JSON.stringify(spans().map((s) => [s.name, s.attributes, s.status]))).not.toContain('K3YCANARY');
  });

  it('never records a token glued on its right by `_`: in the tool\'s name, a key or a value', async () => {
    const { provider, spans } = memoryTracing();
    const glued = 'ghp_' + 'R1GHTc4naryR1GHTc4naryR1GHTc4naryR1GH';
    const aws = 'AKIA' + 'RGHTGLUEQ2345XBZ';
    const run = instrumentDispatch(async () => 'sent', { tracerProvider: provider, hashKey: key, recordArguments: true });
    await expect(run(`${aws}_deploy`, { [`${glued}_v2`]: 1, note: `token ${glued}_v2`, body: JSON.stringify({ [`${aws}_prod`]: 'x' }) })).rejects.toBeInstanceOf(ArgspanRefusedError);
    expect(spans().length).toBeGreaterThan(0);
    const printed = JSON.stringify(spans().map((s) => [s.name, s.attributes, s.status, s.events]));
    expect(printed).toContain('[REDACTED:');
    expect(printed).not.toContain('R1GHTc4nary');
    expect(printed).not.toContain('RGHTGLUE');
  });

  it('hides a key that is part of a credential (inside a credential slot) in the recorded arguments and every span', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(async () => 'sent', { tracerProvider: provider, hashKey: key, recordArguments: true });
    await expect(run('vault.put', { title: 'rotate', password: { 'Sup3rS3cretK3yCanary!': true } })).rejects.toBeInstanceOf(ArgspanRefusedError);
    const recorded = JSON.parse(only(spans(), 'execute_tool vault.put').attributes[GenAiAttributes.TOOL_CALL_ARGUMENTS] as string) as Record<string, unknown>;
    expect(recorded).toEqual({ title: 'rotate', password: { '[REDACTED:secret-key-name]': '[REDACTED:secret-key-name]' } });
    expect(JSON.stringify(spans().map((s) => [s.name, s.attributes, s.status, s.events]))).not.toContain('K3yCanary');
  });

  it('hides the keys of a credential split across nested keys in the recorded arguments and every span', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(async () => 'sent', { tracerProvider: provider, hashKey: key, recordArguments: true });
    const token = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
    await expect(run('vault.put', { title: 'rotate', [token.slice(0, 20)]: { [token.slice(20)]: 1 } })).rejects.toBeInstanceOf(ArgspanRefusedError);
    const recorded = JSON.parse(only(spans(), 'execute_tool vault.put').attributes[GenAiAttributes.TOOL_CALL_ARGUMENTS] as string) as Record<string, unknown>;
    // The keys named after the credential, as the argument's key path names them; the value after the leaf's rule.
    expect(recorded).toEqual({ title: 'rotate', '[REDACTED:github-pat]': { '[REDACTED:github-pat]': '[REDACTED:secret-in-key]' } });
    expect(only(spans(), 'tool_arg ["[REDACTED:github-pat]"]["[REDACTED:github-pat]"]')).toBeDefined();
    const printed = JSON.stringify(spans().map((s) => [s.name, s.attributes, s.status, s.events]));
    expect(printed).not.toContain(token.slice(4, 20));
    expect(printed).not.toContain(token.slice(20));
  });

  it('shows a credential the app puts in an id, an agent\'s name, an error class or a key glued to a word as its marker, and redacts a description before cutting it', async () => {
    const { provider, spans } = memoryTracing();
    const aws = 'AKIACANARYQ2345672XB';
    const token = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
    class DeployFailed extends Error {}
    Object.defineProperty(DeployFailed, 'name', { value: `Err_${token}` });
    const session = new ArgspanSession({ runId: `run${aws}`, conversationId: `conv_${token}` });
    const description = `${'Deploys the service. '.repeat(48)}Uses ${token} to deploy.`;
    expect(description.indexOf(token)).toBeLessThan(1024);
    expect(description.indexOf(token) + token.length).toBeGreaterThan(1024);
    const run = instrumentDispatch(
      async (tool, args) => {
        if (tool === 'deploy') throw new DeployFailed('no');
        return { [`${token.slice(0, 20)}`]: { [token.slice(20)]: 1 }, [`id${aws}`]: 'x', ok: args };
      },
      { tracerProvider: provider, hashKey: key, session, recordArguments: true, recordResults: true, schemas: { deploy: { description }, 'config.read': { description } } },
    );
    await inTurn(provider, async () => {
      await run('config.read', { name: 'app' }, { callId: `call_${token}` });
      await expect(run('deploy', { target: 'prod' }, { callId: 'c2' })).rejects.toBeInstanceOf(DeployFailed);
      await expect(run('config.set', { [`id${aws}`]: 1 })).rejects.toBeInstanceOf(ArgspanRefusedError);
    });
    const printed = JSON.stringify(spans().map((s) => [s.name, s.attributes, s.status, s.events, s.links]));
    for (const part of [aws.slice(4), token.slice(4, 20), token.slice(20), token.slice(0, 30)]) expect(printed).not.toContain(part);
    const read = only(spans(), 'execute_tool config.read');
    expect(read.attributes[CallAttributes.CALL_ID]).toBe('call_[REDACTED:github-pat]');
    expect(read.attributes[CallAttributes.RUN_ID]).toBe('run[REDACTED:aws-access-key-id]');
    expect(read.attributes[GenAiAttributes.CONVERSATION_ID]).toBe('conv_[REDACTED:github-pat]');
    expect(JSON.parse(read.attributes[GenAiAttributes.TOOL_CALL_RESULT] as string)).toMatchObject({ 'id[REDACTED:aws-access-key-id]': 'x', '[REDACTED:github-pat]': { '[REDACTED:github-pat]': 1 } });
    expect(only(spans(), 'execute_tool deploy').attributes[OtelAttributes.ERROR_TYPE]).toBe('Err_[REDACTED:github-pat]');
    expect(JSON.parse(only(spans(), 'execute_tool config.set').attributes[GenAiAttributes.TOOL_CALL_ARGUMENTS] as string)).toEqual({ 'id[REDACTED:aws-access-key-id]': '[REDACTED:secret-in-key]' });
  });

  it('records a public call\'s result with credential shapes redacted', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(async () => ({ status: 'ok', echoed: `token=${CANARY}` }), { tracerProvider: provider, hashKey: key, recordResults: true });
    await run('search', { q: 'weather' });
    const recorded = only(spans(), 'execute_tool search').attributes[GenAiAttributes.TOOL_CALL_RESULT] as string;
    expect(recorded).toContain('"status":"ok"');
    expect(recorded).toContain('[REDACTED:');
    expect(recorded).not.toContain('C4NARY');
  });

  it('records no result for a call with dirty-tree arguments: what it returned is as sensitive as what it was given', async () => {
    const { provider, spans } = memoryTracing();
    const dirty = classification('fs.read', [{ key: 'path', text: 'src/wip.ts', residency: 'dirty-tree', rule: 'dirty-path' }], { residency: 'dirty-tree' });
    const run = instrumentDispatch(async () => 'uncommitted contents CANARY-DIRTY', {
      tracerProvider: provider,
      hashKey: key,
      recordArguments: true,
      recordResults: true,
      policy: { denyResidencies: [] },
      classifier: fixed({ 'fs.read': dirty }),
    });
    await expect(run('fs.read', { path: 'src/wip.ts' })).resolves.toBe('uncommitted contents CANARY-DIRTY');
    const tool = only(spans(), 'execute_tool fs.read');
    expect(JSON.parse(tool.attributes[GenAiAttributes.TOOL_CALL_ARGUMENTS] as string)).toEqual({ path: '[REDACTED:dirty-path]' });
    expect(tool.attributes[GenAiAttributes.TOOL_CALL_RESULT]).toBeUndefined();
  });

  it('cuts recorded content at MAX_RECORDED_CONTENT characters', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(async () => 'r'.repeat(MAX_RECORDED_CONTENT * 2), { tracerProvider: provider, hashKey: key, recordResults: true });
    await run('search', { q: 'weather' });
    expect((only(spans(), 'execute_tool search').attributes[GenAiAttributes.TOOL_CALL_RESULT] as string).length).toBe(MAX_RECORDED_CONTENT);
  });

  it('writes gen_ai.tool.call.id only for a framework call id, and the tool type, description and conversation id when given', async () => {
    const { provider, spans } = memoryTracing();
    const session = new ArgspanSession({ runId: 'run-7', conversationId: 'thread-42' });
    const run = instrumentDispatch(async () => 'ok', {
      tracerProvider: provider,
      hashKey: key,
      session,
      schemas: { search: { type: 'function', description: `Searches the web (key ${CANARY})` } },
    });
    await run('search', { q: 'weather' });
    await run('other', { q: 'news' }, { callId: 'call_abc' });
    const first = only(spans(), 'execute_tool search').attributes;
    expect(first[GenAiAttributes.TOOL_CALL_ID]).toBeUndefined();
    expect(typeof first[CallAttributes.CALL_ID]).toBe('string');
    expect(first).toMatchObject({
      [CallAttributes.RUN_ID]: 'run-7',
      [GenAiAttributes.CONVERSATION_ID]: 'thread-42',
      [GenAiAttributes.TOOL_TYPE]: 'function',
      [GenAiAttributes.TOOL_DESCRIPTION]: expect.stringMatching(/^Searches the web \(key \[REDACTED:[a-z0-9-]+\]\)$/),
    });
    const second = only(spans(), 'execute_tool other').attributes;
    expect(second).toMatchObject({ [GenAiAttributes.TOOL_CALL_ID]: 'call_abc', [CallAttributes.CALL_ID]: 'call_abc' });
    expect(second[GenAiAttributes.TOOL_TYPE]).toBeUndefined();
  });
});

describe('ArgspanInstrumentation remote hop hook', () => {
  it('sends remote-ok calls through the hook with stripped args and records the round trip', async () => {
    const { provider, spans } = memoryTracing();
    const dispatch = vi.fn();
    const c = classification('summarise', [{ key: 'text', text: 'public text', residency: 'bulky-public', rule: 'bulky' }], {
      verdict: 'remote-ok',
      residency: 'bulky-public',
    });
    const remote = vi.fn(async (req: { args: unknown; strippedKeys: readonly string[] }) => ({ summary: 'short', got: req.args }));
    const run = instrumentDispatch(dispatch, {
      tracerProvider: provider,
      hashKey: key,
      classifier: fixed({ summarise: c }),
      remote,
      schemas: { summarise: { publicKeys: ['text'] } },
    });
    const result = await run('summarise', { text: 'public text', internal_note: 'CANARY-STRIPPED' });
    expect(result).toEqual({ summary: 'short', got: { text: 'public text' } });
    expect(dispatch).not.toHaveBeenCalled();
    // The hook gets the stripped request and nothing else: no classification, so no raw leaf values.
    expect(remote.mock.calls[0]![0]).toEqual({ tool: 'summarise', callId: expect.any(String), args: { text: 'public text' }, strippedKeys: ['internal_note'], residency: 'bulky-public' });
    expect(JSON.stringify(remote.mock.calls[0]![0])).not.toContain('CANARY-STRIPPED');
    const tool = only(spans(), 'execute_tool summarise');
    expect(tool.attributes[CallAttributes.HOP_REMOTE]).toBe(true);
    expect(tool.attributes[CallAttributes.REMOTE_RTT_MS]).toBeGreaterThanOrEqual(0);
    expect(tool.attributes[CallAttributes.LOCAL_MS]).toBeGreaterThanOrEqual(0); // local overhead, excluding the round trip
    expect(tool.attributes[CallAttributes.HOP_BLOCKED]).toBe(false);
  });

  it('marks hop_blocked when a hop was available but the verdict kept the call local', async () => {
    const { provider, spans } = memoryTracing();
    const remote = vi.fn();
    const c = classification('summarise', [{ key: 'path', text: '.env', residency: 'secret', rule: 'secret-file-name' }], { verdict: 'local', residency: 'secret' });
    await instrumentDispatch(async () => 'local result', { tracerProvider: provider, hashKey: key, classifier: fixed({ summarise: c }), remote, policy: { denyResidencies: [] } })('summarise', {});
    expect(remote).not.toHaveBeenCalled();
    const tool = only(spans(), 'execute_tool summarise');
    expect(tool.attributes[CallAttributes.HOP_BLOCKED]).toBe(true);
    expect(tool.attributes[CallAttributes.BYTES_REDACTED]).toBe(0);
  });
});

describe('ArgspanInstrumentation hash key', () => {
  it('creates the key in the state dir on first use and hashes with it', async () => {
    const { mkdtemp, readFile, stat } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'argspan-key-'));
    const { provider, spans } = memoryTracing();
    await instrumentDispatch(async () => 0, {
      tracerProvider: provider,
      stateDir: dir,
      classifier: fixed({ t: classification('t', [{ key: 'tz', text: 'Asia/Tokyo' }]) }),
    })('t', {});
    const file = join(dir, 'hash.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const k = Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
    const h = only(spans(), 'tool_arg tz').attributes[ArgAttributes.VALUE_HASH];
    expect(h).toBe(createValueHasher(k).hash('Asia/Tokyo'));
    expect(h).not.toBe(createValueHasher(randomBytes(32)).hash('Asia/Tokyo'));
  });
});

describe('ArgspanInstrumentation robustness', () => {
  it('keeps parentage right for concurrent calls in different turns', async () => {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(
      async (_tool: string, args: { ms: number }) => {
        await new Promise((r) => setTimeout(r, args.ms));
        return args.ms;
      },
      { tracerProvider: provider, hashKey: key, classifier: (call) => classification(call.tool, [{ key: 'ms', text: String((call.args as { ms: number }).ms) }]) },
    );
    const [one, two] = await Promise.all([
      inTurn(provider, () => run('slow', { ms: 30 }, { callId: 's' })),
      inTurn(provider, () => run('fast', { ms: 1 }, { callId: 'f' })),
    ]);
    expect(only(spans(), 'execute_tool slow').parentSpanContext?.spanId).toBe(one.turn.spanContext().spanId);
    expect(only(spans(), 'execute_tool fast').parentSpanContext?.spanId).toBe(two.turn.spanContext().spanId);
    expect(only(spans(), 'execute_tool slow').spanContext().traceId).not.toBe(
      only(spans(), 'execute_tool fast').spanContext().traceId,
    );
  });

  it('still gates and records with a per-process key, warning once and naming the directory, when the key file is corrupt', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'argspan-badkey-'));
    await writeFile(join(dir, 'hash.key'), 'not hex at all\n');
    const { provider, spans } = memoryTracing();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const dispatch = vi.fn(async () => 'ok');
      const run = instrumentDispatch(dispatch, { tracerProvider: provider, stateDir: dir, classifier: fixed({ t: classification('t', [{ key: 'a', text: 'x' }]) }) });
      expect(await run('t', {})).toBe('ok');
      expect(await run('t', {})).toBe('ok');
      expect(dispatch).toHaveBeenCalledTimes(2);
      expect(spans().filter((s) => s.name === 'tool_arg a').map((s) => s.attributes[ArgAttributes.VALUE_HASH])).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)]);
      const ephemeral = warn.mock.calls.filter((c) => (c[1] as { code?: string } | undefined)?.code === 'ARGSPAN_EPHEMERAL_HASH_KEY');
      expect(ephemeral).toHaveLength(1);
      expect(String(ephemeral[0]![0])).toContain(dir);
    } finally {
      warn.mockRestore();
    }
  });

  it('adds nothing to the context when resultToContext throws, and still returns the result', async () => {
    const { provider } = memoryTracing();
    const inst = new ArgspanInstrumentation({
      tracerProvider: provider,
      hashKey: key,
      classifier: fixed({ t: classification('t', []) }),
      resultToContext: () => {
        throw new Error('bad hook');
      },
    });
    expect(await inst.wrapDispatch(async () => 'r')('t', {})).toBe('r');
    expect(inst.session.context).toEqual([]);
  });

  it('records a failing remote hop as an error with the round trip, and rethrows it', async () => {
    const { provider, spans } = memoryTracing();
    const c = classification('summarise', [{ key: 'text', text: 'x', residency: 'bulky-public' }], { verdict: 'remote-ok' });
    class HopFailed extends Error {}
    const run = instrumentDispatch(vi.fn(), {
      tracerProvider: provider,
      hashKey: key,
      classifier: fixed({ summarise: c }),
      remote: async () => {
        throw new HopFailed('host down');
      },
    });
    await expect(run('summarise', { text: 'x' })).rejects.toBeInstanceOf(HopFailed);
    const tool = only(spans(), 'execute_tool summarise');
    expect(tool.attributes[OtelAttributes.ERROR_TYPE]).toBe('HopFailed');
    expect(tool.attributes[CallAttributes.REMOTE_RTT_MS]).toEqual(expect.any(Number));
    expect(tool.attributes[CallAttributes.HOP_REMOTE]).toBe(true);
  });

  it('indexes at most maxContextChars of one result', async () => {
    const { provider } = memoryTracing();
    const inst = new ArgspanInstrumentation({ tracerProvider: provider, hashKey: key, maxContextChars: 10, classifier: fixed({ t: classification('t', []) }) });
    const run = inst.wrapDispatch(async (_t: string, a: { r: unknown }) => a.r);
    await run('t', { r: 'short' });
    await run('t', { r: { a: 'abcdefgh', b: 'ijklmnop' } });
    expect(inst.session.context.map((e) => e.content)).toEqual(['short', 'a\nabcdefgh']);
  });

  it('indexes 64 times as much of a result that passes on secret, so a value copied from past the cap stays secret', async () => {
    const { provider } = memoryTracing();
    const inst = new ArgspanInstrumentation({ tracerProvider: provider, hashKey: key, maxContextChars: 10, policy: { secretSourceTools: ['vault'] } });
    const run = inst.wrapDispatch(async (t: string, a: { r?: unknown }) => (t === 'vault' ? `${'x'.repeat(500)} pw=correct-horse-battery` : a.r));
    await run('vault', { name: 'db' });
    await run('t', { r: 'y'.repeat(500) });
    const [vault, plain] = inst.session.context;
    expect(vault).toMatchObject({ residency: 'secret', content: `${'x'.repeat(500)} pw=correct-horse-battery` });
    expect(plain!.content).toBe('y'.repeat(10));
    await expect(run('copy', { text: 'correct-horse-battery' })).rejects.toBeInstanceOf(ArgspanRefusedError);
  });

  it('rejects a bad maxArgSpans or hashMemoSize, naming the option', () => {
    expect(() => new ArgspanInstrumentation({ hashKey: key, maxArgSpans: -1 })).toThrow(/maxArgSpans/);
    expect(() => new ArgspanInstrumentation({ hashKey: key, hashMemoSize: 1.5 })).toThrow(/hashMemoSize/);
  });
});
