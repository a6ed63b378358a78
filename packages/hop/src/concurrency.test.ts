import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { closedPort, startIdempotentServer } from './testing/idempotent-server.js';
import { createHopRunner } from './runner.js';
import type { Worker } from './testing/worker-process.js';
import { buildDist, startWorker } from './testing/worker-process.js';

/** Rounds of the 8-process lease race; raise with HOP_RACE_ROUNDS for longer local runs. */
const ROUNDS = Number(process.env.HOP_RACE_ROUNDS ?? '20');
const RACERS = 8;
/** Long enough that no racer of a round is scheduled after the round's lease expires, even under load. */
const RACE_TTL_MS = 2000;

let dir: string;
let server: IdempotentServer;
const workers: Worker[] = [];

beforeAll(() => buildDist());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hop-conc-'));
  server = await startIdempotentServer();
});
afterEach(async () => {
  for (const w of workers.splice(0)) {
    w.child.kill('SIGCONT');
    w.child.kill('SIGKILL');
    await w.exited;
  }
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function spawnTracked(env: Record<string, string>): Worker {
  const w = startWorker(env);
  workers.push(w);
  return w;
}

describe('lease across processes', () => {
  it(`${RACERS} processes race for the lease ${ROUNDS} times: exactly one holder per round, epochs strictly increase`, async () => {
    const env = { HOP_WORKER_MODE: 'race', HOP_STATE_DIR: dir, HOP_RUN_ID: 'race', HOP_PROBE_PORT: String(server.port), HOP_LEASE_TTL_MS: String(RACE_TTL_MS) };
    const racers = Array.from({ length: RACERS }, () => spawnTracked(env));
    await Promise.all(racers.map((w) => w.waitFor((l) => l.ready === true)));
    let lastEpoch = 0;
    const takeovers = { killed: 0, expired: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const w of racers) w.send(`acquire ${round}`);
      const answers = await Promise.all(racers.map((w) => w.waitFor((l) => l.round === round && 'won' in l)));
      const winners = answers.map((a, i) => [a, i] as const).filter(([a]) => a.won === true);
      expect(winners, `round ${round}: ${JSON.stringify(answers)}`).toHaveLength(1);
      const [answer, index] = winners[0]!;
      const winner = racers[index]!;
      expect(answer.epoch as number).toBeGreaterThan(lastEpoch);
      lastEpoch = answer.epoch as number;
      if (round === Math.ceil(ROUNDS / 2)) {
        // the holder stays alive but stops renewing: the next round is a takeover race after expiry
        winner.send(`abandon ${round}`);
        await winner.waitFor((l) => l.round === round && l.abandoned === true);
        await new Promise((r) => setTimeout(r, RACE_TTL_MS + 50));
        takeovers.expired++;
      } else if (round % 4 === 0) {
        // the holder dies holding the lease: the next round is a takeover race for a dead holder's lease
        winner.child.kill('SIGKILL');
        await winner.exited;
        racers[index] = spawnTracked(env);
        await racers[index].waitFor((l) => l.ready === true);
        takeovers.killed++;
      } else {
        winner.send(`release ${round}`);
        await winner.waitFor((l) => l.round === round && l.released === true);
      }
    }
    expect(takeovers.killed).toBeGreaterThan(0);
    expect(takeovers.expired).toBe(1);
    for (const w of racers) w.send('exit');
    for (const w of racers) expect((await w.exited).code).toBe(0);
  });

  it.each([
    ['send:before', 3, 0],
    ['send:after-fence-check', 4, 1],
  ] as const)('a holder paused (SIGSTOP) at %s past its expiry cannot cause a second side effect', async (point, exitCode, staleRejected) => {
    const env = {
      HOP_WORKER_MODE: 'loop',
      HOP_STATE_DIR: dir,
      HOP_RUN_ID: 'paused-run',
      HOP_SERVER_URL: server.url,
      HOP_PROBE_PORT: String(server.port),
      HOP_STEPS: '1',
      HOP_LEASE_TTL_MS: '400',
      HOP_RETRY_LEASE_LOST: '0',
    };
    const a = spawnTracked({ ...env, HOP_CRASH_AT: point, HOP_CRASH_ACTION: 'stop' });
    await a.waitFor((l) => l.stopped === point);
    // B boots while A's lease is live: it waits (never a second hop), then takes over after expiry
    const b = spawnTracked(env);
    const bExit = await b.exited;
    expect(bExit.code, bExit.stderr + JSON.stringify(b.lines)).toBe(0);
    expect(server.applied).toHaveLength(1);
    expect(server.applied[0]!.epoch).toBe(2);
    a.child.kill('SIGCONT');
    const aExit = await a.exited;
    expect(aExit.code, JSON.stringify(a.lines)).toBe(exitCode);
    expect([...server.sideEffects.values()]).toEqual([1]);
    expect(server.staleRejected).toBe(staleRejected);
  });

  it('four drainer processes on one queue: every item is sent exactly once (not merely deduplicated), in order', async () => {
    const items = 12;
    const queueing = createHopRunner({ stateDir: dir, runId: 'drain-run', probe: { host: '127.0.0.1', port: await closedPort(), timeoutMs: 150 } });
    for (let i = 0; i < items; i++) {
      const out = await queueing.runHop({ step: { index: i, needRemoteCapacity: true }, payload: { step: i }, send: async () => ({ status: 500, body: '' }) });
      expect(out.decision).toBe('queue');
    }
    const env = { HOP_WORKER_MODE: 'loop', HOP_STATE_DIR: dir, HOP_RUN_ID: 'drain-run', HOP_SERVER_URL: server.url, HOP_PROBE_PORT: String(server.port), HOP_STEPS: '0' };
    const drainers = Array.from({ length: 4 }, () => spawnTracked(env));
    for (const d of drainers) {
      const exit = await d.exited;
      expect(exit.code, exit.stderr + JSON.stringify(d.lines)).toBe(0);
    }
    expect(server.received).toHaveLength(items); // no second send of any item, by any drainer
    expect(server.applied.map((a) => (JSON.parse(a.body) as { step: number }).step)).toEqual(Array.from({ length: items }, (_, i) => i));
    const drainedBy = drainers.map((d) => d.lines.flatMap((l) => (Array.isArray(l.drained) ? (l.drained as number[]) : [])));
    expect(drainedBy.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: items }, (_, i) => i));
  });
});
