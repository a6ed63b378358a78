import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FencedOffError, HopConflictError, HopRejectedError, HopTransportError, LeaseLostError } from './errors.js';
import type { HopRequest } from './http-sender.js';
import { createHttpSender } from './http-sender.js';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { startIdempotentServer } from './testing/idempotent-server.js';

let server: IdempotentServer;
afterEach(async () => server?.close());

const req = (o: Partial<HopRequest> = {}): HopRequest => ({
  runId: 'run',
  step: 1,
  fingerprint: 'fp',
  body: '{"x":1}',
  idempotencyKey: 'k'.repeat(64),
  epoch: 1,
  checkLease: async () => undefined,
  ...o,
});

describe('createHttpSender', () => {
  beforeEach(async () => {
    server = await startIdempotentServer();
  });

  it('sends the Idempotency-Key header and the lease epoch; a repeat has no second side effect', async () => {
    const send = createHttpSender({ url: server.url });
    const a = await send(req());
    const b = await send(req({ epoch: 2 }));
    expect(a).toEqual({ status: 200, body: 'applied 1' });
    expect(b).toEqual(a);
    expect(server.keysSeen).toEqual(['k'.repeat(64), 'k'.repeat(64)]);
    expect(server.sideEffects.get('k'.repeat(64))).toBe(1);
  });

  it('a lower epoch than one the remote has seen is fenced off (412)', async () => {
    const send = createHttpSender({ url: server.url });
    await send(req({ epoch: 5, idempotencyKey: 'a' }));
    await expect(send(req({ epoch: 4, idempotencyKey: 'b' }))).rejects.toBeInstanceOf(FencedOffError);
    expect(server.sideEffects.has('b')).toBe(false);
  });

  it('treats 409 as "wait and retry with the same key", checking the lease before each retry', async () => {
    await server.close();
    server = await startIdempotentServer({ conflictsPerKey: 3 });
    let checks = 0;
    const retries: number[] = [];
    const send = createHttpSender({ url: server.url, conflictRetryDelayMs: 1 });
    const res = await send(req({ checkLease: async () => void checks++, onRetry: (n) => retries.push(n) }));
    expect(res.status).toBe(200);
    expect(server.keysSeen).toEqual(Array(4).fill('k'.repeat(64)));
    expect(checks).toBe(3);
    expect(retries).toEqual([2, 3, 4]);
    expect(server.sideEffects.get('k'.repeat(64))).toBe(1);
  });

  it('gives up on endless 409s with HopConflictError', async () => {
    await server.close();
    server = await startIdempotentServer({ conflictsPerKey: 100 });
    const send = createHttpSender({ url: server.url, conflictRetryDelayMs: 1, maxConflictAttempts: 3 });
    await expect(send(req())).rejects.toBeInstanceOf(HopConflictError);
    expect(server.keysSeen).toHaveLength(3);
  });

  it('stops retrying a 409 when the lease is lost', async () => {
    await server.close();
    server = await startIdempotentServer({ conflictsPerKey: 100 });
    const send = createHttpSender({ url: server.url, conflictRetryDelayMs: 1 });
    const lost = req({ checkLease: async () => { throw new LeaseLostError('gone'); } });
    await expect(send(lost)).rejects.toBeInstanceOf(LeaseLostError);
    expect(server.keysSeen).toHaveLength(1);
  });

  it('fails loudly on 422 and does not retry', async () => {
    await server.close();
    server = await startIdempotentServer({ rejectBodiesIncluding: 'bad' });
    const send = createHttpSender({ url: server.url, conflictRetryDelayMs: 1 });
    const err = await send(req({ body: '{"bad":true}' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HopRejectedError);
    expect((err as HopRejectedError).status).toBe(422);
    expect(String((err as Error).message)).not.toContain('k'.repeat(64));
    expect(server.keysSeen).toHaveLength(1);
  });

  it('maps other statuses and transport failures to HopTransportError without leaking the key', async () => {
    const send = createHttpSender({ url: server.url.replace('/hop', '/missing'), conflictRetryDelayMs: 1 });
    const noKey = createHttpSender({ url: `http://127.0.0.1:${server.port}/x`, headers: {} });
    await server.close();
    const err = await noKey(req()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HopTransportError);
    expect((err as Error).message).not.toContain('k'.repeat(64));
    await expect(send(req())).rejects.toBeInstanceOf(HopTransportError);
  });
});

describe('createHttpSender timeoutMs', () => {
  it('bounds the whole attempt: a remote that trickles its answer a byte at a time is cut off', async () => {
    const { createServer } = await import('node:http');
    const trickle = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => trickle.listen(0, '127.0.0.1', r));
    try {
      const { port } = trickle.address() as { port: number };
      const send = createHttpSender({ url: `http://127.0.0.1:${port}/hop`, timeoutMs: 300 });
      // (an idle timeout never fires, a byte arrives every 50 ms: the answer would never end)
      await expect(send(req())).rejects.toBeInstanceOf(HopTransportError);
    } finally {
      trickle.closeAllConnections();
      await new Promise((r) => trickle.close(r));
    }
  });
});
