import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_KEY_FILE, KEY_STEPS, loadOrCreateHashKey } from './hash-key-file.js';
import type { KeyStep } from './hash-key-file.js';
import { createValueHasher } from './keyed-hash.js';

/**
 * First boot, crashed: a real child process creating the hash key is SIGKILLed right after each
 * file-system step of key creation (and of the repair of an empty legacy key file). Then several
 * processes boot at once: every one succeeds, they all use one key, and a key that was already in
 * place before the kill is the one they use.
 */
const WORKER_JS = fileURLToPath(new URL('../dist/testing/hash-key-worker.js', import.meta.url));
const PKG = fileURLToPath(new URL('..', import.meta.url));
/** Child processes that boot together after each kill, with the test process as one more. */
const RACERS = 1;

const root = mkdtempSync(join(tmpdir(), 'argspan-key-crash-'));
beforeAll(() => {
  // the worker runs compiled: bring dist/ up to date (incremental, about a second when unchanged)
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', join(PKG, 'tsconfig.json')], { stdio: 'pipe' });
  if (!existsSync(WORKER_JS)) throw new Error(`${WORKER_JS} missing after tsc -b`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function startWorker(env: Record<string, string>): Run {
  const child = spawn(process.execPath, [WORKER_JS], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let out = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      lines.push(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
      out = out.slice(nl + 1);
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  // ('close', not 'exit': the child's last line may still be on its way through the pipe when it exits)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, lines, exited };
}

/**
 * Start `n` workers, wait until each is ready, release them together and boot in this process
 * too; the fingerprints of all `n + 1`.
 */
async function race(dir: string, n: number): Promise<string[]> {
  const runs = Array.from({ length: n }, () => startWorker({ KEY_STATE_DIR: dir, KEY_WAIT_GO: '1' }));
  await Promise.all(
    runs.map(
      (r) =>
        new Promise<void>((resolve, reject) => {
          const check = () => (r.lines.some((l) => l.ready) ? resolve() : undefined);
          r.child.stdout!.on('data', () => setImmediate(check));
          void r.exited.then((e) => reject(new Error(`worker exited before it was ready: ${e.stderr}`)));
        }),
    ),
  );
  for (const r of runs) r.child.stdin!.end('go\n');
  const here = await fingerprintOf(dir);
  const exits = await Promise.all(runs.map((r) => r.exited));
  return [
    here,
    ...runs.map((r, i) => {
      if (exits[i]!.code !== 0) throw new Error(`boot failed: ${JSON.stringify(r.lines)} ${exits[i]!.stderr}`);
      return r.lines.at(-1)!.fingerprint as string;
    }),
  ];
}

const fingerprintOf = async (dir: string) => createValueHasher(await loadOrCreateHashKey(dir)).hash('argspan hash key check');

describe('hash key creation survives SIGKILL at every step', () => {
  const cases: [KeyStep, 'fresh' | 'legacy-empty'][] = KEY_STEPS.map((s) => [s, s.startsWith('repair-') ? 'legacy-empty' : 'fresh']);

  // concurrent: each case has its own directory, and most of the time is process start-up
  it.concurrent.for(cases)('killed after %s (%s state directory): the next boot succeeds and every process uses one key', async ([step, start], { expect }) => {
    const dir = join(root, step);
    if (start === 'legacy-empty') {
      // what an older version left when killed between creating the key file and writing it
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, HASH_KEY_FILE), '', { mode: 0o600 });
    }
    const killed = startWorker({ KEY_STATE_DIR: dir, KEY_CRASH_AT: step });
    const exit = await killed.exited;
    expect(exit.signal, `step ${step} was never reached: ${JSON.stringify(killed.lines)} ${exit.stderr}`).toBe('SIGKILL');

    // a key already in place when the process died is never replaced
    const keyFile = join(dir, HASH_KEY_FILE);
    const placed = existsSync(keyFile) && statSync(keyFile).size > 0 ? await fingerprintOf(dir) : undefined;
    const prints = await race(dir, RACERS);
    expect(new Set(prints).size, `fingerprints after a kill at ${step}`).toBe(1);
    if (placed) expect(prints[0]).toBe(placed);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    // the killed process's temp file, if it left one, was removed by the next loads
    expect(readdirSync(dir)).toEqual([HASH_KEY_FILE]);
  });

  it('7 processes booting together on a fresh directory create one key', async () => {
    const prints = await race(join(root, 'fresh-race'), 6);
    expect(new Set(prints).size).toBe(1);
    expect(readdirSync(join(root, 'fresh-race'))).toEqual([HASH_KEY_FILE]);
  });
});
