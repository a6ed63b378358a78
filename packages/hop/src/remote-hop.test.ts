import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HopDeferredError, HopTransportError } from './errors.js';
import { createHttpSender } from './http-sender.js';
import { createRemoteHop } from './remote-hop.js';
import { createHopRunner } from './runner.js';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { startIdempotentServer } from './testing/idempotent-server.js';
import { createRecorder } from './testing/recorder.js';

let dir: string;
let server: IdempotentServer;
const runner = (o: { leaseWaitMs?: number } = {}) =>
  createHopRunner({ stateDir: dir, runId: 'r', pollMs: 5, probe: { host: '127.0.0.1', port: server.port, timeoutMs: 5000 }, ...o });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hop-remote-'));
  server = await startIdempotentServer();
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('createRemoteHop', () => {
  it('numbers calls as consecutive steps and decodes JSON answers', async () => {
    const hop = createRemoteHop(runner(), { send: async () => ({ status: 200, body: '{"ok":true}' }) });
    const rec = createRecorder();
    expect(await hop({ tool: 't', callId: 'c1', args: { a: 1 } }, rec)).toEqual({ ok: true });
    expect(await hop({ tool: 't', callId: 'c2', args: { a: 2 } }, rec)).toEqual({ ok: true });
    expect((await runner().readCheckpoint())?.step).toBe(1);
  });

  it('runs locally (and checkpoints it) when a secret is left, or rejects without a local runner', async () => {
    const send = createHttpSender({ url: server.url });
    const call = { tool: 't', callId: 'c', args: { a: 1 }, residency: 'secret' };
    const withLocal = createRemoteHop(runner(), { send, runLocal: async () => ({ local: 1 }) });
    expect(await withLocal(call, createRecorder())).toEqual({ local: 1 });
    expect(await runner().readCheckpoint()).toMatchObject({ step: 0, phase: 'local', lastOutput: '{"local":1}' });
    const without = createRemoteHop(runner(), { send });
    const err = await without(call, createRecorder()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HopDeferredError);
    expect(err).toMatchObject({ decision: 'local', step: 1 });
    expect(server.received).toHaveLength(0);
  });

  it('runs a call issued again after an unknown outcome (a timeout) at its step: one key, one side effect', async () => {
    await server.close();
    server = await startIdempotentServer({ delayMs: 400 });
    const hop = createRemoteHop(runner(), { send: createHttpSender({ url: server.url, timeoutMs: 100 }) });
    const call = { tool: 'summarise', callId: 'c1', args: { text: 'release notes' } };
    await expect(hop(call, createRecorder())).rejects.toBeInstanceOf(HopTransportError);
    expect(await hop({ ...call, callId: 'c1-retry' }, createRecorder())).toBe('applied 1');
    expect(new Set(server.keysSeen).size).toBe(1);
    expect([...server.sideEffects.values()]).toEqual([1]);
    // another call afterwards is a step of its own (a new key); a different call after its timeout is not its retry
    const other = { ...call, args: { text: 'other notes' } };
    await expect(hop(other, createRecorder())).rejects.toBeInstanceOf(HopTransportError);
    await expect(hop({ ...call, args: { text: 'third notes' } }, createRecorder())).rejects.toBeInstanceOf(HopTransportError);
    expect((await runner().readCheckpoint())?.step).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(new Set(server.keysSeen).size).toBe(3);
    expect([...server.sideEffects.values()]).toEqual([1, 1, 1]);
  });

  it('replays a call issued again after its answer failed `decode`: the remote performs it once', async () => {
    const strict = (body: string): unknown => {
      if (!body.startsWith('{')) throw new Error(`not JSON: ${body}`);
      return JSON.parse(body) as unknown;
    };
    const hop = createRemoteHop(runner(), { send: createHttpSender({ url: server.url }), decode: strict });
    const call = { tool: 'summarise', callId: 'c1', args: { text: 'release notes' } };
    const first = await hop(call, createRecorder()).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: 'HOP_HOOK', message: expect.stringContaining('decode hook') });
    expect((first as Error).message).not.toContain('applied');
    await expect(hop({ ...call, callId: 'c1-again' }, createRecorder())).rejects.toMatchObject({ code: 'HOP_HOOK' });
    expect(server.received).toHaveLength(1);
    expect([...server.sideEffects.values()]).toEqual([1]);
    // another call is a step of its own
    await expect(hop({ ...call, args: { text: 'other notes' } }, createRecorder())).rejects.toMatchObject({ code: 'HOP_HOOK' });
    expect(new Set(server.keysSeen).size).toBe(2);
    expect((await runner().readCheckpoint())?.step).toBe(1);
  });

  it('rejects with a wait deferral when another holder keeps the lease', async () => {
    await runner().tryAcquireLease('other');
    const hop = createRemoteHop(runner({ leaseWaitMs: 30 }), { send: createHttpSender({ url: server.url }) });
    await expect(hop({ tool: 't', callId: 'c', args: 1 }, createRecorder())).rejects.toMatchObject({ decision: 'wait' });
  });
});
