import { constants } from 'node:fs';
import { link, mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';

/** An open file, as far as the hop protocol needs one. */
export interface HopFileHandle {
  /** Write all of `data` at the current position. */
  writeAll(data: Uint8Array): Promise<void>;
  /** fsync(2). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file-system operations the hop protocol uses. Injectable so tests can fail any one of
 * them (ENOSPC on write, EACCES on rename, ...). Every method behaves like its `node:fs/promises`
 * namesake and rejects with a Node system error (`err.code`).
 */
export interface HopFs {
  /** Open for writing; `exclusive` means O_CREAT|O_EXCL (fails with EEXIST). */
  openForWrite(path: string, exclusive: boolean): Promise<HopFileHandle>;
  /** Open a directory so it can be fsync'd. */
  openDir(path: string): Promise<HopFileHandle>;
  rename(from: string, to: string): Promise<void>;
  /** Hard link; fails with EEXIST when `to` exists (the exclusive-create primitive). */
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  readFile(path: string): Promise<Buffer>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string): Promise<void>;
}

/** The real file system. */
export const nodeFs: HopFs = {
  async openForWrite(path, exclusive) {
    const flags = constants.O_WRONLY | constants.O_CREAT | (exclusive ? constants.O_EXCL : constants.O_TRUNC);
    const h = await open(path, flags, 0o600);
    return {
      writeAll: (data) => h.writeFile(data),
      sync: () => h.sync(),
      close: () => h.close(),
    };
  },
  async openDir(path) {
    const h = await open(path, constants.O_RDONLY);
    return { writeAll: async () => undefined, sync: () => h.sync(), close: () => h.close() };
  },
  rename: (from, to) => rename(from, to),
  link: (from, to) => link(from, to),
  unlink: (path) => unlink(path),
  readFile: (path) => readFile(path),
  readdir: (path) => readdir(path),
  mkdir: async (path) => {
    await mkdir(path, { recursive: true, mode: 0o700 });
  },
};
