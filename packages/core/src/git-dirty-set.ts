import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DIRTY_LINE_MIN_LENGTH } from './dirty-match.js';
import type { CommittedContent, DirtySet } from './types.js';

const exec = promisify(execFile);

/** Bounds on reading untracked files for hunk lines: content beyond them is covered by the path rule only. */
const UNTRACKED_FILE_MAX_BYTES = 1024 * 1024;
const UNTRACKED_TOTAL_MAX_BYTES = 16 * 1024 * 1024;

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

/** Absolute work-tree root of `dir`, or undefined when `dir` is not inside a git work tree. */
export async function gitRoot(dir: string): Promise<string | undefined> {
  try {
    return (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    return undefined;
  }
}

/** Parse `git status --porcelain=v1 -z` output into dirty paths and untracked-directory prefixes. */
export function parsePorcelainZ(out: string): { paths: Set<string>; prefixes: string[]; untracked: string[] } {
  const fields = out.split('\0');
  const paths = new Set<string>();
  const prefixes: string[] = [];
  const untracked: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i]!;
    if (entry.length < 4) continue;
    const xy = entry.slice(0, 2);
    const path = entry.slice(3);
    if (xy === '!!') continue;
    if (path.endsWith('/')) prefixes.push(path); // untracked directory or nested repository
    else paths.add(path);
    if (xy === '??' && !path.endsWith('/')) untracked.push(path);
    // Renames and copies are followed by the original path: both names are dirty.
    if (xy[0] === 'R' || xy[0] === 'C' || xy[1] === 'R' || xy[1] === 'C') {
      const from = fields[++i];
      if (from) paths.add(from);
    }
  }
  return { paths, prefixes, untracked };
}

function addLines(lines: Set<string>, text: string): void {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.length >= DIRTY_LINE_MIN_LENGTH) lines.add(line);
  }
}

export interface ReadDirtySetOptions {
  /** Called once when `dir` is not a git work tree (not an error: there is simply no dirty set). */
  onNotARepository?: (dir: string) => void;
}

/**
 * The trusted helper that computes a repository's dirty set: modified, staged, untracked and
 * renamed paths (both names) from `git status --porcelain=v1 -z`, plus the lines those changes add
 * (from `git diff HEAD` and untracked files, bounded) so embedded hunks are caught too.
 * Resolves to undefined when `dir` is not a git work tree.
 */
export async function readDirtySet(dir: string, options: ReadDirtySetOptions = {}): Promise<DirtySet | undefined> {
  const root = await gitRoot(dir);
  if (root === undefined) {
    options.onNotARepository?.(dir);
    return undefined;
  }
  const status = parsePorcelainZ(await git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=normal']));
  const lines = new Set<string>();
  const hasHead = await git(root, ['rev-parse', '--verify', '-q', 'HEAD']).then(
    () => true,
    () => false,
  );
  const diff = await git(root, hasHead ? ['diff', 'HEAD', '--no-color', '--no-ext-diff', '-U0'] : ['diff', '--cached', '--no-color', '-U0']);
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) addLines(lines, line.slice(1));
  }
  let budget = UNTRACKED_TOTAL_MAX_BYTES;
  for (const rel of status.untracked) {
    const file = join(root, rel);
    try {
      const st = await stat(file);
      if (!st.isFile() || st.size > UNTRACKED_FILE_MAX_BYTES || st.size > budget) continue;
      budget -= st.size;
      addLines(lines, await readFile(file, 'utf8'));
    } catch {
      // Vanished or unreadable between status and read: its path is still in the dirty set.
    }
  }
  return { root, paths: status.paths, prefixes: status.prefixes, lines };
}

/** The file the seed's agent reads to know which prefixes are dirty. */
export const DIRTY_PREFIXES_FILE = '.agent-dirty-prefixes';

/**
 * Write the dirty set's paths and prefixes (never content) to `file`, one per line, atomically.
 */
export async function writeDirtyPrefixes(dirty: DirtySet, file: string = join(dirty.root, DIRTY_PREFIXES_FILE)): Promise<void> {
  const body =
    '# argspan: paths with uncommitted changes (generated; do not edit)\n' +
    [...dirty.prefixes, ...[...dirty.paths].sort()].join('\n') +
    '\n';
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, body, { mode: 0o644 });
  await rename(tmp, file);
}

/** Read a `.agent-dirty-prefixes` file into a dirty set rooted at `root` (no hunk lines). */
export async function readDirtyPrefixes(file: string, root: string): Promise<DirtySet> {
  const paths = new Set<string>();
  const prefixes: string[] = [];
  const text = await readFile(file, 'utf8');
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('/')) prefixes.push(line);
    else paths.add(line);
  }
  return { root, paths, prefixes, lines: new Set() };
}

/** Git blob id of `text` as git would store it (`blob <len>\0<bytes>`), in the repository's hash. */
export function gitBlobId(text: string | Uint8Array, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * Proof of committed content for strict public mode: the set of blob ids in HEAD. A bulky value
 * whose blob id is in the set is already committed, byte for byte. Undefined when not a repository
 * or there is no HEAD commit yet.
 */
export async function loadCommittedContent(dir: string): Promise<CommittedContent | undefined> {
  const root = await gitRoot(dir);
  if (root === undefined) return undefined;
  let listing: string;
  let algorithm: 'sha1' | 'sha256';
  try {
    listing = await git(root, ['ls-tree', '-r', '-z', 'HEAD']);
    const format = (await git(root, ['rev-parse', '--show-object-format']).catch(() => 'sha1')).trim();
    algorithm = format === 'sha256' ? 'sha256' : 'sha1';
  } catch {
    return undefined;
  }
  const blobs = new Set<string>();
  for (const entry of listing.split('\0')) {
    // "<mode> blob <id>\t<path>"
    const m = /^\d+ blob ([0-9a-f]+)\t/.exec(entry);
    if (m) blobs.add(m[1]!);
  }
  return { hasBlob: (text) => blobs.has(gitBlobId(text, algorithm)) };
}
