import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HopFaultPoint } from './faults.js';
import { PROTOCOL_POINTS, WRITE_STAGES } from './faults.js';
import type { RecordKind } from './record.js';
import { decodeRecord } from './record.js';
import type { IdempotentServer, IdempotentServerOptions } from './testing/idempotent-server.js';
import { closedPort, startIdempotentServer } from './testing/idempotent-server.js';
import { filesContaining } from './testing/state-files.js';
import { buildDist, startWorker } from './testing/worker-process.js';

/**
 * Crash matrix: a child process runs a loop (every third step probes a dead port, so it is queued;
 * the queue drains after the next remote step) against a loopback remote that honours
 * Idempotency-Key and counts side effects. One state directory lives through a chain of runs, each
 * SIGKILLed at the next named step (every write stage and protocol step, first and later
 * occurrences); after every kill no record is torn; a final clean run finishes the loop, and each
 * step's side effect happened exactly once, queued steps in FIFO order.
 * Tune with HOP_CRASH_REPEAT (passes over the matrix) and HOP_RANDOM_KILLS (random-timing runs).
 */
const REPEAT = Number(process.env.HOP_CRASH_REPEAT ?? '1');
const RANDOM_KILLS = Number(process.env.HOP_RANDOM_KILLS ?? '5');
const CANARY = 'ghp_' + 'CrashCanaryCrashCanaryCrashCanary123';

const points: [HopFaultPoint, number][] = [];
for (const kind of ['checkpoint-intent', 'checkpoint-done', 'checkpoint-queued', 'enqueue', 'queue-done'] as const) {
  for (const stage of WRITE_STAGES) points.push([`${kind}:${stage}`, 1]);
}
// lease files are linked into place without fsync; release markers are a single exclusive create
for (const stage of ['before-write', 'after-write', 'after-rename'] as const) points.push([`lease:${stage}`, 1]);
for (const stage of ['before-write', 'after-write'] as const) points.push([`release:${stage}`, 1]);
for (const p of PROTOCOL_POINTS) points.push([p, 1]);
// later occurrences: a crash in the second hop of a run, in the second drained item, ...
for (const p of ['checkpoint-intent:after-rename', 'checkpoint-done:after-fsync', 'lease:after-acquire', 'send:after-response', 'queue-done:after-rename', 'dequeue:before-unlink', 'release:after'] as const) {
  points.push([p, 2]);
}

let badPort: number;
beforeAll(async () => {
  buildDist();
  badPort = await closedPort();
});

/** Record kinds a state file may hold; a release marker is the renamed lease (or a tombstone). */
const KIND_OF: [RegExp, RecordKind[]][] = [
  [/^checkpoint\.\d+\.rec$/, ['checkpoint']],
  [/^lease\.\d+\.rec$/, ['lease']],
  [/^lease\.\d+\.released\.rec$/, ['lease', 'lease-release']],
  [/^\d+\.item\.rec$/, ['queue-item']],
  [/^\d+\.done\.rec$/, ['queue-done']],
];

/** Every record on disk decodes (old or new, never torn) and nothing was quarantined. */
function assertNoTornState(dir: string, when: string): void {
  for (const sub of ['', 'queue']) {
    if (!existsSync(join(dir, sub))) continue; // killed before boot created it
    for (const name of readdirSync(join(dir, sub))) {
      const kinds = KIND_OF.find(([re]) => re.test(name))?.[1];
      if (!kinds) continue; // temp files (a recycled generation or marker among them), hash.key, sub-directories
      const data = readFileSync(join(dir, sub, name));
      const results = kinds.map((kind) => decodeRecord(kind, data, () => undefined));
      const r = results.find((x) => x.ok) ?? results[0]!;
      expect(r.ok, `${when}: ${sub}/${name} is ${r.ok ? 'ok' : r.defect}`).toBe(true);
    }
  }
  if (existsSync(join(dir, 'quarantine'))) expect(readdirSync(join(dir, 'quarantine')), when).toEqual([]);
}

function assertExactlyOnce(server: IdempotentServer, steps: number, queueEvery: number): void {
  const applied = server.applied.map((a) => (JSON.parse(a.body) as { step: number }).step);
  expect([...applied].sort((a, b) => a - b)).toEqual(Array.from({ length: steps }, (_, i) => i));
  expect([...server.sideEffects.values()].every((n) => n === 1)).toBe(true);
  expect(server.sideEffects.size).toBe(steps);
  const queuedOrder = applied.filter((s) => s % queueEvery === 1);
  expect(queuedOrder).toEqual([...queuedOrder].sort((a, b) => a - b)); // the queue drained in FIFO order
  for (const body of server.received) expect(body).not.toContain(CANARY);
}

async function scenario(
  steps: number,
  run: (env: Record<string, string>, dir: string) => Promise<void>,
  serverOptions: IdempotentServerOptions = {},
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hop-crash-'));
  const server = await startIdempotentServer(serverOptions);
  try {
    const env = {
      HOP_WORKER_MODE: 'loop',
      HOP_STATE_DIR: dir,
      HOP_RUN_ID: 'crash-run',
      HOP_SERVER_URL: server.url,
      HOP_PROBE_PORT: String(server.port),
      HOP_BAD_PORT: String(badPort),
      HOP_STEPS: String(steps),
      HOP_QUEUE_EVERY: '3',
      HOP_CANARY: CANARY,
    };
    await run(env, dir);
    const final = startWorker(env);
    const exit = await final.exited;
    expect(exit.code, exit.stderr + JSON.stringify(final.lines)).toBe(0);
    expect(final.lines.at(-1)).toEqual({ done: true });
    assertExactlyOnce(server, steps, 3);
    assertNoTornState(dir, 'after the final run');
    // leftovers of the killed runs (temp files, recycled generations and markers) were removed at
    // boot, and a clean run leaves none between writes
    for (const sub of ['', 'queue']) expect(readdirSync(join(dir, sub)).filter((n) => n.endsWith('.tmp')), `temp files in /${sub}`).toEqual([]);
    expect(readdirSync(join(dir, 'queue')).filter((n) => n.endsWith('.rec'))).toEqual([]);
    expect(filesContaining(dir, [CANARY, CANARY.slice(4)])).toEqual([]);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('crash matrix', () => {
  const chain = Array.from({ length: REPEAT }, () => points).flat();
  it(`SIGKILL at each of ${points.length} named steps in turn (x${REPEAT}), restart after each, then finish`, async () => {
    // a killed run advances the loop by about one step (45 kills used 36 steps): leave a wide margin;
    // too few steps would fail loudly ("never reached"), never pass silently
    await scenario(Math.ceil(chain.length * 1.5) + 20, async (env, dir) => {
      for (const [point, nth] of chain) {
        const w = startWorker({ ...env, HOP_CRASH_AT: point, HOP_CRASH_NTH: String(nth) });
        const exit = await w.exited;
        expect(exit.signal, `${point} #${nth} was never reached: ${JSON.stringify(w.lines.slice(-3))} ${exit.stderr}`).toBe('SIGKILL');
        assertNoTornState(dir, `after a kill at ${point} #${nth}`);
      }
    });
  });

  it(`random-timing kills (${RANDOM_KILLS} runs, up to 3 kills each)`, async () => {
    let seed = Number(process.env.HOP_CRASH_SEED ?? Date.now() % 100_000);
    const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const used = seed;
    let killed = 0;
    let attempted = 0;
    for (let i = 0; i < RANDOM_KILLS; i++) {
      await scenario(6, async (env, dir) => {
        const kills = 1 + Math.floor(rand() * 3);
        for (let k = 0; k < kills; k++) {
          const w = startWorker(env);
          // aim at the protocol, not at Node's start-up: a random moment after the worker booted.
          // The remote answers after 60 ms, so a run lasts at least 360 ms (6 sends) after boot on
          // any machine: every kill drawn in [0, 150) ms lands before the loop can finish, with
          // 200 ms to spare for the boot line reaching this process.
          const delay = Math.floor(rand() * 150);
          attempted++;
          let timer: NodeJS.Timeout | undefined;
          w.waitFor((l) => 'boot' in l).then(
            () => (timer = setTimeout(() => w.child.kill('SIGKILL'), delay)),
            () => undefined,
          );
          if ((await w.exited).signal === 'SIGKILL') killed++;
          clearTimeout(timer);
          assertNoTornState(dir, `random kill ${k} of run ${i}`);
        }
      }, { delayMs: 60 }).catch((err: unknown) => {
        throw new Error(`random kill run ${i} failed (HOP_CRASH_SEED=${used}): ${String(err)}`);
      });
    }
    expect(killed).toBe(attempted); // every kill landed mid-protocol
  });
});
