import {
  closeSync,
  constants,
  fsync,
  ftruncateSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { makeDirectories, readRegularFileSync } from '@argspan/core/internal';

const fsyncAsync = promisify(fsync);

/** An open file, as far as the hop protocol needs one. */
export interface HopFileHandle {
  /** Write all of `data` at the current position. */
  writeAll(data: Uint8Array): Promise<void>;
  /** fsync(2). */
  sync(): Promise<void>;
  /** ftruncate(2): cut the file to `length` bytes (after overwriting a reused file in place). */
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file-system operations the hop protocol uses. Injectable so tests can fail any one of
 * them (ENOSPC on write, EACCES on rename, ...). Every method behaves like its `node:fs`
 * namesake and rejects with a Node system error (`err.code`).
 */
export interface HopFs {
  /** Open for writing; `exclusive` means O_CREAT|O_EXCL (fails with EEXIST). */
  openForWrite(path: string, exclusive: boolean): Promise<HopFileHandle>;
  /**
   * Open an existing file for writing at offset 0 without creating or truncating it (fails with
   * ENOENT when it is gone). Recycled checkpoint generations and lease markers are overwritten
   * this way (see checkpoint-store.ts).
   */
  openExisting(path: string): Promise<HopFileHandle>;
  /** Open a directory so it can be fsync'd. */
  openDir(path: string): Promise<HopFileHandle>;
  rename(from: string, to: string): Promise<void>;
  /** Hard link; fails with EEXIST when `to` exists (the exclusive-create primitive). */
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  readFile(path: string): Promise<Buffer>;
  readdir(path: string): Promise<string[]>;
  /** Create a directory and its missing parents (mode 0700); rejects with the real cause, never spins. */
  mkdir(path: string): Promise<void>;
}

function handle(fd: number): HopFileHandle {
  return {
    writeAll: async (data) => {
      for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off);
    },
    sync: () => fsyncAsync(fd),
    truncate: async (length) => ftruncateSync(fd, length),
    close: async () => closeSync(fd),
  };
}

/**
 * The real file system. Metadata calls on small local files (open, write of a few hundred bytes,
 * link, rename, readdir) take microseconds, so they run synchronously: a thread-pool round trip
 * per call would cost more than the call. fsync — the one call that waits for the disk — runs on
 * the thread pool and never blocks the event loop. (Freeing the blocks of a file that was just
 * fsync'd — unlink, O_TRUNC, rename over it — costs a large part of an fsync on ext4; the
 * checkpoint store avoids it by recycling old generations, see checkpoint-store.ts.)
 */
export const nodeFs: HopFs = {
  async openForWrite(path, exclusive) {
    const flags = constants.O_WRONLY | constants.O_CREAT | (exclusive ? constants.O_EXCL : constants.O_TRUNC);
    return handle(openSync(path, flags, 0o600));
  },
  async openExisting(path) {
    return handle(openSync(path, constants.O_WRONLY));
  },
  async openDir(path) {
    return handle(openSync(path, constants.O_RDONLY));
  },
  rename: async (from, to) => renameSync(from, to),
  link: async (from, to) => linkSync(from, to),
  unlink: async (path) => unlinkSync(path),
  readFile: async (path) => readRegularFileSync(path),
  readdir: async (path) => readdirSync(path),
  // not mkdirSync({ recursive }): it reports ENOENT for EROFS/EACCES and spins under procfs
  mkdir: (path) => makeDirectories(path),
};
