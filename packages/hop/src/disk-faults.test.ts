import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HopStateError } from './errors.js';
import type { HopRequest } from './http-sender.js';
import { createHttpSender } from './http-sender.js';
import { createHopRunner } from './runner.js';
import type { FsFault } from './testing/faulty-fs.js';
import { createFaultyFs } from './testing/faulty-fs.js';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { startIdempotentServer } from './testing/idempotent-server.js';

let dir: string;
let server: IdempotentServer;
let fs: ReturnType<typeof createFaultyFs>;

const runner = (ttl = 30_000) =>
  createHopRunner({ stateDir: dir, runId: 'run', fs, leaseTtlMs: ttl, pollMs: 5, probe: { host: '127.0.0.1', port: server.port, timeoutMs: 5000 } });
const step = (index: number) => ({ index, needRemoteCapacity: true });
const temps = () => [...readdirSync(dir), ...readdirSync(join(dir, 'queue'))].filter((n) => n.endsWith('.tmp'));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hop-disk-'));
  server = await startIdempotentServer();
  fs = createFaultyFs();
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('disk errors through the injected fs layer', () => {
  const writeFaults: [string, FsFault][] = [
    ['ENOSPC on write', { op: 'write', code: 'ENOSPC', pathIncludes: 'checkpoint' }],
    ['EIO on fsync', { op: 'sync', code: 'EIO', pathIncludes: 'checkpoint' }],
    ['EACCES on rename', { op: 'rename', code: 'EACCES', pathIncludes: 'checkpoint' }],
    ['EACCES creating the temp file', { op: 'open', code: 'EACCES', pathIncludes: 'checkpoint' }],
    ['EIO on the directory fsync', { op: 'dirsync', code: 'EIO' }],
  ];

  it.each(writeFaults)('%s of the write-ahead checkpoint: no hop, old state intact, error surfaced', async (_name, fault) => {
    const send = createHttpSender({ url: server.url });
    await runner().runHop({ step: step(0), payload: 'first', send });
    const before = await runner().readCheckpoint();
    fs.faults.push(fault);
    let sent = 0;
    const counting = async (req: HopRequest) => (sent++, send(req));
    const err = await runner().runHop({ step: step(1), payload: 'second', send: counting }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(HopStateError);
    expect(err.message).toContain(fault.code);
    expect(sent).toBe(0);
    expect(server.received).toHaveLength(1);
    fs.faults.length = 0;
    // a failed directory fsync happens after the rename: the new generation is visible but the hop did not run
    const after = await runner().readCheckpoint();
    if (fault.op === 'dirsync') expect(after).toMatchObject({ step: 1, phase: 'intent' });
    else expect(after).toEqual(before);
    expect(temps()).toEqual([]);
    expect((await runner().inspectLease()).status).toBe('free');
  });

  it('ENOSPC creating the lease: no hop', async () => {
    fs.faults.push({ op: 'write', code: 'ENOSPC', pathIncludes: 'lease' });
    await expect(runner().runHop({ step: step(0), payload: 'p', send: createHttpSender({ url: server.url }) })).rejects.toThrow(/lease.*ENOSPC/);
    expect(server.received).toHaveLength(0);
    expect(temps()).toEqual([]);
  });

  it('ENOSPC on the result checkpoint: error surfaced, lease kept (result not durable), retry sends the same key once', async () => {
    const send = createHttpSender({ url: server.url });
    const failAfterSend = async (req: HopRequest) => {
      const res = await send(req);
      fs.faults.push({ op: 'write', code: 'ENOSPC', pathIncludes: 'checkpoint' });
      return res;
    };
    const r = runner(1000);
    await expect(r.runHop({ step: step(0), payload: 'p', send: failAfterSend })).rejects.toThrow(/ENOSPC/);
    expect(await r.inspectLease()).toMatchObject({ status: 'live', epoch: 1 });
    expect(await r.readCheckpoint()).toMatchObject({ step: 0, phase: 'intent' });
    fs.faults.length = 0;
    const out = await runner(1000).runHop({ step: step(0), payload: 'p', send });
    expect(out).toMatchObject({ decision: 'remote', epoch: 2 }); // waited out the un-released lease
    expect([...server.sideEffects.values()]).toEqual([1]);
    expect(new Set(server.keysSeen).size).toBe(1);
  });

  it('an unreadable state directory halts boot with a clear error', async () => {
    await runner().boot();
    fs.faults.push({ op: 'readdir', code: 'EACCES' });
    await expect(runner().boot()).rejects.toThrow(/unreadable \(EACCES\)/);
  });
});

describe('state files that are not regular files', () => {
  // A FIFO under a state file's name: reading it would block the event loop (or, for the key, a
  // thread) for good. Real FIFOs, the real fs layer.
  it.each(['checkpoint.000000000001.rec', 'lease.000000000001.rec', 'hash.key'])('%s as a FIFO: boot rejects naming the file (EINVAL) instead of blocking', async (name) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'hop-fifo-'));
    try {
      expect(spawnSync('mkfifo', [join(stateDir, name)]).status).toBe(0);
      // (before, the read never returned: the test timed out)
      const err = await createHopRunner({ stateDir, probe: async () => ({ ok: true, reason: 'ok', rttMs: 1 }) }).boot().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HopStateError);
      expect(String((err as Error).message)).toContain(name);
      expect(String((err as Error).message)).toContain('EINVAL');
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
