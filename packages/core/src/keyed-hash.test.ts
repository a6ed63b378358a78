import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createValueHasher, HASH_KEY_FILE, loadOrCreateHashKey } from './keyed-hash.js';

const dir = mkdtempSync(join(tmpdir(), 'argspan-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keyed value hashing', () => {
  it('creates the key once, mode 0600, and loads the same key afterwards', async () => {
    const a = await loadOrCreateHashKey(join(dir, 'state'));
    const b = await loadOrCreateHashKey(join(dir, 'state'));
    expect(a.equals(b)).toBe(true);
    expect(a.length).toBe(32);
    expect(statSync(join(dir, 'state', HASH_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('two processes racing to create the key end up with one key', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateHashKey(join(dir, 'race'))));
    for (const k of keys) expect(k.equals(keys[0]!)).toBe(true);
  });

  it('is not a bare sha256, is stable per key and differs across keys', () => {
    const h1 = createValueHasher(Buffer.alloc(32, 1));
    const h2 = createValueHasher(Buffer.alloc(32, 2));
    expect(h1.hash('UTC')).toBe(h1.hash('UTC'));
    expect(h1.hash('UTC')).not.toBe(h2.hash('UTC'));
    expect(createHash('sha256').update('UTC').digest('hex')).not.toContain(h1.hash('UTC'));
  });

  it('rejects a corrupt key file with a message naming the file', async () => {
    const d = join(dir, 'corrupt');
    await loadOrCreateHashKey(d);
    writeFileSync(join(d, HASH_KEY_FILE), 'not hex at all');
    await expect(loadOrCreateHashKey(d)).rejects.toThrow(/hash\.key is not hex/);
  });

  it('rejects a key that is too short', () => {
    expect(() => createValueHasher(Buffer.alloc(4))).toThrow(/too short/);
  });
});
