import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Create `dir` and any missing parents, like `mkdirSync(dir, { recursive: true })` — which on Node
 * 20 never returns when the file system answers ENOENT for a child of an existing directory (procfs
 * does, for every mkdir): it retries the parent forever. Here each component is made once, and
 * such an answer is an error naming the path. Throws the file system's own error (EACCES, EROFS,
 * ENOTDIR, ENOSPC, …) otherwise.
 */
export function makeDirectorySync(dir: string, mode = 0o777): void {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (isDirectory(d)) break;
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && isDirectory(d)) continue;
      throw err;
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
