import { spawnSync } from 'node:child_process';
import { inspect } from 'node:util';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HopError, HopStateError, HopTransportError } from './errors.js';
import type { HopFaultPoint } from './faults.js';
import type { HopRequest } from './http-sender.js';
import { createHttpSender } from './http-sender.js';
import { createRemoteHop } from './remote-hop.js';
import { createHopRunner } from './runner.js';
import type { FsOp } from './testing/faulty-fs.js';
import { createFaultyFs } from './testing/faulty-fs.js';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { closedPort, startIdempotentServer } from './testing/idempotent-server.js';
import { createRecorder } from './testing/recorder.js';
import { buildDist, WORKER_JS } from './testing/worker-process.js';

/**
 * Every error out of the public API is a HopError (or a subclass) that names the file or the step
 * and the real cause — and never quotes the payload, a header or the text of someone else's error.
 */
const CANARY = 'ghp_' + 'ErrCanaryQ7xW2mK9pLr3TzV8bN5hJd1FgS6';

let root: string;
let dir: string;
let server: IdempotentServer;
const probe = () => ({ host: '127.0.0.1', port: server.port, timeoutMs: 5000 });
const runner = (stateDir = dir, extra: Record<string, unknown> = {}) => createHopRunner({ stateDir, runId: 'errors', pollMs: 5, probe: probe(), ...extra });
const remote = (index: number) => ({ index, needRemoteCapacity: true });
const failure = (p: Promise<unknown>) => p.then(() => expect.unreachable('expected a rejection'), (e: unknown) => e as HopError);

/** The error is typed, and nothing it carries repeats the canary. */
function expectClean(err: unknown): asserts err is HopError {
  expect(err).toBeInstanceOf(HopError);
  const e = err as HopError;
  const cause = e.cause as Error | undefined;
  const all = `${e.message} ${String(e.stack)} ${cause?.message ?? ''} ${JSON.stringify(e)}`;
  expect(all).not.toContain(CANARY.slice(4));
}

beforeAll(() => buildDist());
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'hop-errors-'));
  dir = join(root, 'state');
  server = await startIdempotentServer();
});
afterEach(async () => {
  await server.close();
  chmodSync(root, 0o700);
  rmSync(root, { recursive: true, force: true });
});

describe('hostile payloads', () => {
  const throwingGetter = () => Object.defineProperty({ a: 1 }, 'b', { enumerable: true, get: () => { throw new Error(`leak ${CANARY}`); } });
  const revoked = () => {
    const p = Proxy.revocable({}, {});
    p.revoke();
    return { inner: p.proxy };
  };
  const cyclic = () => {
    const o: Record<string, unknown> = { note: CANARY };
    o.again = [o];
    return o;
  };
  const cases: [string, () => unknown][] = [
    ['a BigInt', () => ({ n: 10n, note: CANARY })],
    ['a throwing getter', throwingGetter],
    ['a revoked proxy', revoked],
    ['a cycle', cyclic],
  ];

  it.each(cases)('%s: runHop and createRemoteHop reject with HOP_PAYLOAD; nothing is sent or checkpointed', async (_name, make) => {
    const send = createHttpSender({ url: server.url });
    const err = await failure(runner().runHop({ step: remote(0), payload: make(), send }));
    expectClean(err);
    expect(err.code).toBe('HOP_PAYLOAD');
    expect(err.message).toMatch(/^step 0: payload is not serialisable to JSON/);
    const hop = createRemoteHop(runner(), { send });
    const viaRemote = await failure(hop({ tool: 't', callId: 'c', args: make() }, createRecorder()));
    expectClean(viaRemote);
    expect(viaRemote.code).toBe('HOP_PAYLOAD');
    expect(server.received).toEqual([]);
    expect(await runner().readCheckpoint()).toBeUndefined();
  });

  it('a local result that cannot become JSON: HOP_PAYLOAD, not a TypeError', async () => {
    const hop = createRemoteHop(runner(), { send: createHttpSender({ url: server.url }), runLocal: async () => ({ big: 1n }) });
    const err = await failure(hop({ tool: 't', callId: 'c', args: { a: 1 }, residency: 'secret' }, createRecorder()));
    expectClean(err);
    expect(err.code).toBe('HOP_PAYLOAD');
  });
});

describe('callers’ code that throws', () => {
  it('a custom send: HopTransportError (outcome unknown), its message not repeated', async () => {
    const send = async () => {
      throw new Error(`proxy said no to ${CANARY}`);
    };
    const err = await failure(runner().runHop({ step: remote(0), payload: 'p', send }));
    expectClean(err);
    expect(err).toBeInstanceOf(HopTransportError);
    expect(err.message).toMatch(/send for step 0 failed \(Error\)/);
  });

  it.each([
    ['nothing', undefined],
    ['no body', { status: 204 }],
    ['a body that is not text', { status: 200, body: { ok: true } }],
    ['a status that is not a number', { status: '200', body: 'ok' }],
  ])('a custom send resolving %s: HopTransportError (the remote may have acted), the step left in flight', async (_name, answer) => {
    const send = async () => answer as unknown as { status: number; body: string };
    const err = await failure(runner().runHop({ step: remote(0), payload: 'p', send }));
    expectClean(err);
    expect(err).toBeInstanceOf(HopTransportError);
    expect(err.message).toMatch(/resolved without \{ status: integer, body: string \}/);
    expect(await runner().readCheckpoint()).toMatchObject({ step: 0, phase: 'intent' });
  });

  it('step and decode hooks of createRemoteHop: HOP_HOOK', async () => {
    const send = createHttpSender({ url: server.url });
    const badStep = createRemoteHop(runner(), { send, step: () => { throw new Error(CANARY); } });
    const e1 = await failure(badStep({ tool: 't', callId: 'c', args: 1 }, createRecorder()));
    expectClean(e1);
    expect(e1.code).toBe('HOP_HOOK');
    const badDecode = createRemoteHop(runner(), { send, decode: async (body) => JSON.parse(`${body} ${CANARY}`) });
    const e2 = await failure(badDecode({ tool: 't', callId: 'c', args: 1 }, createRecorder()));
    expectClean(e2);
    expect(e2.message).toMatch(/decode hook of createRemoteHop threw for step \d+/);
  });

  it('createRemoteHop: a malformed call is a HopError; an error of the local tool itself passes through as thrown', async () => {
    const send = createHttpSender({ url: server.url });
    class QuotaError extends Error {}
    const hop = createRemoteHop(runner(), { send, runLocal: async () => { throw new QuotaError('tool says no'); } });
    expectClean(await failure(hop(undefined as never, createRecorder())));
    const local = await failure(hop({ tool: 't', callId: 'c', args: 1, residency: 'secret' }, createRecorder()));
    expect(local).toBeInstanceOf(QuotaError);
  });

  it('createHttpSender: an invalid URL or header is HOP_CONFIG, neither repeated', async () => {
    expect(() => createHttpSender({ url: `http://user:${CANARY}@[::1` })).toThrow(HopError);
    try {
      createHttpSender({ url: `not a url ${CANARY}` });
    } catch (err) {
      expectClean(err);
      expect(err.code).toBe('HOP_CONFIG');
    }
    const send = createHttpSender({ url: server.url, headers: { authorization: `Bearer ${CANARY}\n` } });
    const err = await failure(runner().runHop({ step: remote(0), payload: 'p', send }));
    expectClean(err);
    expect(err.code).toBe('HOP_CONFIG');
    expect(server.received).toEqual([]);
  });

  it('createHopRunner: a wrong option is HOP_CONFIG', () => {
    for (const options of [undefined, { probe: probe(), stateDir: 42 }, { probe: probe(), hashKey: 'short' }, { probe: probe(), leaseTtlMs: '5' }]) {
      expect(() => createHopRunner(options as never)).toThrow(HopError);
    }
  });
});

describe('state directories that cannot be used', () => {
  it('a regular file in the path (ENOTDIR, fails for root too): HopStateError naming the directory', async () => {
    writeFileSync(join(root, 'file'), 'x');
    const stateDir = join(root, 'file', 'state');
    const err = await failure(runner(stateDir).runHop({ step: remote(0), payload: 'p', send: createHttpSender({ url: server.url }) }));
    expect(err).toBeInstanceOf(HopStateError);
    expect(err).toMatchObject({ errno: 'ENOTDIR' });
    expect(err.message).toContain(stateDir);
  });

  it('a credential in the state directory\'s path is its marker in the message and the cause kept', async () => {
    writeFileSync(join(root, `cache-${CANARY}`), 'x');
    const stateDir = join(root, `cache-${CANARY}`, 'state');
    const err = await failure(runner(stateDir).boot());
    expect(err).toBeInstanceOf(HopStateError);
    expect(err).toMatchObject({ errno: 'ENOTDIR' });
    expect(err.message).toContain(join(root, 'cache-[REDACTED:github-pat]', 'state'));
    expectClean(err);
    expect(inspect(err, { depth: 5 })).not.toContain(CANARY.slice(4));
    // every checkpoint generation damaged: the directory is named too
    const damaged = join(root, `state-${CANARY}`);
    await runner(damaged).recordLocalResult({ step: 0, output: 'x' });
    for (const name of readdirSync(damaged)) if (name.startsWith('checkpoint.')) writeFileSync(join(damaged, name), 'garbage');
    const halted = await failure(runner(damaged).boot());
    expect(halted.message).toContain('state-[REDACTED:github-pat]');
    expectClean(halted);
  });

  it('a path under /proc (read-only, and where Node 20 recursive mkdir spins): HopStateError at once', async () => {
    const stateDir = `/proc/argspan-${process.pid}/state`;
    const err = await failure(runner(stateDir).boot());
    expect(err).toBeInstanceOf(HopStateError);
    expect(err.message).toMatch(new RegExp(`cannot create state directory ${stateDir} \\(ENOENT at /proc/argspan-${process.pid}\\)`));
  });

  it('a state directory this process may not write (foreign-owned, or mode 0500): HopStateError, EACCES', async () => {
    mkdirSync(dir, { mode: 0o700 });
    let error: { error: string; message: string; errno?: string };
    if (process.getuid?.() === 0) {
      // root writes through mode bits: boot as another user instead, as the owner's neighbour would
      chmodSync(root, 0o755);
      const r = spawnSync(process.execPath, [WORKER_JS], {
        env: { ...process.env, HOP_WORKER_MODE: 'race', HOP_STATE_DIR: dir, HOP_PROBE_PORT: String(server.port) },
        uid: 65534,
        gid: 65534,
        input: 'exit\n',
        encoding: 'utf8',
      });
      // (the worker runs as uid 65534: the checkout must be readable by others, which a clone inside a mode-0700 directory is not)
      expect(r.stdout.trim(), `the worker, run as uid 65534, wrote nothing; its stderr: ${r.stderr}`).not.toBe('');
      error = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as typeof error;
    } else {
      chmodSync(dir, 0o500);
      const err = await failure(runner().boot());
      error = { error: err.code, message: err.message, errno: (err as HopStateError).errno };
    }
    expect(error.error).toBe('HOP_STATE');
    expect(error.message).toMatch(/EACCES/);
    expect(error.message).toContain(dir);
  });

  it('a directory where hash.key should be: HopStateError naming hash.key (EISDIR)', async () => {
    mkdirSync(join(dir, 'hash.key'), { recursive: true });
    const err = await failure(runner().boot());
    expect(err).toBeInstanceOf(HopStateError);
    expect(err).toMatchObject({ errno: 'EISDIR' });
    expect(err.message).toContain(join(dir, 'hash.key'));
  });

  it('a damaged hash.key: HopStateError naming it, its content not quoted, the file kept', async () => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'hash.key'), `oops ${CANARY}\n`);
    const err = await failure(runner().boot());
    expectClean(err);
    expect(err).toBeInstanceOf(HopStateError);
    expect(err.message).toMatch(/hash\.key is damaged/);
    expect(readFileSync(join(dir, 'hash.key'), 'utf8')).toContain(CANARY);
  });

  it('leftovers of a first boot killed mid-key (an empty hash.key of an older version, a temp file): boot succeeds, processes agree', async () => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'hash.key'), '', { mode: 0o600 });
    const deadPid = 2 ** 22 + 1; // above the default pid_max: never a live process
    writeFileSync(join(dir, `.hash.key.${deadPid}.0badc0de.tmp`), 'f'.repeat(64) + '\n', { mode: 0o600 });
    const [a, b] = await Promise.all([runner().runHop({ step: { index: 0 }, payload: 'same', send: createHttpSender({ url: server.url }) }), runner().runHop({ step: { index: 0 }, payload: 'same', send: createHttpSender({ url: server.url }) })]);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(readdirSync(dir).filter((n) => n.includes('hash.key'))).toEqual(['hash.key']); // the dead writer's temp file is gone
    expect(readFileSync(join(dir, 'hash.key'), 'utf8')).toMatch(/^[0-9a-f]{64}\n/);
  });

  it('EROFS, injected on the directory or on a checkpoint write: HopStateError with errno EROFS', async () => {
    const fs = createFaultyFs();
    fs.faults.push({ op: 'mkdir', code: 'EROFS' });
    const e1 = await failure(runner(dir, { fs }).boot());
    expect(e1).toMatchObject({ errno: 'EROFS' });
    expect(e1.message).toContain(`cannot create state directory ${dir} (EROFS)`);
    fs.faults.length = 0;
    fs.faults.push({ op: 'open', code: 'EROFS', pathIncludes: 'checkpoint' });
    const e2 = await failure(runner(dir, { fs }).runHop({ step: remote(0), payload: 'p', send: createHttpSender({ url: server.url }) }));
    expect(e2).toMatchObject({ errno: 'EROFS' });
    expect(e2.message).toMatch(/checkpoint.*EROFS/);
  });
});

describe('any file-system call failing anywhere', () => {
  const ops: FsOp[] = ['open', 'write', 'sync', 'dirsync', 'rename', 'link', 'readdir', 'readFile', 'mkdir'];
  it('rejects only with HopError: boot, runHop (remote and queued), drainQueue, recordLocalResult', async () => {
    const badPort = await closedPort();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ops), fc.constantFrom('ENOSPC' as const, 'EACCES' as const, 'EIO' as const, 'EROFS' as const), fc.nat(12), async (op, code, skip) => {
        const stateDir = join(root, `p${n++}`);
        const fs = createFaultyFs();
        fs.faults.push({ op, code, skip });
        const r = runner(stateDir, { fs, runId: 'prop' });
        const send = createHttpSender({ url: server.url });
        const calls: (() => Promise<unknown>)[] = [
          () => r.boot(),
          () => r.runHop({ step: remote(0), payload: { note: CANARY }, send }),
          () => r.runHop({ step: remote(1), payload: { note: CANARY }, send, probe: { host: '127.0.0.1', port: badPort, timeoutMs: 150 } }),
          () => r.drainQueue({ send }),
          () => r.recordLocalResult({ step: 2, output: { note: CANARY } }),
        ];
        for (const call of calls) {
          await call().catch((err: unknown) => expectClean(err));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a fault hook at every protocol point that throws a plain Error: still a HopError out of runHop', async () => {
    const points: HopFaultPoint[] = ['probe:after', 'checkpoint-intent:after-write', 'lease:after-acquire', 'send:before', 'checkpoint-done:after-rename', 'release:after'];
    for (const point of points) {
      const stateDir = join(root, point.replace(/:/g, '-'));
      const faults = (p: HopFaultPoint) => {
        if (p === point) throw new TypeError(`hook ${CANARY}`);
      };
      const err = await failure(runner(stateDir, { faults }).runHop({ step: remote(0), payload: 'p', send: (req: HopRequest) => createHttpSender({ url: server.url })(req) }));
      expectClean(err);
    }
  });
});
