import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The two calls {@link makeDirectories} needs (injectable so tests can fail them). */
export interface DirectoryOps {
  /** Create one directory, mode 0700; rejects with a Node system error (`err.code`). */
  mkdir(path: string): Promise<void>;
  /** Whether `path` is a directory (rejects when it cannot be looked at, e.g. ENOENT). */
  isDirectory(path: string): Promise<boolean>;
}

export const nodeDirectoryOps: DirectoryOps = {
  mkdir: async (path) => void (await mkdir(path, { mode: 0o700 })),
  isDirectory: async (path) => (await stat(path)).isDirectory(),
};

/** A Node-style system error for a path (what the kernel would have said). */
function systemError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const err = new Error(`${code}: ${syscall} '${path}'`) as NodeJS.ErrnoException;
  err.code = code;
  err.syscall = syscall;
  err.path = path;
  return err;
}

async function mkdirOrExisting(path: string, ops: DirectoryOps, missingParent: 'rethrow' | 'signal'): Promise<boolean> {
  try {
    await ops.mkdir(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (await ops.isDirectory(path)) return true;
      throw systemError('ENOTDIR', 'mkdir', path); // a file is where the directory should be
    }
    if (code === 'ENOENT' && missingParent === 'signal') return false;
    throw err;
  }
}

/**
 * `mkdir -p` (mode 0700) that rejects with the real cause and never spins. Node's own recursive
 * mkdir reports ENOENT when a missing ancestor cannot be created (it stats the path after an
 * EROFS or EACCES), and loops forever where mkdir answers ENOENT under an existing parent
 * (procfs). Here each level is tried once, its parent at most once first: the error is the
 * kernel's, for the deepest path that could not be created (`err.path`).
 */
export async function makeDirectories(path: string, ops: DirectoryOps = nodeDirectoryOps): Promise<void> {
  if (await mkdirOrExisting(path, ops, 'signal')) return;
  const parent = dirname(path);
  if (parent === path) throw systemError('ENOENT', 'mkdir', path);
  await makeDirectories(parent, ops);
  await mkdirOrExisting(path, ops, 'rethrow');
}

/**
 * {@link makeDirectories} for synchronous callers (the span file exporter writes synchronously):
 * the same levels, tried once each, the same errors.
 */
export function makeDirectoriesSync(path: string): void {
  const made = (p: string, missingParent: 'rethrow' | 'signal'): boolean => {
    try {
      mkdirSync(p, { mode: 0o700 });
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        if (statSync(p).isDirectory()) return true;
        throw systemError('ENOTDIR', 'mkdir', p);
      }
      if (code === 'ENOENT' && missingParent === 'signal') return false;
      throw err;
    }
  };
  if (made(path, 'signal')) return;
  const parent = dirname(path);
  if (parent === path) throw systemError('ENOENT', 'mkdir', path);
  makeDirectoriesSync(parent);
  made(path, 'rethrow');
}
