/**
 * Child process for the crash, concurrency and pause tests (run from dist/ by the tests).
 * Configured by environment variables; prints one JSON object per line on stdout.
 *
 * HOP_WORKER_MODE=loop  run steps 0..HOP_STEPS-1 from the checkpoint; every HOP_QUEUE_EVERY-th
 *                       step probes a closed port and is queued; the queue drains after the next
 *                       remote step and at the end.
 * HOP_WORKER_MODE=race  read commands on stdin: `acquire`, `release`, `abandon`, `exit`.
 * HOP_CRASH_AT=<fault point> HOP_CRASH_NTH=<n> HOP_CRASH_ACTION=kill|stop  inject a crash or pause.
 */
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createHopRunner } from '../runner.js';
import { createHttpSender } from '../http-sender.js';
import { HopError, LeaseLostError } from '../errors.js';
import type { HopFaultPoint } from '../faults.js';
import type { Lease } from '../lease.js';
import type { ProbeTarget } from '../probe.js';

const env = process.env;
const say = (obj: unknown) => writeSync(1, JSON.stringify(obj) + '\n');

const crashAt = env.HOP_CRASH_AT;
const crashNth = Number(env.HOP_CRASH_NTH ?? '1');
let hits = 0;
function faults(point: HopFaultPoint): void {
  if (point !== crashAt || ++hits !== crashNth) return;
  if (env.HOP_CRASH_ACTION === 'stop') {
    say({ stopped: point });
    process.kill(process.pid, 'SIGSTOP');
    return;
  }
  process.kill(process.pid, 'SIGKILL');
}

const good: ProbeTarget = {
  host: '127.0.0.1',
  port: Number(env.HOP_PROBE_PORT),
  timeoutMs: 5000,
  http: { path: '/health', expectBodyIncludes: 'argspan-ok' },
};
const bad: ProbeTarget = { host: '127.0.0.1', port: Number(env.HOP_BAD_PORT ?? '1'), timeoutMs: 150 };

const runner = createHopRunner({
  stateDir: env.HOP_STATE_DIR!,
  ...(env.HOP_RUN_ID ? { runId: env.HOP_RUN_ID } : {}),
  goal: `crash test goal ${env.HOP_CANARY ?? ''}`,
  probe: good,
  leaseTtlMs: Number(env.HOP_LEASE_TTL_MS ?? '5000'),
  leaseWaitMs: Number(env.HOP_LEASE_WAIT_MS ?? '10000'),
  pollMs: 10,
  faults,
});

async function loop(): Promise<void> {
  const boot = await runner.boot();
  const steps = Number(env.HOP_STEPS ?? '3');
  // every HOP_QUEUE_EVERY-th step (i % n === 1) probes a dead port and is queued
  const every = Number(env.HOP_QUEUE_EVERY ?? '3');
  const queued = (i: number) => every > 0 && i % every === 1;
  const send = createHttpSender({ url: env.HOP_SERVER_URL!, conflictRetryDelayMs: 5 });
  say({ boot: { resumeStep: boot.resumeStep, queueDepth: boot.queueDepth, lease: boot.lease.status } });
  const drain = async () => {
    for (;;) {
      const r = await runner.drainQueue({ send });
      say({ drained: r.drained.map((d) => d.step), remaining: r.remaining, stopped: r.stopped });
      if (r.remaining === 0) return;
    }
  };
  if (boot.queueDepth > 0) await drain();
  for (let i = boot.resumeStep; i < steps; ) {
    const out = await runner
      .runHop({
        step: { index: i, needRemoteCapacity: true },
        payload: { step: i, text: `payload ${i} ${env.HOP_CANARY ?? ''}` },
        send,
        probe: queued(i) ? bad : good,
      })
      .catch((err: unknown) => {
        // a stalled process whose lease ran out retries the step, as an agent would (same key)
        if (err instanceof LeaseLostError && env.HOP_RETRY_LEASE_LOST !== '0') return { decision: 'wait' as const };
        throw err;
      });
    say({ step: i, decision: out.decision });
    if (out.decision === 'wait') continue;
    i++;
    if (out.decision === 'remote' && (await runner.queueDepth()) > 0) await drain(); // the network is back
  }
  await drain();
  say({ done: true });
}

async function race(): Promise<void> {
  await runner.boot();
  say({ ready: true });
  let held: Lease | undefined;
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    const [cmd, round] = line.trim().split(' ');
    if (cmd === 'acquire') {
      held = await runner.tryAcquireLease(`race-${round}`);
      say({ round: Number(round), won: held !== undefined, epoch: held?.epoch ?? null });
    } else if (cmd === 'release') {
      if (held) await runner.releaseLease(held);
      held = undefined;
      say({ round: Number(round), released: true });
    } else if (cmd === 'abandon') {
      held = undefined; // keep the lease file live: the others must wait for expiry, then take over
      say({ round: Number(round), abandoned: true });
    } else if (cmd === 'exit') break;
  }
  rl.close();
}

const EXIT = { HOP_LEASE_LOST: 3, HOP_FENCED: 4, HOP_STATE: 5 } as Record<string, number>;

(env.HOP_WORKER_MODE === 'race' ? race() : loop()).then(
  () => process.exit(0),
  (err: unknown) => {
    const code = err instanceof HopError ? err.code : 'ERROR';
    say({ error: code, message: err instanceof Error ? err.message : String(err) });
    process.exit(EXIT[code] ?? 1);
  },
);
