import { join } from 'node:path';
import { tempFileOwner, tempNameFor } from '@argspan/core/internal';
import { HopStateError, errnoCode } from './errors.js';
import type { FaultHook, WriteKind } from './faults.js';
import type { HopFs } from './fs-layer.js';

/** What every state operation needs: the file system and the fault hook. */
export interface StateIo {
  fs: HopFs;
  faults: FaultHook | undefined;
}

export interface WriteOptions {
  kind: WriteKind;
  /** Link into place and fail (return false) when the name exists, instead of replacing it. */
  exclusive: boolean;
  /** fsync the file before it is linked/renamed into place. */
  fsyncFile: boolean;
  /** fsync the directory after the rename, so the new name survives a power loss. */
  fsyncDir: boolean;
  /**
   * A temp file in `dir` that this process owns and no reader looks at (a recycled checkpoint
   * generation or lease marker): it is overwritten in place (open without O_CREAT, write, truncate) instead of
   * creating a fresh temp file, then fsync'd and renamed like one. Consumed either way: renamed
   * into place, or removed on failure. When it has vanished a fresh temp file is used.
   */
  reuseTemp?: string;
}

export { tempFileOwner, tempNameFor } from '@argspan/core/internal';

async function fault(io: StateIo, point: Parameters<FaultHook>[0]): Promise<void> {
  if (io.faults) await io.faults(point);
}

function stateError(op: string, file: string, err: unknown): HopStateError {
  if (err instanceof HopStateError) return err;
  const code = errnoCode(err) ?? 'unknown error';
  return new HopStateError(`${op} ${file} failed (${code}); previous state left intact`, { cause: err });
}

/** A fresh temp file (O_CREAT|O_EXCL), or a recycled one opened in place (no create, no truncate). */
function openTemp(io: StateIo, path: string, reuse: boolean) {
  return reuse ? io.fs.openExisting(path) : io.fs.openForWrite(path, true);
}

/** fsync a directory, so renames and links in it are durable. */
export async function syncDir(io: StateIo, dir: string): Promise<void> {
  let h;
  try {
    h = await io.fs.openDir(dir);
    await h.sync();
  } catch (err) {
    throw stateError('fsync of directory', dir, err);
  } finally {
    await h?.close().catch(() => undefined);
  }
}

/**
 * Write `data` to `dir/finalName` atomically: temp file (fresh, or `reuseTemp` overwritten in
 * place), (fsync), rename or exclusive link, (fsync dir). A reader sees the old file or the new
 * one, never a torn one. On any failure the temp file is removed, the old file is untouched and
 * a {@link HopStateError} names the file, the step and the errno code. Returns false only when
 * `exclusive` and the name exists.
 */
export async function writeDurable(
  io: StateIo,
  dir: string,
  finalName: string,
  data: Uint8Array,
  opts: WriteOptions,
): Promise<boolean> {
  let temp = opts.reuseTemp ?? join(dir, tempNameFor(finalName));
  const target = join(dir, finalName);
  const { kind } = opts;
  let placed = false;
  try {
    await fault(io, `${kind}:before-write`); // inside the try: a recycled temp file is removed if the hook throws
    let reused = opts.reuseTemp !== undefined;
    const h = await openTemp(io, temp, reused).catch(async (err: unknown) => {
      if (!reused || errnoCode(err) !== 'ENOENT') throw stateError('create of temp file for', target, err);
      reused = false; // the recycled file is gone: fall back to a fresh temp file
      temp = join(dir, tempNameFor(finalName));
      return openTemp(io, temp, false).catch((e: unknown) => {
        throw stateError('create of temp file for', target, e);
      });
    });
    try {
      await h.writeAll(data).catch((err: unknown) => {
        throw stateError('write of', target, err);
      });
      if (reused) {
        await h.truncate(data.length).catch((err: unknown) => {
          throw stateError('write of', target, err);
        });
      }
      await fault(io, `${kind}:after-write`);
      if (opts.fsyncFile) {
        await h.sync().catch((err: unknown) => {
          throw stateError('fsync of', target, err);
        });
        await fault(io, `${kind}:after-fsync`);
      }
    } finally {
      await h.close().catch(() => undefined);
    }
    if (opts.exclusive) {
      try {
        await io.fs.link(temp, target);
      } catch (err) {
        if (errnoCode(err) === 'EEXIST') return false;
        throw stateError('exclusive create of', target, err);
      }
    } else {
      await io.fs.rename(temp, target).catch((err: unknown) => {
        throw stateError('rename into place of', target, err);
      });
    }
    placed = true;
    if (opts.exclusive) await io.fs.unlink(temp).catch(() => undefined);
    await fault(io, `${kind}:after-rename`);
    if (opts.fsyncDir) {
      await syncDir(io, dir);
      await fault(io, `${kind}:after-dir-fsync`);
    }
    return true;
  } finally {
    if (!placed) await io.fs.unlink(temp).catch(() => undefined);
  }
}

/** Read a file; a missing file is `undefined`, any other failure a {@link HopStateError}. */
export async function readIfExists(io: StateIo, path: string): Promise<Buffer | undefined> {
  try {
    return await io.fs.readFile(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw stateError('read of', path, err);
  }
}

/** List a directory; failure is a {@link HopStateError} (an unreadable directory is never "empty"). */
export async function listDir(io: StateIo, dir: string, what: string): Promise<string[]> {
  try {
    return await io.fs.readdir(dir);
  } catch (err) {
    throw new HopStateError(
      `${what} ${dir} is unreadable (${errnoCode(err) ?? 'unknown error'}); refusing to treat it as empty`,
      { cause: err },
    );
  }
}

/** Remove leftover temp files whose writer is no longer running. Best effort. */
export async function removeStaleTemps(io: StateIo, dir: string, names: string[], alive: (pid: number) => boolean): Promise<void> {
  for (const name of names) {
    const pid = tempFileOwner(name);
    if (pid === undefined || pid === process.pid || alive(pid)) continue;
    await io.fs.unlink(join(dir, name)).catch(() => undefined);
  }
}
