import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventAttributes, HopEvents } from '@argspan/conventions';
import { createSecretDetector } from '@argspan/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HopRejectedError, HopStateError, HopTransportError } from './errors.js';
import { createHttpSender } from './http-sender.js';
import type { ProbeTarget } from './probe.js';
import { createHopRunner } from './runner.js';
import type { HopRunnerOptions } from './types.js';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { closedPort, startIdempotentServer } from './testing/idempotent-server.js';
import { filesContaining } from './testing/state-files.js';
import { createRecorder } from './testing/recorder.js';
import { REMOTE_HOP_EVENTS } from './testing/event-sequences.js';

let dir: string;
let server: IdempotentServer;
let good: ProbeTarget;
let bad: ProbeTarget;

const runner = (o: Partial<HopRunnerOptions> = {}) => createHopRunner({ stateDir: dir, runId: 'run-1', probe: good, pollMs: 5, ...o });
const remote = (index: number) => ({ index, needRemoteCapacity: true });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hop-run-'));
  server = await startIdempotentServer();
  good = { host: '127.0.0.1', port: server.port, timeoutMs: 5000, http: { path: '/health', expectBodyIncludes: 'argspan-ok' } };
  bad = { host: '127.0.0.1', port: await closedPort(), timeoutMs: 150 };
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('runHop', () => {
  it('checkpoints, probes, decides, leases, sends, checkpoints the result and releases — as span events', async () => {
    const rec = createRecorder();
    const r = runner();
    const out = await r.runHop({ step: remote(0), payload: { q: 'hello' }, send: createHttpSender({ url: server.url }), span: rec });
    expect(out).toMatchObject({ decision: 'remote', reason: 'need-remote-capacity', status: 200, output: 'applied 1', epoch: 1, replayed: false });
    expect(rec.names()).toEqual(REMOTE_HOP_EVENTS);
    const allowed = new Set<string>(Object.values(EventAttributes));
    for (const e of rec.events) for (const k of Object.keys(e.attributes)) expect(allowed).toContain(k);
    expect(rec.events[0]!.attributes).toMatchObject({ [EventAttributes.CHECKPOINT_PHASE]: 'intent', [EventAttributes.STEP]: 0 });
    expect(rec.events[6]!.attributes).toMatchObject({ [EventAttributes.CHECKPOINT_PHASE]: 'done' });
    expect(rec.events[5]!.attributes).toMatchObject({ [EventAttributes.HTTP_STATUS]: 200, [EventAttributes.LEASE_EPOCH]: 1 });
    // the idempotency key (and anything derived from it) never reaches an event
    const key = server.keysSeen[0]!;
    const dump = JSON.stringify(rec.events);
    for (let i = 0; i + 12 <= key.length; i += 4) expect(dump).not.toContain(key.slice(i, i + 12));
    expect(await r.inspectLease()).toMatchObject({ status: 'free', epoch: 1 });
    expect(await r.readCheckpoint()).toMatchObject({ step: 0, phase: 'done', lastOutput: 'applied 1', leaseEpoch: 1 });
  });

  it('replays a completed step from the checkpoint instead of sending again', async () => {
    const send = createHttpSender({ url: server.url });
    await runner().runHop({ step: remote(0), payload: 'p', send });
    const again = await runner().runHop({ step: remote(0), payload: 'p', send });
    expect(again).toMatchObject({ decision: 'remote', replayed: true, output: 'applied 1' });
    expect(server.received).toHaveLength(1);
    await runner().runHop({ step: remote(1), payload: 'q', send });
    await expect(runner().runHop({ step: remote(0), payload: 'p', send })).rejects.toThrow(/behind the checkpoint/);
  });

  it('boot resumes from the checkpoint: an interrupted step is redone with the same key, once', async () => {
    let calls = 0;
    const flaky = createHttpSender({ url: server.url });
    const failing = async (req: Parameters<typeof flaky>[0]) => {
      await flaky(req); // the remote did it, then the connection "dropped"
      calls++;
      throw new Error('connection reset');
    };
    // a custom sender's own error becomes a transport error (outcome unknown); its text is not repeated
    const err = await runner().runHop({ step: remote(0), payload: 'p', send: failing }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(HopTransportError);
    expect(err.message).toMatch(/send for step 0 failed \(Error\); outcome unknown/);
    expect(err.message).not.toContain('connection reset');
    const r = runner();
    expect(await r.boot()).toMatchObject({ resumeStep: 0, checkpoint: { phase: 'intent', step: 0 }, queueDepth: 0 });
    const out = await r.runHop({ step: remote(0), payload: 'p', send: flaky });
    expect(out).toMatchObject({ decision: 'remote', status: 200, epoch: 2 });
    expect(calls).toBe(1);
    expect([...server.sideEffects.values()]).toEqual([1]);
    expect(new Set(server.keysSeen).size).toBe(1);
  });

  it('prefers local when no remote capacity is needed, and records the local result', async () => {
    const r = runner();
    const out = await r.runHop({ step: { index: 0 }, payload: 'p', send: createHttpSender({ url: server.url }) });
    expect(out).toMatchObject({ decision: 'local', reason: 'prefer-local' });
    await r.recordLocalResult({ step: 0, output: 'local answer', flags: { verified: true } });
    expect(await r.readCheckpoint()).toMatchObject({ phase: 'local', lastOutput: 'local answer', flags: { verified: true } });
    expect(await r.runHop({ step: { index: 0 }, payload: 'p', send: createHttpSender({ url: server.url }) })).toMatchObject({ decision: 'local', replayed: true });
    expect(server.received).toHaveLength(0);
  });

  it('keeps a payload local when a secret is left after redaction (residual detector)', async () => {
    const residual = createSecretDetector({ rules: [{ id: 'internal-host', description: 'internal host', keywords: ['corp.internal'], pattern: /\b[a-z0-9-]+\.corp\.internal\b/g }] });
    const out = await runner({ residualDetector: residual }).runHop({ step: remote(0), payload: 'fetch db1.corp.internal', send: createHttpSender({ url: server.url }) });
    expect(out).toMatchObject({ decision: 'local', reason: 'secrets-left' });
    expect(server.received).toHaveLength(0);
  });

  it('queues when the probe fails, durably and redacted, then drains in FIFO order after a green probe', async () => {
    const rec = createRecorder();
    const r = runner({ span: rec });
    const send = createHttpSender({ url: server.url });
    for (const i of [0, 1, 2]) {
      expect(await r.runHop({ step: remote(i), payload: `job ${i}`, send, probe: bad })).toMatchObject({ decision: 'queue', queueSeq: i + 1 });
    }
    expect(await r.queueDepth()).toBe(3);
    expect(await r.drainQueue({ send, probe: bad })).toMatchObject({ drained: [], remaining: 3, stopped: 'probe-failed' });
    const report = await r.drainQueue({ send });
    expect(report.drained.map((d) => d.step)).toEqual([0, 1, 2]);
    expect(report.remaining).toBe(0);
    expect(server.applied.map((a) => a.body)).toEqual(['job 0', 'job 1', 'job 2']);
    expect(await r.readCheckpoint()).toMatchObject({ step: 2, phase: 'done', lastOutput: 'applied 3' });
    expect(rec.names().filter((n) => n === HopEvents.QUEUE_ENQUEUED)).toHaveLength(3);
    expect(rec.names().filter((n) => n === HopEvents.QUEUE_DRAINED)).toHaveLength(3);
    expect(readdirSync(join(dir, 'queue'))).toEqual([]);
    // a replay of a drained step does not send again
    expect(await r.runHop({ step: remote(2), payload: 'job 2', send })).toMatchObject({ replayed: true });
    expect(server.received).toHaveLength(3);
  });

  it('a queued step stays queued on replay even when the network is back (never hopped twice)', async () => {
    const send = createHttpSender({ url: server.url });
    await runner().runHop({ step: remote(0), payload: 'x', send, probe: bad });
    expect(await runner().runHop({ step: remote(0), payload: 'x', send })).toMatchObject({ decision: 'queue', replayed: true, queueSeq: 1 });
    await runner().drainQueue({ send });
    expect(server.received).toHaveLength(1);
  });

  it('treats 409 as wait-and-retry with the same key, recording each attempt', async () => {
    await server.close();
    server = await startIdempotentServer({ conflictsPerKey: 2 });
    good = { ...good, port: server.port };
    const rec = createRecorder();
    const out = await runner().runHop({ step: remote(0), payload: 'p', send: createHttpSender({ url: server.url, conflictRetryDelayMs: 2 }), span: rec, probe: good });
    expect(out).toMatchObject({ decision: 'remote', status: 200 });
    const attempts = rec.events.filter((e) => e.name === HopEvents.HOP_SENT).map((e) => e.attributes[EventAttributes.ATTEMPT]);
    expect(attempts).toEqual([1, 2, 3]);
    expect(new Set(server.keysSeen).size).toBe(1);
  });

  it('fails loudly on 422: failed checkpoint, hop.failed event, lease released, never resent', async () => {
    await server.close();
    server = await startIdempotentServer({ rejectBodiesIncluding: 'invalid' });
    good = { ...good, port: server.port };
    const rec = createRecorder();
    const r = runner({ probe: good });
    const send = createHttpSender({ url: server.url });
    const err = await r.runHop({ step: remote(0), payload: 'invalid', send, span: rec }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HopRejectedError);
    const failed = rec.events.find((e) => e.name === HopEvents.HOP_FAILED)!;
    expect(failed.attributes).toMatchObject({ [EventAttributes.HTTP_STATUS]: 422, [EventAttributes.REASON]: 'HOP_REJECTED' });
    expect(rec.names().at(-1)).toBe(HopEvents.LEASE_RELEASED);
    expect(await r.readCheckpoint()).toMatchObject({ phase: 'failed', step: 0 });
    await expect(r.runHop({ step: remote(0), payload: 'invalid', send })).rejects.toBeInstanceOf(HopRejectedError);
    expect(server.received).toHaveLength(1);
  });

  it('waits while another holder has a live lease, then takes over after it expires (fresh probe, new epoch)', async () => {
    const holder = runner({ leaseTtlMs: 800 });
    const held = await holder.tryAcquireLease('someone-else');
    expect(held?.epoch).toBe(1);
    const rec = createRecorder();
    const send = createHttpSender({ url: server.url });
    const short = await runner({ leaseTtlMs: 800, leaseWaitMs: 40 }).runHop({ step: remote(0), payload: 'p', send, span: rec });
    expect(short).toMatchObject({ decision: 'wait', reason: 'lease-live' });
    expect(rec.names()).toContain(HopEvents.LEASE_WAIT);
    expect(server.received).toHaveLength(0);
    const rec2 = createRecorder();
    const out = await runner({ leaseTtlMs: 800, leaseWaitMs: 5000 }).runHop({ step: remote(0), payload: 'p', send, span: rec2 });
    expect(out).toMatchObject({ decision: 'remote', epoch: 2 });
    const names = rec2.names();
    const expired = names.indexOf(HopEvents.LEASE_EXPIRED);
    expect(expired).toBeGreaterThan(names.indexOf(HopEvents.LEASE_WAIT));
    expect(names[expired + 1]).toBe(HopEvents.PROBE); // decided again with a fresh probe
    await expect(holder.releaseLease(held!)).resolves.toBe(true); // harmless: superseded epoch
    expect(server.sideEffects.size).toBe(1);
  });

  it('refuses to hijack a state directory with another run in flight', async () => {
    await expect(runner().runHop({ step: remote(0), payload: 'p', send: async () => { throw new Error('down'); } })).rejects.toBeInstanceOf(HopTransportError);
    await expect(runner({ runId: 'run-2' }).boot()).rejects.toBeInstanceOf(HopStateError);
    expect((await createHopRunner({ stateDir: dir, probe: good }).boot()).runId).toBe('run-1');
  });

  it('a sink that throws never changes the protocol', async () => {
    const out = await runner({ span: { addEvent: () => { throw new Error('exporter down'); } } }).runHop({ step: remote(0), payload: 'p', send: createHttpSender({ url: server.url }) });
    expect(out.decision).toBe('remote');
  });

  it('records onto a real OpenTelemetry span', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const span = provider.getTracer('test').startSpan('execute_tool search');
    await runner().runHop({ step: remote(0), payload: 'p', send: createHttpSender({ url: server.url }), span });
    span.end();
    const [finished] = exporter.getFinishedSpans();
    expect(finished!.events.map((e) => e.name)).toContain(HopEvents.HOP_COMPLETED);
    expect(finished!.events.find((e) => e.name === HopEvents.LEASE_ACQUIRED)!.attributes).toMatchObject({ [EventAttributes.LEASE_EPOCH]: 1 });
    await provider.shutdown();
  });
});

describe('canary secrets', () => {
  const canaries = [
    'AKIA' + 'ZXCVBNMASDFGHJKL',
    'ghp_' + 'C4naryQ7xW2mK9pLr3TzV8bN5hJd1FgS6yUe',
    'sk-' + 'proj-canaryCANARY7fQ2xLm9Tr4Wb8Vn3Kd6Hs1Jg5Fp0Cy2Ue7Za',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowCanaryPemBodyLineCanaryPemBody0123456789abcdefABCDEF\n-----END RSA PRIVATE KEY-----',
  ];

  it('never appear in the state directory, the events, the remote or error messages', async () => {
    await server.close();
    server = await startIdempotentServer({ responseSuffix: ` echo ${canaries[0]} ${canaries[3]}`, rejectBodiesIncluding: 'reject-me' });
    good = { ...good, port: server.port };
    const rec = createRecorder();
    const r = runner({ goal: `ship it with ${canaries[1]}`, span: rec, probe: good });
    const send = createHttpSender({ url: server.url });
    const payload = { prompt: `use ${canaries.join(' and ')}`, nested: { key: canaries[2] } };
    await r.runHop({ step: remote(0), payload, send });
    await r.runHop({ step: remote(1), payload: { ...payload, n: 1 }, send, probe: bad });
    await r.runHop({ step: remote(2), payload: { ...payload, n: 2 }, send, probe: bad });
    await r.drainQueue({ send });
    await r.recordLocalResult({ step: 3, output: `local ${canaries[2]}` });
    const err = await r.runHop({ step: remote(4), payload: `reject-me ${canaries[1]}`, send }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(HopRejectedError);
    const needles = [...canaries, canaries[0].slice(4), canaries[1].slice(4), 'CanaryPemBody'];
    expect(filesContaining(dir, needles)).toEqual([]);
    const dump = JSON.stringify(rec.events) + String(err.message) + String(err.stack);
    for (const n of needles) expect(dump).not.toContain(n);
    for (const body of server.received) for (const n of needles) expect(body).not.toContain(n);
    expect(server.applied).toHaveLength(3);
  });
});

describe('quarantine at boot', () => {
  it('reports a damaged newest checkpoint on the runner span and in the boot report, and resumes from the previous one', async () => {
    const send = createHttpSender({ url: server.url });
    await runner().runHop({ step: remote(0), payload: 'a', send });
    const { writeFileSync, readdirSync: ls } = await import('node:fs');
    const newest = ls(dir).filter((n) => n.startsWith('checkpoint.')).sort().at(-1)!;
    writeFileSync(join(dir, newest), '');
    const rec = createRecorder();
    const boot = await runner({ span: rec }).boot();
    expect(boot.quarantined).toEqual([expect.objectContaining({ file: newest, defect: 'empty' })]);
    expect(boot.checkpoint).toMatchObject({ step: 0, phase: 'intent' });
    expect(rec.events).toEqual([{ name: HopEvents.STATE_QUARANTINED, attributes: { [EventAttributes.STATE_FILE]: newest, [EventAttributes.REASON]: 'empty' } }]);
    // replay from the older generation re-sends under the same key: still one side effect
    expect(await runner().runHop({ step: remote(0), payload: 'a', send })).toMatchObject({ decision: 'remote', status: 200 });
    expect([...server.sideEffects.values()]).toEqual([1]);
  });
});

describe('idempotency keys', () => {
  it('are stable per state directory and keyed: another hash key gives another key for the same run, step and payload', async () => {
    const send = createHttpSender({ url: server.url });
    await runner().runHop({ step: remote(0), payload: 'same', send: async (req) => (await send(req), { status: 503, body: '' }) }).catch((e: unknown) => e);
    expect(await runner().readCheckpoint()).toMatchObject({ phase: 'intent' }); // a 503 is not a result
    await runner().runHop({ step: remote(0), payload: 'same', send });
    const other = mkdtempSync(join(tmpdir(), 'hop-run-other-'));
    const otherServer = await startIdempotentServer(); // another deployment: its own lease epochs
    try {
      const probe = { ...good, port: otherServer.port };
      await createHopRunner({ stateDir: other, runId: 'run-1', probe }).runHop({ step: remote(0), payload: 'same', send: createHttpSender({ url: otherServer.url }) });
      expect(otherServer.keysSeen[0]).not.toBe(server.keysSeen[0]); // not recomputable without the local key
    } finally {
      await otherServer.close();
      rmSync(other, { recursive: true, force: true });
    }
    expect(server.keysSeen).toHaveLength(2);
    expect(server.keysSeen[0]).toBe(server.keysSeen[1]); // a retry after a failure: same key
    expect(server.keysSeen[0]).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('configuration', () => {
  it('rejects a missing probe and a non-positive lease ttl, naming the option', () => {
    expect(() => createHopRunner({ stateDir: dir } as never)).toThrow(/probe is required/);
    expect(() => runner({ leaseTtlMs: 0 })).toThrow(/leaseTtlMs must be a positive number/);
  });

  it('a probe hook that throws or answers nonsense counts as red: the hop is queued, never sent', async () => {
    const send = createHttpSender({ url: server.url });
    const throwing = await runner().runHop({ step: remote(0), payload: 'a', send, probe: async () => { throw new Error('dns'); } });
    const nonsense = await runner().runHop({ step: remote(1), payload: 'b', send, probe: async () => ({}) as never });
    expect([throwing.decision, nonsense.decision]).toEqual(['queue', 'queue']);
    expect(server.received).toHaveLength(0);
  });
});

describe('runHop and recordLocalResult check what they would checkpoint', () => {
  it.each([
    ['a number for the step', 0, undefined, /step must be an object/],
    ['a NaN index', { index: NaN, needRemoteCapacity: true }, undefined, /non-negative integer/],
    ['a string index', { index: '2', needRemoteCapacity: true }, undefined, /value of type string/],
    ['a fractional index', { index: -1.5, needRemoteCapacity: true }, undefined, /non-negative integer/],
    ['a flag that is not a boolean', { index: 0, needRemoteCapacity: true }, { a: 'yes' }, /every flag must be a boolean/],
  ])('%s is HOP_CONFIG before anything is sent or written; the next boot reads the directory', async (_name, step, flags, reason) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'hop-steps-'));
    try {
      const sent: unknown[] = [];
      const runner = createHopRunner({ stateDir, probe: async () => ({ ok: true, reason: 'ok', rttMs: 1 }) });
      const input = { step, payload: { q: 'x' }, send: async (r: unknown) => (sent.push(r), { status: 200, body: '"ok"' }), ...(flags ? { flags } : {}) } as unknown as Parameters<typeof runner.runHop>[0];
      await expect(runner.runHop(input)).rejects.toMatchObject({ code: 'HOP_CONFIG', message: expect.stringMatching(reason) });
      expect(sent).toEqual([]);
      if (typeof step === 'object') {
        const local = { step: step.index, output: 'x', ...(flags ? { flags } : {}) } as unknown as Parameters<typeof runner.recordLocalResult>[0];
        await expect(runner.recordLocalResult(local)).rejects.toMatchObject({ code: 'HOP_CONFIG' });
      }
      const boot = await createHopRunner({ stateDir, probe: async () => ({ ok: true, reason: 'ok', rttMs: 1 }) }).boot();
      expect(boot.quarantined).toEqual([]);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('a runId that is not a non-empty string is refused by createHopRunner', () => {
    expect(() => createHopRunner({ runId: 42 as unknown as string, probe: async () => ({ ok: true, reason: 'ok', rttMs: 1 }) })).toThrow(/runId must be a non-empty string, got a number/);
  });
});

describe('createHopRunner checks its probe target', () => {
  it.each([
    [{ host: '127.0.0.1', port: 99999 }, /probe.port must be an integer from 1 to 65535/],
    [{ host: '127.0.0.1', port: '4318x' }, /probe.port must be an integer/],
    [{ host: 42, port: 4318 }, /probe.host must be a non-empty string, got a number/],
  ])('%j is HOP_CONFIG', (probe, message) => {
    expect(() => createHopRunner({ probe: probe as unknown as ProbeTarget })).toThrow(message);
  });
});
