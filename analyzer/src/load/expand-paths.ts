import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { PathsError, type InputProblem } from './input-error.js';

/**
 * Names a directory walk picks up: `*.json*` (json, jsonl, ndjson, rotated `x.jsonl.1`), `*.gz`,
 * `*.zst`, `*.pb*`/`*.proto*` (reported as unsupported), and a trace id alone (32 hex digits: Genkit's
 * `.genkit/traces/` names each trace so).
 */
const TRACE_FILE = /\.(?:nd)?json|\.gz$|\.zst$|\.zstd$|(?:^|[\\/])[0-9a-f]{32}$/i;

/**
 * Expand the user's paths: files as given, directories walked recursively for trace files,
 * `*`, `?` and `**` globs matched against the file system. Missing paths and globs that match
 * nothing are problems, never silently dropped. Result is sorted, one path per file.
 */
export function expandPaths(paths: readonly string[]): { files: string[]; problems: InputProblem[] } {
  const files = new Set<string>();
  const problems: InputProblem[] = [];
  for (const p of paths) {
    const before = problems.length;
    if (/[*?]/.test(p)) {
      const matched = glob(p, problems);
      if (matched.length === 0 && problems.length === before) problems.push({ file: p, reason: 'no file matches this pattern' });
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
      const found = walk(p, problems);
      const traces = found.files.filter((f) => TRACE_FILE.test(f));
      problems.push(...found.unreadable.filter((u) => TRACE_FILE.test(u.file)));
      if (traces.length === 0 && problems.length === before) problems.push({ file: p, reason: 'directory holds no trace files (*.json, *.jsonl, *.gz, *.zst, Genkit\'s <trace id>)' });
      for (const f of traces) files.add(f);
    } else if (!st.isFile()) {
      problems.push({ file: p, reason: NOT_A_FILE });
    } else files.add(p);
  }
  return { files: oncePerFile([...files].sort()), problems };
}

/** The paths with one per file: a file reached by two paths (a symbolic link and its target) is read once, by the first. */
function oncePerFile(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((p) => {
    let real: string;
    try {
      real = realpathSync(p);
    } catch {
      real = p;
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

/** Like {@link expandPaths} but throws a {@link PathsError} on any problem. */
export function expandPathsStrict(paths: readonly string[]): string[] {
  const { files, problems } = expandPaths(paths);
  if (problems.length) throw new PathsError(problems);
  return files;
}

// A file is read several times (its head, a byte scan, DuckDB): a pipe gives its bytes once, and its size reads as 0.
const NOT_A_FILE = 'not a regular file but a pipe or device (<(…), a piped /dev/stdin): argspan reads each file more than once; save the input to a file first';

/**
 * The files below `dir`, symbolic links followed (a folder reached again through one is walked
 * once); `unreadable`: the entries that are not files to read — a symbolic link to nothing, a
 * pipe, a socket, a device — each with why, for the caller to report where its name is one it
 * would read. A folder that cannot be read is a problem. Nothing is silently passed over.
 */
function walk(dir: string, problems: InputProblem[], found: { files: string[]; unreadable: InputProblem[] } = { files: [], unreadable: [] }, seen = new Set<string>()): { files: string[]; unreadable: InputProblem[] } {
  let entries;
  try {
    const real = realpathSync(dir);
    if (seen.has(real)) return found;
    seen.add(real);
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    problems.push({ file: dir, reason: `directory cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
    return found;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    let isDirectory = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      try {
        const st = statSync(p);
        isDirectory = st.isDirectory();
        isFile = st.isFile();
      } catch {
        found.unreadable.push({ file: p, reason: 'a symbolic link to nothing (its target is gone or cannot be reached)' });
        continue;
      }
    }
    if (isDirectory) walk(p, problems, found, seen);
    else if (isFile) found.files.push(p);
    else found.unreadable.push({ file: p, reason: NOT_A_FILE });
  }
  return found;
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
  const matches = (f: string) => re.test(relative(root, f).split(sep).join('/'));
  const found = walk(root, problems);
  problems.push(...found.unreadable.filter((u) => matches(u.file)));
  return found.files.filter(matches).map((f) => (fixed.length === 0 ? relative('.', f) : f));
}
