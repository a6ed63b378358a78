import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSecretDetector } from '@argspan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointInput } from './checkpoint-store.js';
import { CheckpointStore } from './checkpoint-store.js';
import { nodeFs } from './fs-layer.js';
import { HopStateError } from './errors.js';
import type { QuarantineReport } from './quarantine.js';

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

  it('keeps exactly the newest two generations and leaves no temp files', async () => {
    const s = store();
    for (let i = 0; i < 5; i++) await s.write(input(i), 'checkpoint-done');
    expect(gens()).toEqual(['checkpoint.000000000004.rec', 'checkpoint.000000000005.rec']);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
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
