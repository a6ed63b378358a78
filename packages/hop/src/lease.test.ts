import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseLostError } from './errors.js';
import type { HopFs } from './fs-layer.js';
import { nodeFs } from './fs-layer.js';
import type { LeaseOptions, LeaseRecord } from './lease.js';
import { LeaseManager } from './lease.js';
import { decodeRecord } from './record.js';
import { createCountingFs } from './testing/counting-fs.js';
import type { FakeClock } from './testing/fake-clock.js';
import { createFakeClock } from './testing/fake-clock.js';

let dir: string;
let clock: FakeClock;
const manager = (o: Partial<LeaseOptions> = {}, fs: HopFs = nodeFs) =>
  new LeaseManager({ fs, faults: undefined }, dir, clock, {
    ttlMs: 1000,
    fsync: false,
    bootId: 'boot-a',
    isAlive: () => true,
    maxClockSkewMs: 60_000,
    safetyMarginMs: 50,
    onQuarantine: () => undefined,
    ...o,
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hop-lease-'));
  clock = createFakeClock();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LeaseManager', () => {
  it('grants one holder; a second caller sees the live lease', async () => {
    const a = await manager().tryAcquire('fp');
    expect(a.lease).toMatchObject({ epoch: 1, fingerprint: 'fp', pid: process.pid, bootId: 'boot-a', ttlMs: 1000 });
    const b = await manager().tryAcquire('fp');
    expect(b.lease).toBeUndefined();
    expect(b.view).toMatchObject({ status: 'live', epoch: 1 });
  });

  it('only the nonce holder may release; then the next epoch is granted', async () => {
    const m = manager();
    const { lease } = await m.tryAcquire('fp');
    await expect(m.release({ ...lease!, nonce: 'forged' })).rejects.toBeInstanceOf(LeaseLostError);
    expect((await m.inspect()).status).toBe('live');
    expect(await m.release(lease!)).toBe(true);
    expect(await m.release(lease!)).toBe(false); // already released
    expect((await m.tryAcquire('fp2')).lease?.epoch).toBe(2);
  });

  it('an expired lease is taken over with a higher epoch and the old holder is fenced off', async () => {
    const m = manager();
    const old = (await m.tryAcquire('fp')).lease!;
    clock.advance(1001);
    const next = await manager().tryAcquire('fp');
    expect(next.lease?.epoch).toBe(2);
    await expect(m.assertHolder(old)).rejects.toThrow(/ran out|taken over/);
  });

  it('takes over a lease whose holder died (same boot, pid gone) or belongs to an earlier boot at once', async () => {
    await manager({ isAlive: () => false }).tryAcquire('fp');
    writeFileSync(join(dir, 'x'), ''); // unrelated file is ignored
    // same process pid is never "dead": a second manager in this process must wait
    expect((await manager({ isAlive: () => false }).tryAcquire('fp')).lease).toBeUndefined();
    const otherBoot = await manager({ bootId: 'boot-b' }).tryAcquire('fp');
    expect(otherBoot.lease?.epoch).toBe(2);
    expect(otherBoot.view).toMatchObject({ status: 'free', ended: { reason: 'holder-dead' } });
  });

  it('epochs strictly increase across many acquire/release/expire cycles and old files are pruned', async () => {
    const m = manager();
    let last = 0;
    for (let i = 0; i < 30; i++) {
      const { lease } = await m.tryAcquire(`fp${i}`);
      expect(lease!.epoch).toBeGreaterThan(last);
      last = lease!.epoch;
      if (i % 3 === 0) clock.advance(2000);
      else await m.release(lease!);
    }
    expect(readdirSync(dir).filter((n) => /^lease\.\d+\.rec$/.test(n)).length).toBeLessThanOrEqual(10);
  });

  it('release renames the lease file to its marker (the record is kept); a second release is false, a forged one refused', async () => {
    const m = manager();
    const { lease } = await m.tryAcquire('fp');
    expect(await m.release(lease!)).toBe(true);
    expect(readdirSync(dir).filter((n) => n.startsWith('lease.'))).toEqual(['lease.000000000001.released.rec']);
    const marker = decodeRecord<LeaseRecord>('lease', readFileSync(join(dir, 'lease.000000000001.released.rec')), () => undefined);
    expect(marker).toMatchObject({ ok: true, body: { epoch: 1, nonce: lease!.nonce } });
    // another manager (another process) holding the nonce: already released; without it: refused
    expect(await manager().release(lease!)).toBe(false);
    await expect(manager().release({ ...lease!, nonce: 'forged' })).rejects.toBeInstanceOf(LeaseLostError);
    expect((await m.inspect()).status).toBe('free');
  });

  it('in steady state acquire + release create and delete no file (an old marker is recycled) and list the directory once', async () => {
    const fs = createCountingFs();
    const m = manager({}, fs);
    for (let i = 0; i < 12; i++) await m.release((await m.tryAcquire(`fp${i}`)).lease!);
    fs.reset();
    const { lease } = await m.tryAcquire('fp');
    await m.release(lease!);
    // recycle rename + overwrite in place + link + unlink of the temp name (the file lives on as the lease) + release rename
    expect(fs.counts).toEqual({ fsync: 0, create: 0, trunc: 0, reopen: 1, rename: 2, link: 1, unlink: 1, readdir: 1 });
    expect(lease!.epoch).toBe(13);
    const names = readdirSync(dir).filter((n) => n.startsWith('lease.'));
    // epochs 5..13 in the window, plus 4: the marker the next acquisition recycles as its temp file
    expect(names).toHaveLength(10);
    expect(names[0]).toBe('lease.000000000004.released.rec');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a stale "I released the newest" hint never yields a second holder or a reused epoch', async () => {
    const a = manager();
    const b = manager();
    await a.release((await a.tryAcquire('fp')).lease!); // a's hint: epoch 1 was the newest
    // b takes and releases epoch 2: lease.2.rec is renamed away, so a's guess can link that name again
    await b.release((await b.tryAcquire('fp')).lease!);
    const again = await a.tryAcquire('fp');
    expect(again.lease?.epoch).toBe(3); // never epoch 2 a second time
    // b's release already freed the hinted slot above; now one that is live: the hint must not win
    await a.release(again.lease!);
    const live = await b.tryAcquire('fp');
    expect(live.lease?.epoch).toBe(4);
    expect(await a.tryAcquire('fp')).toMatchObject({ lease: undefined, view: { status: 'live', epoch: 4 } });
  });

  it('a hint pointing at an epoch pruned long ago: the re-list catches it, the caller still gets the next epoch', async () => {
    const a = manager();
    const b = manager();
    await a.release((await a.tryAcquire('fp')).lease!);
    for (let i = 0; i < 12; i++) await b.release((await b.tryAcquire(`fp${i}`)).lease!); // epochs 2..13, 2..4 pruned
    const got = await a.tryAcquire('fp');
    expect(got.lease?.epoch).toBe(14);
    expect(readdirSync(dir)).not.toContain('lease.000000000002.rec'); // the stale link was released at once
  });

  it('ENOSPC writing a recycled lease temp file: no lease, the temp file is removed, the next try succeeds', async () => {
    const { createFaultyFs } = await import('./testing/faulty-fs.js');
    const fs = createFaultyFs();
    const m = manager({}, fs);
    for (let i = 0; i < 10; i++) await m.release((await m.tryAcquire(`fp${i}`)).lease!);
    fs.faults.push({ op: 'write', code: 'ENOSPC', pathIncludes: 'lease.000000000011' });
    await expect(m.tryAcquire('fp')).rejects.toThrow(/lease\.000000000011\.rec failed \(ENOSPC\)/);
    expect(fs.failures).toBe(1);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp') || n === 'lease.000000000011.rec')).toEqual([]);
    fs.faults.length = 0;
    expect((await m.inspect()).status).toBe('free');
    expect((await m.tryAcquire('fp')).lease?.epoch).toBe(11);
  });

  it('quarantines a damaged newest lease but keeps its epoch', async () => {
    const m = manager();
    await m.tryAcquire('fp');
    writeFileSync(join(dir, 'lease.000000000001.rec'), 'argspan-hop/1 lease 00');
    const next = await m.tryAcquire('fp');
    expect(next.view).toMatchObject({ status: 'free', ended: { reason: 'quarantined' } });
    expect(next.lease?.epoch).toBe(2);
    expect(readdirSync(join(dir, 'quarantine'))[0]).toMatch(/^lease\.000000000001\.rec\.truncated\./);
  });

  it('a lease written before a backwards clock jump does not block for the size of the jump', async () => {
    await manager().tryAcquire('fp');
    clock.jumpWall(-3_600_000); // an hour back: the lease now looks acquired an hour in the future
    const next = await manager().tryAcquire('fp');
    expect(next.view).toMatchObject({ status: 'free', ended: { reason: 'clock-skew' } });
    expect(next.lease?.epoch).toBe(2);
  });

  it("the holder's own deadline is monotonic: a backwards wall jump does not extend it", async () => {
    const m = manager();
    const { lease } = await m.tryAcquire('fp');
    clock.jumpWall(-10_000);
    await m.assertHolder(lease!); // still fine
    clock.advance(960); // monotonic time passes beyond ttl - margin
    await expect(m.assertHolder(lease!)).rejects.toThrow(/ran out/);
  });

  it('a forward wall jump past expiry lets another take over; the old holder cannot send', async () => {
    const m = manager();
    const { lease } = await m.tryAcquire('fp');
    clock.jumpWall(5000);
    await expect(m.assertHolder(lease!)).rejects.toBeInstanceOf(LeaseLostError);
    expect((await manager().tryAcquire('fp')).lease?.epoch).toBe(2);
  });

  it('many concurrent acquirers in one process: exactly one wins', async () => {
    const results = await Promise.all(Array.from({ length: 16 }, () => manager().tryAcquire('fp')));
    expect(results.filter((r) => r.lease).length).toBe(1);
  });
});

describe('lease durability option', () => {
  it('fsyncs lease and release files only when fsync is on', async () => {
    const { createFaultyFs } = await import('./testing/faulty-fs.js');
    const fs = createFaultyFs();
    fs.faults.push({ op: 'sync', code: 'EIO', pathIncludes: 'lease.' });
    const make = (fsync: boolean) =>
      new LeaseManager({ fs, faults: undefined }, dir, clock, {
        ttlMs: 1000, fsync, bootId: 'boot-a', isAlive: () => true, maxClockSkewMs: 60_000, safetyMarginMs: 50, onQuarantine: () => undefined,
      });
    const { lease } = await make(false).tryAcquire('fp'); // no fsync: the fault never fires
    await make(false).release(lease!);
    expect(fs.failures).toBe(0);
    await expect(make(true).tryAcquire('fp')).rejects.toThrow(/fsync of .*lease\.000000000002\.rec failed \(EIO\)/);
    expect(fs.failures).toBe(1);
    expect((await make(false).inspect()).epoch).toBe(1); // the failed acquisition left nothing behind
  });
});
