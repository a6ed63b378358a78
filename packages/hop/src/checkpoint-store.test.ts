import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSecretDetector } from '@argspan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointInput } from './checkpoint-store.js';
import { CheckpointStore } from './checkpoint-store.js';
import { nodeFs } from './fs-layer.js';
import { HopStateError } from './errors.js';
import { WRITE_STAGES } from './faults.js';
import type { QuarantineReport } from './quarantine.js';
import { decodeRecord } from './record.js';
import { createCountingFs } from './testing/counting-fs.js';
import { createFaultyFs } from './testing/faulty-fs.js';

let dir: string;
let reports: QuarantineReport[];
const store = () => new CheckpointStore({ fs: nodeFs, faults: undefined }, dir, defaultSecretDetector, (r) => reports.push(r), () => 1000);
const input = (step: number, o: Partial<CheckpointInput> = {}): CheckpointInput => ({ runId: 'r', step, phase: 'done', goal: 'goal', flags: {}, ...o });
const gens = () => readdirSync(dir).filter((n) => n.startsWith('checkpoint.')).sort();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hop-cp-'));
  reports = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('CheckpointStore', () => {
  it('reads undefined on a fresh directory and the newest generation after writes', async () => {
    const s = store();
    expect(await s.load()).toBeUndefined();
    await s.write(input(0), 'checkpoint-done');
    await s.write(input(1, { lastOutput: 'out 1' }), 'checkpoint-done');
    expect(await s.load()).toMatchObject({ step: 1, generation: 2, lastOutput: 'out 1' });
  });

  it('keeps the newest three generations; in steady state a write recycles the oldest: no file created or deleted', async () => {
    const fs = createCountingFs();
    const s = new CheckpointStore({ fs, faults: undefined }, dir, defaultSecretDetector, (r) => reports.push(r), () => 1000);
    for (let i = 0; i < 3; i++) await s.write(input(i), 'checkpoint-done');
    expect(fs.counts).toMatchObject({ create: 3, reopen: 0, unlink: 0 });
    for (let i = 3; i < 6; i++) {
      fs.reset();
      await s.write(input(i), 'checkpoint-done');
      // recycle (rename), overwrite in place (reopen), fsync, rename into place, fsync the directory;
      // no listing: the store knows what its last write left on disk
      expect(fs.counts).toEqual({ create: 0, trunc: 0, reopen: 1, rename: 2, link: 0, unlink: 0, fsync: 2, readdir: 0 });
    }
    expect(gens()).toEqual(['checkpoint.000000000004.rec', 'checkpoint.000000000005.rec', 'checkpoint.000000000006.rec']);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]); // nothing left between writes
    expect(await s.load()).toMatchObject({ generation: 6, step: 5 });
  });

  it('two writers (two processes) alternating on one directory: each write is the next generation, the newest wins', async () => {
    const a = store();
    const b = store();
    let last = 0;
    for (let i = 0; i < 12; i++) {
      // a runs three writes, b one, a two, ...: each one's knowledge of the directory goes stale
      const w = i % 4 === 3 || i % 5 === 0 ? b : a;
      const cp = await w.write(input(i, { lastOutput: `out ${i}` }), 'checkpoint-done');
      expect(cp.generation).toBe(++last);
      expect(gens().at(-1)).toBe(`checkpoint.${String(last).padStart(12, '0')}.rec`);
    }
    expect(await store().load()).toMatchObject({ generation: 12, lastOutput: 'out 11' });
    expect(gens()).toHaveLength(3);
  });

  it('a write refused for a secret puts the recycled generation back untouched', async () => {
    const s = store();
    for (let i = 0; i < 4; i++) await s.write(input(i, { lastOutput: `out ${i}` }), 'checkpoint-done');
    const before = gens().map((g) => readFileSync(join(dir, g), 'utf8'));
    const key = 'ghp_k8Qz3Lm9Tr2Wx7Vb4Np6Hd1Js5Fg0Ca2Ye8U';
    await expect(s.write(input(4, { flags: { [key]: true } }), 'checkpoint-done')).rejects.toThrow(/secret rule github-pat/);
    expect(gens().map((g) => readFileSync(join(dir, g), 'utf8'))).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect((await s.write(input(4), 'checkpoint-done')).generation).toBe(5);
  });

  it('a recycled file shorter or longer than the new record holds exactly the new record', async () => {
    const s = store();
    for (let i = 0; i < 3; i++) await s.write(input(i, { lastOutput: 'x'.repeat(5000) }), 'checkpoint-done');
    await s.write(input(3, { lastOutput: 'short' }), 'checkpoint-done'); // overwrites generation 1 (5 KB) in place
    await s.write(input(4, { lastOutput: 'y'.repeat(9000) }), 'checkpoint-done');
    expect(await s.load()).toMatchObject({ generation: 5, lastOutput: 'y'.repeat(9000) });
    const fresh = new CheckpointStore({ fs: nodeFs, faults: undefined }, dir, defaultSecretDetector, (r) => reports.push(r), () => 1000);
    rmSync(join(dir, 'checkpoint.000000000005.rec'));
    expect(await fresh.load()).toMatchObject({ generation: 4, lastOutput: 'short' });
    expect(reports).toEqual([]);
  });

  it.each([
    ['ENOSPC on write', { op: 'write', code: 'ENOSPC' }],
    ['EIO on fsync', { op: 'sync', code: 'EIO' }],
    ['EACCES on the rename into place', { op: 'rename', code: 'EACCES', pathIncludes: 'checkpoint.000000000004.rec' }],
  ] as const)('%s of a recycled temp file: error surfaced, two good generations left, temp removed', async (_name, fault) => {
    const fs = createFaultyFs();
    const s = new CheckpointStore({ fs, faults: undefined }, dir, defaultSecretDetector, (r) => reports.push(r), () => 1000);
    for (let i = 0; i < 3; i++) await s.write(input(i, { lastOutput: `out ${i}` }), 'checkpoint-done');
    fs.faults.push({ pathIncludes: 'checkpoint', ...fault });
    await expect(s.write(input(3), 'checkpoint-done')).rejects.toThrow(new RegExp(`checkpoint\\.000000000004\\.rec failed \\(${fault.code}\\)`));
    expect(fs.failures).toBe(1);
    fs.faults.length = 0;
    // generation 1 was the recycled temp file: it is gone, 2 and 3 are intact
    expect(gens()).toEqual(['checkpoint.000000000002.rec', 'checkpoint.000000000003.rec']);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await s.load()).toMatchObject({ generation: 3, lastOutput: 'out 2' });
    expect((await s.write(input(3), 'checkpoint-done')).generation).toBe(4);
  });

  it.each(WRITE_STAGES)('a write of a recycled generation interrupted at %s leaves at least two good generations', async (stage) => {
    let armed = false;
    const interrupt = (point: string) => {
      if (armed && point === `checkpoint-done:${stage}`) throw new Error(`interrupted at ${point}`);
    };
    const s = new CheckpointStore({ fs: nodeFs, faults: interrupt }, dir, defaultSecretDetector, (r) => reports.push(r), () => 1000);
    for (let i = 0; i < 4; i++) await s.write(input(i, { lastOutput: `out ${i}` }), 'checkpoint-done');
    armed = true;
    await expect(s.write(input(4, { lastOutput: 'out 4' }), 'checkpoint-done')).rejects.toThrow(/interrupted/);
    const good = gens().filter((g) => decodeRecord('checkpoint', readFileSync(join(dir, g)), () => undefined).ok);
    expect(good.length).toBeGreaterThanOrEqual(2);
    expect(good).toEqual(expect.arrayContaining(['checkpoint.000000000003.rec', 'checkpoint.000000000004.rec']));
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]); // the recycled temp file is removed
    const renamed = stage === 'after-rename' || stage === 'after-dir-fsync';
    expect(await s.load()).toMatchObject(renamed ? { generation: 5, lastOutput: 'out 4' } : { generation: 4, lastOutput: 'out 3' });
    expect(reports).toEqual([]);
  });

  it('a recycled temp file that vanished before the write: a fresh temp file is used', async () => {
    const removeTemps = async (point: string) => {
      if (point !== 'checkpoint-done:before-write') return; // after the recycle, before the open
      for (const n of readdirSync(dir)) if (n.endsWith('.tmp')) rmSync(join(dir, n));
    };
    const s = new CheckpointStore({ fs: nodeFs, faults: removeTemps }, dir, defaultSecretDetector, (r) => reports.push(r), () => 1000);
    for (let i = 0; i < 4; i++) await s.write(input(i), 'checkpoint-done');
    expect(gens()).toEqual(['checkpoint.000000000002.rec', 'checkpoint.000000000003.rec', 'checkpoint.000000000004.rec']);
    expect(await s.load()).toMatchObject({ generation: 4 });
  });

  it('never trusts a record under another generation\'s name (a recycled file seen under its old name)', async () => {
    const s = store();
    await s.write(input(0, { lastOutput: 'one' }), 'checkpoint-done');
    await s.write(input(1, { lastOutput: 'two' }), 'checkpoint-done');
    copyFileSync(join(dir, 'checkpoint.000000000001.rec'), join(dir, 'checkpoint.000000000003.rec'));
    expect(await s.load()).toMatchObject({ generation: 2, lastOutput: 'two' });
    expect(reports).toEqual([expect.objectContaining({ file: 'checkpoint.000000000003.rec', defect: 'corrupt', detail: 'record holds generation 1, file name says 3' })]);
  });

  it('redacts goal and output before writing', async () => {
    const key = 'AKIA' + 'Q4W7CNRY2XGSPLTB';
    await store().write(input(0, { goal: `deploy with ${key}`, lastOutput: `got ${key}` }), 'checkpoint-done');
    const text = readFileSync(join(dir, gens()[0]!), 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain('[REDACTED:aws-access-key-id]');
  });

  it('refuses to write a secret in a field it does not redact (flag names)', async () => {
    const key = 'ghp_k8Qz3Lm9Tr2Wx7Vb4Np6Hd1Js5Fg0Ca2Ye8U'; // random-looking: a run of one character is not a credential
    await expect(store().write(input(0, { flags: { [key]: true } }), 'checkpoint-done')).rejects.toThrow(/secret rule github-pat/);
    expect(gens()).toEqual([]);
  });

  it.each([
    ['empty', (p: string) => writeFileSync(p, '')],
    ['truncated', (p: string) => writeFileSync(p, readFileSync(p).subarray(0, 30))],
    ['checksum', (p: string) => { const b = readFileSync(p); b[b.length - 3] ^= 0x20; writeFileSync(p, b); }],
    ['wrong-version', (p: string) => writeFileSync(p, readFileSync(p, 'utf8').replace('argspan-hop/1 ', 'argspan-hop/2 '))],
    ['corrupt', (p: string) => writeFileSync(p, 'garbage\n')],
  ])('quarantines a %s newest generation and falls back to the previous one', async (defect, damage) => {
    const s = store();
    await s.write(input(0, { lastOutput: 'old' }), 'checkpoint-done');
    await s.write(input(1, { lastOutput: 'new' }), 'checkpoint-done');
    damage(join(dir, 'checkpoint.000000000002.rec'));
    expect(await s.load()).toMatchObject({ step: 0, lastOutput: 'old' });
    expect(reports).toEqual([expect.objectContaining({ file: 'checkpoint.000000000002.rec', defect })]);
    const kept = readdirSync(join(dir, 'quarantine'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(new RegExp(`^checkpoint\\.000000000002\\.rec\\.${defect}\\.`));
    // the next write continues after the surviving generation
    expect((await s.write(input(1), 'checkpoint-done')).generation).toBe(2);
  });

  it('halts with a clear error when every generation is damaged', async () => {
    const s = store();
    await s.write(input(0), 'checkpoint-done');
    await s.write(input(1), 'checkpoint-done');
    for (const g of gens()) writeFileSync(join(dir, g), '');
    const err = await s.load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HopStateError);
    expect((err as Error).message).toMatch(/no good checkpoint generation .*checkpoint\.000000000002\.rec \(empty\).*the loop halts/);
    expect(readdirSync(join(dir, 'quarantine'))).toHaveLength(2);
  });
});
