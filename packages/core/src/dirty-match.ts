import type { DirtySet } from './types.js';
import { pathTokens } from './path-tokens.js';

/** Added lines shorter than this are too common (`}`, `return x;`) to be evidence of a hunk. */
export const DIRTY_LINE_MIN_LENGTH = 16;

export type DirtyRule = 'dirty-path' | 'dirty-dir' | 'dirty-hunk';

interface DirtyIndex {
  root: string;
  paths: ReadonlySet<string>;
  prefixes: readonly string[];
  /** Every proper ancestor directory of a dirty path (`src` for `src/config.py`), without the root. */
  ancestors: ReadonlySet<string>;
  lines: ReadonlySet<string>;
}

const indexes = new WeakMap<DirtySet, DirtyIndex>();

function indexOf(dirty: DirtySet): DirtyIndex {
  let idx = indexes.get(dirty);
  if (!idx) {
    const ancestors = new Set<string>();
    for (const p of [...dirty.paths, ...dirty.prefixes]) {
      const parts = p.replace(/\/$/, '').split('/');
      for (let i = 1; i < parts.length; i++) ancestors.add(parts.slice(0, i).join('/'));
    }
    idx = { root: dirty.root.replace(/\/+$/, ''), paths: dirty.paths, prefixes: dirty.prefixes, ancestors, lines: dirty.lines };
    indexes.set(dirty, idx);
  }
  return idx;
}

/** Repo-relative spelling of a path token, or undefined when it points outside the repository. */
function relative(token: string, root: string): string | undefined {
  let p = token.replace(/\\/g, '/');
  if (p.startsWith('/')) {
    if (p === root) return '';
    if (!p.startsWith(`${root}/`)) return undefined;
    p = p.slice(root.length + 1);
  }
  while (p.startsWith('./')) p = p.slice(2);
  return p.replace(/\/+$/, '').replace(/\/{2,}/g, '/');
}

function pathRule(rel: string, idx: DirtyIndex): DirtyRule | undefined {
  if (rel === '' || rel === '.') return undefined;
  if (idx.paths.has(rel)) return 'dirty-path';
  for (const prefix of idx.prefixes) if (rel === prefix.slice(0, -1) || rel.startsWith(prefix)) return 'dirty-path';
  if (idx.ancestors.has(rel)) return 'dirty-dir';
  return undefined;
}

const DIFF_HEADER = /^(?:diff --git a\/(\S+) b\/(\S+)|(?:\+\+\+|---) [ab]\/(\S+))/gm;

/**
 * Whether a value names a path with uncommitted changes (or a directory holding one), or embeds a
 * hunk from such a path. Absolute and repo-relative spellings match; `src/config.py` does not match
 * `src/config.python`.
 */
export function matchDirty(text: string, dirty: DirtySet): DirtyRule | undefined {
  const idx = indexOf(dirty);
  for (const token of pathTokens(text)) {
    const rel = relative(token, idx.root);
    if (rel === undefined) continue;
    const rule = pathRule(rel, idx) ?? (/^[ab]\//.test(rel) ? pathRule(rel.slice(2), idx) : undefined);
    if (rule) return rule;
  }
  if (text.includes('diff --git') || text.includes('+++ ')) {
    for (const m of text.matchAll(DIFF_HEADER)) {
      for (const p of [m[1], m[2], m[3]]) if (p && pathRule(p, idx)) return 'dirty-hunk';
    }
  }
  if (idx.lines.size > 0 && text.length >= DIRTY_LINE_MIN_LENGTH) {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (end - start >= DIRTY_LINE_MIN_LENGTH) {
        // Diff-embedded lines carry a leading +/-/space marker; strip it as well as whitespace.
        const line = text.slice(start, end).trim();
        if (idx.lines.has(line) || (/^[+ -]/.test(line) && idx.lines.has(line.slice(1).trim()))) return 'dirty-hunk';
      }
      start = end + 1;
    }
  }
  return undefined;
}
