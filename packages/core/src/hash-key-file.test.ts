import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KeyFileHandle, KeyFileOps } from './hash-key-file.js';
import { HASH_KEY_FILE, HashKeyError, loadOrCreateHashKey, loadOrCreateHashKeyWith, nodeKeyFileOps } from './hash-key-file.js';

const root = mkdtempSync(join(tmpdir(), 'argspan-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d${n++}`);
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as HashKeyError);

type Failing = 'write' | 'sync' | 'link' | 'dirsync' | 'append';

/** The real calls, with one of them failing with `code` while `failing` is set (a full disk, say). */
function faultyOps(code: string): KeyFileOps & { failing: Failing | undefined } {
  const fail = (op: Failing) => {
    if (self.failing === op) throw Object.assign(new Error(`${code}: injected ${op}`), { code });
  };
  const wrap = (h: KeyFileHandle, write: Failing, sync: Failing): KeyFileHandle => ({
    writeFile: async (d) => (fail(write), h.writeFile(d)),
    sync: async () => (fail(sync), h.sync()),
    close: () => h.close(),
  });
  const self: KeyFileOps & { failing: Failing | undefined } = {
    ...nodeKeyFileOps,
    failing: undefined,
    createExclusive: async (p) => wrap(await nodeKeyFileOps.createExclusive(p), 'write', 'sync'),
    openAppend: async (p) => wrap(await nodeKeyFileOps.openAppend(p), 'append', 'sync'),
    openDirectory: async (p) => wrap(await nodeKeyFileOps.openDirectory(p), 'dirsync', 'dirsync'),
    link: async (a, b) => (fail('link'), nodeKeyFileOps.link(a, b)),
  };
  return self;
}

describe('loadOrCreateHashKey', () => {
  it('creates the key once, mode 0600, one line of hex, and loads the same key afterwards', async () => {
    const dir = freshDir();
    const a = await loadOrCreateHashKey(dir);
    const b = await loadOrCreateHashKey(dir);
    expect(a.equals(b)).toBe(true);
    expect(a.length).toBe(32);
    expect(statSync(join(dir, HASH_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, HASH_KEY_FILE), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(readdirSync(dir)).toEqual([HASH_KEY_FILE]); // no temp file left
  });

  it('removes the temp files of key creations whose process died, and keeps those of running ones', async () => {
    const dir = freshDir();
    await loadOrCreateHashKey(dir);
    const temp = (pid: number) => `.${HASH_KEY_FILE}.${pid}.0a1b2c3d.tmp`;
    for (const pid of [111111, 222222]) writeFileSync(join(dir, temp(pid)), 'f'.repeat(64) + '\n', { mode: 0o600 });
    writeFileSync(join(dir, 'notes.tmp'), 'not ours'); // only the key's own temp files are touched
    const running = new Set([222222]);
    await loadOrCreateHashKeyWith(dir, { ...nodeKeyFileOps, isProcessAlive: (pid) => running.has(pid) });
    expect(readdirSync(dir).sort()).toEqual([temp(222222), HASH_KEY_FILE, 'notes.tmp'].sort());
    // a directory that cannot be listed does not stop the key from loading
    const key = await loadOrCreateHashKeyWith(dir, { ...nodeKeyFileOps, readdir: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })) });
    expect(key.equals(await loadOrCreateHashKey(dir))).toBe(true);
  });

  it('callers racing on a fresh directory end up with one key', async () => {
    const dir = freshDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateHashKey(dir)));
    for (const k of keys) expect(k.equals(keys[0]!)).toBe(true);
  });

  it('restricts a key file that others can read to mode 0600', async () => {
    const dir = freshDir();
    await loadOrCreateHashKey(dir);
    chmodSync(join(dir, HASH_KEY_FILE), 0o644);
    await loadOrCreateHashKey(dir);
    expect(statSync(join(dir, HASH_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('repairs an empty key file (an older version killed before writing it): every caller gets the first line', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, HASH_KEY_FILE), '', { mode: 0o600 });
    const keys = await Promise.all(Array.from({ length: 4 }, () => loadOrCreateHashKey(dir)));
    for (const k of keys) expect(k.equals(keys[0]!)).toBe(true);
    const first = readFileSync(join(dir, HASH_KEY_FILE), 'utf8').split('\n')[0]!;
    expect(keys[0]!.toString('hex')).toBe(first);
    expect((await loadOrCreateHashKey(dir)).equals(keys[0]!)).toBe(true);
  });

  it.each([
    ['not hex', 'not hex at all ghp_' + 'A'.repeat(36)],
    ['whitespace only', '\n'],
    ['torn (short hex)', 'abcdef0123'],
  ])('refuses a damaged non-empty key file (%s) with a typed error naming the file, never its content', async (_name, content) => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, HASH_KEY_FILE), content);
    const err = await failure(loadOrCreateHashKey(dir));
    expect(err).toBeInstanceOf(HashKeyError);
    expect(err).toMatchObject({ code: 'HASH_KEY_CORRUPT', file: join(dir, HASH_KEY_FILE) });
    expect(err!.message).toContain(join(dir, HASH_KEY_FILE));
    if (content.trim()) expect(err!.message).not.toContain(content.trim());
    expect(readFileSync(join(dir, HASH_KEY_FILE), 'utf8')).toBe(content); // never replaced
  });

  it.each<Failing>(['write', 'sync', 'link'])('ENOSPC at first boot (%s of the new key): typed error, nothing left behind, works once space is back', async (op) => {
    const dir = freshDir();
    const ops = faultyOps('ENOSPC');
    ops.failing = op;
    const err = await failure(loadOrCreateHashKeyWith(dir, ops));
    expect(err).toBeInstanceOf(HashKeyError);
    expect(err).toMatchObject({ code: 'HASH_KEY_IO', errno: 'ENOSPC', file: join(dir, HASH_KEY_FILE) });
    expect(err!.message).toMatch(/hash\.key.*ENOSPC/);
    expect(readdirSync(dir)).toEqual([]); // no empty key, no temp file: nothing to stop the next boot
    ops.failing = undefined;
    const key = await loadOrCreateHashKeyWith(dir, ops);
    expect((await loadOrCreateHashKey(dir)).equals(key)).toBe(true);
  });

  it('EIO on the directory fsync: typed error; the key is in place and the next boot uses it', async () => {
    const dir = freshDir();
    const ops = faultyOps('EIO');
    ops.failing = 'dirsync';
    expect(await failure(loadOrCreateHashKeyWith(dir, ops))).toMatchObject({ code: 'HASH_KEY_IO', errno: 'EIO' });
    const placed = readFileSync(join(dir, HASH_KEY_FILE), 'utf8').trim();
    expect((await loadOrCreateHashKey(dir)).toString('hex')).toBe(placed);
  });

  it('ENOSPC while repairing an empty legacy key file: typed error, still repairable once space is back', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, HASH_KEY_FILE), '', { mode: 0o600 });
    const ops = faultyOps('ENOSPC');
    ops.failing = 'append';
    expect(await failure(loadOrCreateHashKeyWith(dir, ops))).toMatchObject({ code: 'HASH_KEY_IO', errno: 'ENOSPC' });
    ops.failing = undefined;
    expect((await loadOrCreateHashKeyWith(dir, ops)).length).toBe(32);
  });

  it('names the real cause of a state directory that cannot exist (a regular file in its path: ENOTDIR, also as root)', async () => {
    const file = join(root, `file-${n++}`);
    writeFileSync(file, 'x');
    const err = await failure(loadOrCreateHashKey(join(file, 'state')));
    expect(err).toMatchObject({ code: 'HASH_KEY_IO', errno: 'ENOTDIR', file: join(file, 'state') });
    expect(err!.message).toContain(join(file, 'state'));
  });

  it('a directory where the key file should be: typed error (EISDIR)', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, HASH_KEY_FILE), { recursive: true });
    expect(await failure(loadOrCreateHashKey(dir))).toMatchObject({ code: 'HASH_KEY_IO', errno: 'EISDIR', file: join(dir, HASH_KEY_FILE) });
  });

  it('a state directory under /proc: a typed error at once, no spin', async () => {
    const err = await failure(loadOrCreateHashKey(`/proc/argspan-${process.pid}/state`));
    expect(err).toMatchObject({ code: 'HASH_KEY_IO', errno: 'ENOENT' });
    expect(err!.message).toContain(`at /proc/argspan-${process.pid}`);
  });
});
