import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseLostError } from './errors.js';
import { createHttpSender } from './http-sender.js';
import { createHopRunner } from './runner.js';
import type { FakeClock } from './testing/fake-clock.js';
import { createFakeClock } from './testing/fake-clock.js';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { startIdempotentServer } from './testing/idempotent-server.js';
import type { HopFaultPoint } from './faults.js';

let dir: string;
let server: IdempotentServer;
let clock: FakeClock;

const runner = (faults?: (p: HopFaultPoint) => Promise<void>) =>
  createHopRunner({ stateDir: dir, runId: 'run', clock, leaseTtlMs: 1000, pollMs: 5, probe: { host: '127.0.0.1', port: server.port, timeoutMs: 5000 }, ...(faults ? { faults } : {}) });
const step = (index: number) => ({ index, needRemoteCapacity: true });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hop-clock-'));
  server = await startIdempotentServer();
  clock = createFakeClock();
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('clock jumps', () => {
  it('a forward jump while a holder is about to send: another takes over, the old holder never sends', async () => {
    const send = createHttpSender({ url: server.url });
    let other: Promise<unknown> | undefined;
    const a = runner(async (point) => {
      if (point !== 'send:before' || other) return;
      clock.jumpWall(5_000); // NTP step / resume from suspend
      other = runner().runHop({ step: step(0), payload: 'p', send });
      await other;
    });
    const err = await a.runHop({ step: step(0), payload: 'p', send }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LeaseLostError);
    await expect(other).resolves.toMatchObject({ decision: 'remote', epoch: 2 });
    expect([...server.sideEffects.values()]).toEqual([1]);
    expect(server.keysSeen).toHaveLength(1);
  });

  it('a backward jump: epochs and checkpoint generations keep increasing, nothing waits for the jump', async () => {
    const send = createHttpSender({ url: server.url });
    const first = await runner().runHop({ step: step(0), payload: 'a', send });
    const gen1 = (await runner().readCheckpoint())!.generation;
    clock.jumpWall(-86_400_000); // a day back
    const second = await runner().runHop({ step: step(1), payload: 'b', send });
    expect(second.decision === 'remote' && first.decision === 'remote' && second.epoch > first.epoch).toBe(true);
    expect((await runner().readCheckpoint())!.generation).toBeGreaterThan(gen1);
    expect(server.sideEffects.size).toBe(2);
  });

  it('a backward jump makes a held lease look fresh to others: they wait (bounded by leaseWaitMs) and never send', async () => {
    const r = runner();
    const lease = await r.tryAcquireLease('fp');
    clock.jumpWall(-60_000);
    clock.advance(2_000); // ttl passed in real (monotonic) time
    const other = await runner().tryAcquireLease('fp'); // by the jumped wall clock the lease looks fresh...
    expect(other).toBeUndefined(); // ...so others conservatively wait (within maxClockSkewMs)
    const out = await runner().runHop({ step: step(0), payload: 'p', send: createHttpSender({ url: server.url }) }).catch((e: unknown) => e);
    expect(out).toMatchObject({ decision: 'wait' });
    expect(server.received).toHaveLength(0);
    expect(lease).toBeDefined();
  });
});
