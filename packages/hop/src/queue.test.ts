import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSecretDetector } from '@argspan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HopStateError } from './errors.js';
import { nodeFs } from './fs-layer.js';
import { DurableQueue } from './queue.js';
import { createFaultyFs } from './testing/faulty-fs.js';

let dir: string;
const queue = (fs = nodeFs) => new DurableQueue({ fs, faults: undefined }, dir, defaultSecretDetector, () => undefined, () => 5);
const item = (step: number, body = `b${step}`) => ({ runId: 'r', step, fingerprint: `fp${step}`, body });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hop-q-'));
  mkdirSync(join(dir, 'queue'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('DurableQueue', () => {
  it('is FIFO and deduplicates the same run/step/fingerprint', async () => {
    const q = queue();
    for (const s of [3, 1, 2]) await q.enqueue(item(s));
    expect(await q.enqueue(item(1))).toMatchObject({ seq: 2, deduped: true });
    expect((await q.list()).map((e) => e.item.step)).toEqual([3, 1, 2]);
  });

  it('concurrent enqueuers get distinct positions and nothing is lost', async () => {
    const a = queue();
    const b = queue();
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).enqueue(item(i))));
    const entries = await a.list();
    expect(entries.map((e) => e.item.step).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(entries.map((e) => e.seq)).size).toBe(20);
  });

  it('keeps the redacted body byte for byte, and refuses to write one that still holds a secret', async () => {
    const q = queue();
    const redacted = '{"a":"x\\"y","password":"[REDACTED:credential-assignment]"}';
    await q.enqueue(item(0, redacted));
    expect((await q.list())[0]!.item.body).toBe(redacted);
    await expect(q.enqueue(item(1, 'token sk-' + 'proj-Q7fQ2xLm9Tr4Wb8Vn3Kd6Hs1Jg5Fp0Cy2Ue7ZaBc4De'))).rejects.toThrow(/refusing to write queue item.*openai-api-key/);
    expect(await q.list()).toHaveLength(1);
  });

  it('a done record marks an item sent; remove clears both files', async () => {
    const q = queue();
    await q.enqueue(item(0));
    const [entry] = await q.list();
    await q.markDone(entry!, { status: 200, output: 'ok', leaseEpoch: 1 });
    const [again] = await q.list();
    expect(again!.done).toMatchObject({ status: 200, output: 'ok' });
    await q.remove(again!);
    expect(readdirSync(q.dir)).toEqual([]);
  });

  it('an unreadable queue directory is an error, never an empty queue', async () => {
    const fs = createFaultyFs();
    await queue().enqueue(item(0));
    fs.faults.push({ op: 'readdir', code: 'EACCES', pathIncludes: 'queue' });
    const err = await queue(fs).list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HopStateError);
    expect((err as Error).message).toMatch(/queue directory .* is unreadable \(EACCES\); refusing to treat it as empty/);
  });

  it('a damaged item is quarantined and draining halts with an error naming it', async () => {
    const q = queue();
    await q.enqueue(item(0));
    await q.enqueue(item(1));
    writeFileSync(join(q.dir, '000000000001.item.rec'), 'argspan-hop/1 queue-item');
    await expect(q.list()).rejects.toThrow(/damaged queue item.*000000000001\.item\.rec \(truncated\)/);
    expect(readdirSync(join(dir, 'quarantine'))).toHaveLength(1);
    expect((await q.list()).map((e) => e.item.step)).toEqual([1]); // the rest is intact, in order
  });

  it('ENOSPC while enqueueing: the caller is not told "queued" and the queue is unchanged', async () => {
    const fs = createFaultyFs();
    await queue().enqueue(item(0));
    fs.faults.push({ op: 'write', code: 'ENOSPC' });
    await expect(queue(fs).enqueue(item(1))).rejects.toThrow(/ENOSPC/);
    expect((await queue().list()).map((e) => e.item.step)).toEqual([0]);
    expect(readdirSync(join(dir, 'queue')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
