import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DirectoryOps } from './make-directories.js';
import { makeDirectories, makeDirectoriesSync, nodeDirectoryOps } from './make-directories.js';

const root = mkdtempSync(join(tmpdir(), 'argspan-mkdirs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: NodeJS.ErrnoException) => `${e.code} ${e.path}`);

describe('makeDirectories', () => {
  it('creates missing levels with mode 0700 and accepts an existing directory', async () => {
    const deep = join(root, 'a', 'b', 'c');
    await makeDirectories(deep);
    await makeDirectories(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
  });

  it('names a file in the way (ENOTDIR), where it is and under it', async () => {
    const file = join(root, 'plain-file');
    writeFileSync(file, 'x');
    expect(await codeOf(makeDirectories(file))).toBe(`ENOTDIR ${file}`);
    expect(await codeOf(makeDirectories(join(file, 'state', 'deeper')))).toMatch(/^ENOTDIR /);
  });

  it('answers at once under procfs, where mkdir says ENOENT below an existing parent (Node 20 spins there)', async () => {
    const p = join('/proc', `argspan-${process.pid}`, 'state');
    expect(await codeOf(makeDirectories(p))).toBe(`ENOENT /proc/argspan-${process.pid}`);
  });

  it('reports the real cause of a missing ancestor that cannot be created (EROFS), not ENOENT', async () => {
    const ro = join(root, 'read-only');
    // the kernel answers ENOENT for the missing levels and EROFS for the one it refuses to create
    const ops: DirectoryOps = {
      ...nodeDirectoryOps,
      mkdir: async (p) => {
        if (p === ro) throw Object.assign(new Error(`EROFS: mkdir '${p}'`), { code: 'EROFS', path: p });
        return nodeDirectoryOps.mkdir(p);
      },
    };
    expect(await codeOf(makeDirectories(join(ro, 'x', 'state'), ops))).toBe(`EROFS ${ro}`);
  });

  it('has a synchronous form that makes the same levels and gives the same errors', () => {
    const deep = join(root, 'sync', 'b', 'c');
    makeDirectoriesSync(deep);
    makeDirectoriesSync(deep);
    expect(statSync(join(root, 'sync')).mode & 0o777).toBe(0o700);
    const file = join(root, 'sync-file');
    writeFileSync(file, 'x');
    const code = (f: () => void) => {
      try {
        f();
        return 'made';
      } catch (e) {
        return `${(e as NodeJS.ErrnoException).code} ${(e as NodeJS.ErrnoException).path}`;
      }
    };
    expect(code(() => makeDirectoriesSync(file))).toBe(`ENOTDIR ${file}`);
    expect(code(() => makeDirectoriesSync(join('/proc', `argspan-${process.pid}`, 'state')))).toBe(`ENOENT /proc/argspan-${process.pid}`);
  });
});
