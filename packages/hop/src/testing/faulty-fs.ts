import type { HopFileHandle, HopFs } from '../fs-layer.js';
import { nodeFs } from '../fs-layer.js';

/** Which operation to fail. `write` (also truncate) and `sync` fail on the handle; `open` covers openForWrite and openExisting; the rest fail on the fs call. */
export type FsOp = 'open' | 'write' | 'sync' | 'dirsync' | 'rename' | 'link' | 'readdir' | 'readFile' | 'mkdir';

export interface FsFault {
  op: FsOp;
  /** errno code to fail with. */
  code: 'ENOSPC' | 'EACCES' | 'EIO' | 'EROFS';
  /** Fail only when the path contains this. */
  pathIncludes?: string;
  /** Let this many matching calls through first (then fail every one). @default 0 */
  skip?: number;
}

/** The real fs with switchable faults (for ENOSPC/EACCES tests). */
export function createFaultyFs(): HopFs & { faults: FsFault[]; failures: number } {
  const self = {
    faults: [] as FsFault[],
    failures: 0,
  };
  const check = (op: FsOp, path: string) => {
    const f = self.faults.find((x) => x.op === op && (x.pathIncludes === undefined || path.includes(x.pathIncludes)));
    if (!f) return;
    if (f.skip) return void f.skip--;
    self.failures++;
    // shaped like a Node system error: code, syscall, path
    throw Object.assign(new Error(`${f.code}: injected ${op} failure, '${path}'`), { code: f.code, syscall: op, path });
  };
  /** A file handle whose write/truncate and fsync fail as configured. */
  const wrap = (h: HopFileHandle, path: string): HopFileHandle => ({
    writeAll: async (d) => {
      check('write', path);
      return h.writeAll(d);
    },
    truncate: async (n) => {
      check('write', path);
      return h.truncate(n);
    },
    sync: async () => {
      check('sync', path);
      return h.sync();
    },
    close: () => h.close(),
  });
  const fs: HopFs = {
    async openForWrite(path, exclusive) {
      check('open', path);
      return wrap(await nodeFs.openForWrite(path, exclusive), path);
    },
    async openExisting(path) {
      check('open', path);
      return wrap(await nodeFs.openExisting(path), path);
    },
    async openDir(path) {
      const h = await nodeFs.openDir(path);
      return {
        ...h,
        sync: async () => {
          check('dirsync', path);
          return h.sync();
        },
      };
    },
    rename: async (a, b) => (check('rename', b), nodeFs.rename(a, b)),
    link: async (a, b) => (check('link', b), nodeFs.link(a, b)),
    unlink: (p) => nodeFs.unlink(p),
    readFile: async (p) => (check('readFile', p), nodeFs.readFile(p)),
    readdir: async (p) => (check('readdir', p), nodeFs.readdir(p)),
    mkdir: async (p) => (check('mkdir', p), nodeFs.mkdir(p)),
  };
  return Object.assign(self, fs);
}
