import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError, type InputProblem } from './input-error.js';

/** Names a directory walk picks up: `*.json*` (json, jsonl, ndjson, rotated `x.jsonl.1`), `*.gz`, `*.zst`, `*.pb*`/`*.proto*` (reported as unsupported). */
const TRACE_FILE = /\.(?:nd)?json|\.gz$|\.zst$|\.zstd$/i;

/**
 * Expand the user's paths: files as given, directories walked recursively for trace files,
 * `*`, `?` and `**` globs matched against the file system. Missing paths and globs that match
 * nothing are problems, never silently dropped. Result is sorted and deduplicated.
 */
export function expandPaths(paths: readonly string[]): { files: string[]; problems: InputProblem[] } {
  const files = new Set<string>();
  const problems: InputProblem[] = [];
  for (const p of paths) {
    if (/[*?]/.test(p)) {
      const matched = glob(p, problems);
      if (matched.length === 0) problems.push({ file: p, reason: 'no file matches this pattern' });
      for (const f of matched) files.add(f);
      continue;
    }
    let st;
    try {
      st = statSync(p);
    } catch {
      problems.push({ file: p, reason: 'no such file or directory' });
      continue;
    }
    if (st.isDirectory()) {
      const found = walk(p, [], problems).filter((f) => TRACE_FILE.test(f));
      if (found.length === 0) problems.push({ file: p, reason: 'directory holds no trace files (*.json, *.jsonl, *.gz, *.zst)' });
      for (const f of found) files.add(f);
    } else if (!st.isFile()) {
      // A file is read several times (its head, a byte scan, DuckDB): a pipe gives its bytes once, and its size reads as 0.
      problems.push({ file: p, reason: 'not a regular file but a pipe or device (<(…), a piped /dev/stdin): argspan reads each file more than once; save the input to a file first' });
    } else files.add(p);
  }
  return { files: [...files].sort(), problems };
}

/** Like {@link expandPaths} but throws an {@link InputError} on any problem. */
export function expandPathsStrict(paths: readonly string[]): string[] {
  const { files, problems } = expandPaths(paths);
  if (problems.length) throw new InputError(problems);
  return files;
}

/** The files below `dir`; a folder that cannot be read is a problem, never silently passed over. */
function walk(dir: string, out: string[] = [], problems: InputProblem[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    problems.push({ file: dir, reason: `directory cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out, problems);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function glob(pattern: string, problems: InputProblem[]): string[] {
  const parts = pattern.split(/[\\/]/);
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*?]/.test(part)) break;
    fixed.push(part);
  }
  const root = fixed.length === 0 ? '.' : fixed.join('/') || '/';
  let st;
  try {
    st = statSync(root);
  } catch {
    return [];
  }
  if (!st.isDirectory()) return [];
  const rest = parts.slice(fixed.length).join('/');
  const re = new RegExp(
    `^${rest
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*\*/g, '\u0001')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replace(/\u0000/g, '(?:.*/)?')
      .replace(/\u0001/g, '.*')}$`,
  );
  return walk(root, [], problems)
    .filter((f) => re.test(relative(root, f).split(sep).join('/')))
    .map((f) => (fixed.length === 0 ? relative('.', f) : f));
}
