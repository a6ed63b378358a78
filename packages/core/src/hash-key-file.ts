import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, link, open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFileSync } from './regular-file.js';
import type { DirectoryOps } from './make-directories.js';
import { makeDirectories, nodeDirectoryOps } from './make-directories.js';
import { isProcessAlive } from './process-alive.js';
import { tempFileOwner, tempNameFor } from './temp-names.js';

export const HASH_KEY_FILE = 'hash.key';
const KEY_BYTES = 32;
/** How often the file may change under us before we give up (each change is another process's step). */
const MAX_ROUNDS = 4;

/**
 * The hash key could not be loaded or created. `code`: `HASH_KEY_IO` (the file system refused:
 * `errno` says why, e.g. EROFS, EACCES, ENOSPC), `HASH_KEY_CORRUPT` (a non-empty key file that is
 * not a key: never replaced, see {@link loadOrCreateHashKey}). The message names the file and the
 * cause, never the file's content.
 */
export class HashKeyError extends Error {
  readonly code: 'HASH_KEY_IO' | 'HASH_KEY_CORRUPT';
  /** The key file (or its directory) concerned. */
  readonly file: string;
  /** errno code of the failed call, for `HASH_KEY_IO`. */
  readonly errno: string | undefined;
  constructor(code: HashKeyError['code'], file: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HashKeyError';
    this.code = code;
    this.file = file;
    const errno = (options?.cause as NodeJS.ErrnoException | undefined)?.code;
    this.errno = typeof errno === 'string' ? errno : undefined;
  }
}

/** File-system steps of key creation, in order; a crash test kills a process after each. */
export const KEY_STEPS = [
  'temp-created',
  'temp-written',
  'temp-synced',
  'linked',
  'temp-removed',
  'dir-synced',
  // an empty key file left by a version that created the file and wrote it in a second step
  'repair-opened',
  'repair-appended',
  'repair-synced',
] as const;
export type KeyStep = (typeof KEY_STEPS)[number];

/** An open file, as far as key creation needs one. */
export interface KeyFileHandle {
  writeFile(data: Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The calls key creation makes. Internal seam (not exported from the package): tests inject
 * ENOSPC and the like; production uses {@link nodeKeyFileOps}.
 */
export interface KeyFileOps extends DirectoryOps {
  readFile(path: string): Promise<Buffer>;
  /** O_WRONLY|O_CREAT|O_EXCL, mode 0600. */
  createExclusive(path: string): Promise<KeyFileHandle>;
  /** O_WRONLY|O_APPEND of an existing file (ENOENT when it is gone: never creates). */
  openAppend(path: string): Promise<KeyFileHandle>;
  openDirectory(path: string): Promise<KeyFileHandle>;
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mode(path: string): Promise<number>;
  chmod(path: string, mode: number): Promise<void>;
  readdir(path: string): Promise<string[]>;
  /** Whether the process with this pid still runs (a temp file of a dead one is removed). */
  isProcessAlive(pid: number): boolean;
}

export const nodeKeyFileOps: KeyFileOps = {
  ...nodeDirectoryOps,
  readFile: async (path) => readRegularFileSync(path),
  createExclusive: (path) => open(path, 'wx', 0o600),
  openAppend: (path) => open(path, constants.O_WRONLY | constants.O_APPEND),
  openDirectory: (path) => open(path, 'r'),
  link: (from, to) => link(from, to),
  unlink: (path) => unlink(path),
  mode: async (path) => (await stat(path)).mode,
  chmod: (path, mode) => chmod(path, mode),
  readdir: (path) => readdir(path),
  isProcessAlive,
};

const errnoOf = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'unknown error';
};

function ioError(what: string, file: string, err: unknown): HashKeyError {
  if (err instanceof HashKeyError) return err;
  return new HashKeyError('HASH_KEY_IO', file, `hash key ${file}: ${what} failed (${errnoOf(err)})`, { cause: err });
}

/**
 * Load the local hash key from `stateDir/hash.key`, creating it on first use: 32 random bytes as
 * hex, mode 0600, written to a temp file, fsync'd, then linked into place (exclusive: of two
 * processes racing, one links and both read its key) and the directory fsync'd. So the key file
 * appears whole or not at all: a crash or a full disk at any step leaves nothing that stops the
 * next call (a leftover `.hash.key.<pid>.<rand>.tmp` is never read, and once the key is loaded
 * those of processes that no longer run are removed).
 *
 * An empty key file can only come from an older version killed between creating and writing it,
 * before any hash was recorded: it is repaired (each process appends a candidate key line and
 * everyone uses the first line). A non-empty file that is not a key is never replaced — hashes
 * already recorded under it could no longer be joined — and fails with {@link HashKeyError}
 * `HASH_KEY_CORRUPT`; file-system failures are `HASH_KEY_IO`.
 */
export function loadOrCreateHashKey(stateDir: string): Promise<Buffer> {
  return loadOrCreateHashKeyWith(stateDir, nodeKeyFileOps);
}

/** {@link loadOrCreateHashKey} over injectable calls, with a hook after each file-system step (tests). */
export async function loadOrCreateHashKeyWith(stateDir: string, ops: KeyFileOps, onStep: (step: KeyStep) => void = () => undefined): Promise<Buffer> {
  const file = join(stateDir, HASH_KEY_FILE);
  await makeDirectories(stateDir, ops).catch((err: unknown) => {
    const at = (err as NodeJS.ErrnoException).path;
    throw new HashKeyError('HASH_KEY_IO', stateDir, `hash key directory ${stateDir}: create failed (${errnoOf(err)}${at && at !== stateDir ? ` at ${at}` : ''})`, {
      cause: err,
    });
  });
  // Each round reads the file; it loops only when another process changed it meanwhile.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const data = await ops.readFile(file).catch((err: unknown) => {
      if (errnoOf(err) === 'ENOENT') return undefined;
      throw ioError('read', file, err);
    });
    if (data === undefined) await createKeyFile(ops, stateDir, file, onStep);
    else if (data.length === 0) await appendCandidate(ops, file, onStep);
    else {
      const key = await checkedKey(ops, file, data);
      await removeDeadTemps(ops, stateDir);
      return key;
    }
  }
  throw new HashKeyError('HASH_KEY_IO', file, `hash key ${file} kept changing while it was loaded (${MAX_ROUNDS} rounds); try again`);
}

/**
 * Remove the temp files of key creations whose process died (killed before it removed its temp
 * file: a key that was never linked, or a second name of the key file). Best effort: a failure
 * here never stops the key from loading.
 */
async function removeDeadTemps(ops: KeyFileOps, dir: string): Promise<void> {
  const names = await ops.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = tempFileOwner(name, HASH_KEY_FILE);
    if (pid === undefined || pid === process.pid || ops.isProcessAlive(pid)) continue;
    await ops.unlink(join(dir, name)).catch(() => undefined);
  }
}

/** The key on the first line, once the file is private (mode 0600). */
async function checkedKey(ops: KeyFileOps, file: string, data: Buffer): Promise<Buffer> {
  const nl = data.indexOf(0x0a);
  const first = data.subarray(0, nl < 0 ? data.length : nl).toString('latin1').trim();
  if (!/^[0-9a-f]{32,}$/.test(first)) {
    throw new HashKeyError(
      'HASH_KEY_CORRUPT',
      file,
      `hash key file ${file} is damaged (${data.length} bytes, no hex key on its first line); it is not replaced because hashes ` +
        'recorded under the old key could no longer be joined: restore it from a backup, or move it aside to start a new key',
    );
  }
  try {
    if ((await ops.mode(file)) & 0o077) await ops.chmod(file, 0o600);
  } catch (err) {
    throw ioError('restricting to mode 0600', file, err);
  }
  return Buffer.from(first, 'hex');
}

/** Temp file, fsync, exclusive link, fsync the directory. Losing the race (EEXIST) is not an error. */
async function createKeyFile(ops: KeyFileOps, dir: string, file: string, onStep: (step: KeyStep) => void): Promise<void> {
  const temp = join(dir, tempNameFor(HASH_KEY_FILE));
  let what = 'create of a temp file';
  let h: KeyFileHandle | undefined;
  try {
    h = await ops.createExclusive(temp);
    onStep('temp-created');
    what = 'write';
    await h.writeFile(Buffer.from(randomBytes(KEY_BYTES).toString('hex') + '\n'));
    onStep('temp-written');
    what = 'fsync';
    await h.sync();
    onStep('temp-synced');
    await h.close();
    h = undefined;
    what = 'link into place';
    const linked = await ops.link(temp, file).then(
      () => true,
      (err: unknown) => {
        if (errnoOf(err) === 'EEXIST') return false; // another process was first: its key it is
        throw err;
      },
    );
    if (!linked) return;
    onStep('linked');
  } catch (err) {
    throw ioError(what, file, err);
  } finally {
    await h?.close().catch(() => undefined);
    await ops.unlink(temp).catch(() => undefined); // the key lives on under its own name
  }
  onStep('temp-removed');
  await syncDirectory(ops, dir, file);
  onStep('dir-synced');
}

/** Legacy repair: append a candidate line to an empty key file (O_APPEND: the first line wins for everyone). */
async function appendCandidate(ops: KeyFileOps, file: string, onStep: (step: KeyStep) => void): Promise<void> {
  let h: KeyFileHandle;
  try {
    h = await ops.openAppend(file);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return; // moved away meanwhile: the next round looks again
    throw ioError('open of the empty key file', file, err);
  }
  onStep('repair-opened');
  let what = 'append';
  try {
    await h.writeFile(Buffer.from(randomBytes(KEY_BYTES).toString('hex') + '\n'));
    onStep('repair-appended');
    what = 'fsync';
    await h.sync();
    onStep('repair-synced');
  } catch (err) {
    throw ioError(what, file, err);
  } finally {
    await h.close().catch(() => undefined);
  }
}

async function syncDirectory(ops: KeyFileOps, dir: string, file: string): Promise<void> {
  let h: KeyFileHandle | undefined;
  try {
    h = await ops.openDirectory(dir);
    await h.sync();
  } catch (err) {
    throw ioError(`fsync of its directory ${dir}`, file, err);
  } finally {
    await h?.close().catch(() => undefined);
  }
}
