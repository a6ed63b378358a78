import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A package's README is its page on npm, where a relative link resolves against the repository
// its package.json names (`repository.directory`): each one must lead to a file, and its anchor to
// a heading, of this repository.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPOSITORY = 'git+https://github.com/argspan/argspan.git';

interface Manifest {
  name: string;
  private?: boolean;
  files?: string[];
  homepage?: string;
  repository?: { type?: string; url?: string; directory?: string };
  bugs?: { url?: string };
}

const workspaces = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces.flatMap((w) =>
  w.endsWith('/*') ? readdir(w.slice(0, -2)) : [w],
);
function readdir(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).map((d) => `${dir}/${d}`).filter((d) => existsSync(join(ROOT, d, 'package.json')));
}
const published = workspaces
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) => manifest.private !== true);

/** GitHub's anchor for a heading: lower case, code marks and punctuation dropped, spaces as hyphens; a repeated one numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutCode(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The lines outside fenced code blocks. */
function withoutCode(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The relative links of a Markdown file (outside code), as written. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const line of withoutCode(markdown)) {
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

/** What is wrong with each relative link of `file` (a path in the repository): a missing file or heading. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const broken: string[] = [];
  for (const link of relativeLinks(text)) {
    const [path, anchor] = link.split('#') as [string, string | undefined];
    const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
    if (relative(ROOT, target).startsWith('..') || !existsSync(target)) {
      broken.push(`${link}: no such file in the repository`);
      continue;
    }
    if (anchor !== undefined && statSync(target).isFile() && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) {
      broken.push(`${link}: no heading with that anchor`);
    }
  }
  return broken;
}

describe('the packages as npm shows them', () => {
  it('finds the packages that are published', () => {
    expect(published.map((p) => p.manifest.name).sort()).toEqual(
      ['@argspan/adapters', '@argspan/analyzer', '@argspan/conventions', '@argspan/core', '@argspan/hop', '@argspan/instrumentation', '@argspan/setup', 'argspan'].sort(),
    );
  });

  it.each(published.map((p) => [p.manifest.name, p] as const))('%s names its folder of the repository, its page and where to report a bug', (_name, { dir, manifest }) => {
    expect(manifest.repository).toEqual({ type: 'git', url: REPOSITORY, directory: dir });
    expect(manifest.homepage).toBe(`https://github.com/argspan/argspan/tree/main/${dir}#readme`);
    expect(manifest.bugs?.url).toBe('https://github.com/argspan/argspan/issues');
  });

  it.each(published.map((p) => [p.manifest.name, p] as const))("%s's README: every relative link leads to a file, and its anchor to a heading, of the repository", (_name, { dir }) => {
    expect(existsSync(join(ROOT, dir, 'README.md'))).toBe(true);
    expect(brokenLinks(`${dir}/README.md`)).toEqual([]);
  });

  it("the repository's README and docs: every relative link leads somewhere", () => {
    const files = ['README.md', 'docs/benchmarks.md', 'fixtures/README.md', 'packages/core/src/secrets/README.md'].filter((f) => existsSync(join(ROOT, f)));
    expect(files.flatMap((f) => brokenLinks(f).map((b) => `${f}: ${b}`))).toEqual([]);
  });

  it('catches a link to a file or heading that is not there', () => {
    expect(relativeLinks('see [a](../b.md#c), [web](https://x.org) and `[code](no.md)`')).toEqual(['../b.md#c']);
    expect([...anchors('# Options (`types.ts`)\n## `argspan analyze`\n## `argspan analyze`\n```\n# not a heading\n```')]).toEqual(['options-typests', 'argspan-analyze', 'argspan-analyze-1']);
  });
});
