import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCall } from './classify.js';
import { matchDirty } from './dirty-match.js';
import { gitBlobId, loadCommittedContent, readDirtyPrefixes, readDirtySet, writeDirtyPrefixes } from './git-dirty-set.js';
import type { DirtySet } from './types.js';

const UNCOMMITTED_LINE = 'PARSER_MODE = "strict-unreleased-dialect"  # not yet committed';
const COMMITTED_README = `# Demo project\n\n${'Committed documentation that is already public. '.repeat(300)}\n`;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e.st', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e.st' } });
}

let root: string;
let dirty: DirtySet;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'argspan-dirty-'));
  git(root, 'init', '-q', '-b', 'main');
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'src/config.py'), 'PARSER_MODE = "lenient"\n');
  writeFileSync(join(root, 'src/config.python'), 'unrelated committed file\n');
  writeFileSync(join(root, 'src/parser.py'), 'def parse(text):\n    return text.split()\n');
  writeFileSync(join(root, 'docs/my notes.md'), 'first draft\n');
  writeFileSync(join(root, 'old-name.txt'), 'to be renamed\n');
  writeFileSync(join(root, 'README.md'), COMMITTED_README);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');

  writeFileSync(join(root, 'src/config.py'), `${UNCOMMITTED_LINE}\n`); // modified, unstaged
  writeFileSync(join(root, 'staged.txt'), 'staged content line that is long enough\n');
  git(root, 'add', 'staged.txt'); // staged
  writeFileSync(join(root, 'new module.py'), 'print("untracked file with a space in its name")\n'); // untracked, space
  mkdirSync(join(root, 'build'));
  writeFileSync(join(root, 'build/out.txt'), 'generated\n'); // untracked directory
  git(root, 'mv', 'old-name.txt', 'new-name.txt'); // renamed
  writeFileSync(join(root, 'docs/my notes.md'), 'second draft\n'); // modified, space
  mkdirSync(join(root, 'vendor/lib'), { recursive: true });
  git(join(root, 'vendor/lib'), 'init', '-q'); // nested repository
  writeFileSync(join(root, 'vendor/lib/x.c'), 'int x;\n');

  dirty = (await readDirtySet(join(root, 'src')))!;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('readDirtySet on a real repository', () => {
  it('finds modified, staged, untracked and renamed paths (both names), with spaces', () => {
    expect(dirty.root).toBe(git(root, 'rev-parse', '--show-toplevel').trim());
    for (const p of ['src/config.py', 'staged.txt', 'new module.py', 'new-name.txt', 'old-name.txt', 'docs/my notes.md']) {
      expect(dirty.paths.has(p), p).toBe(true);
    }
    expect(dirty.paths.has('src/parser.py')).toBe(false);
    expect(dirty.prefixes).toEqual(expect.arrayContaining(['build/', 'vendor/']));
  });

  it('matches absolute and repo-relative spellings, and not look-alike names', () => {
    expect(matchDirty('src/config.py', dirty)).toBe('dirty-path');
    expect(matchDirty('./src/config.py', dirty)).toBe('dirty-path');
    expect(matchDirty(join(dirty.root, 'src/config.py'), dirty)).toBe('dirty-path');
    expect(matchDirty('src/config.python', dirty)).toBeUndefined();
    expect(matchDirty('src/parser.py', dirty)).toBeUndefined();
    expect(matchDirty('build/out.txt', dirty)).toBe('dirty-path');
    expect(matchDirty('vendor/lib/x.c', dirty)).toBe('dirty-path');
    expect(matchDirty('src', dirty)).toBe('dirty-dir');
    expect(matchDirty('/somewhere/else/src/config.py', dirty)).toBeUndefined();
  });

  it('catches an embedded hunk from a dirty file even without its path', () => {
    expect(matchDirty(`Here is the new setting:\n    ${UNCOMMITTED_LINE}\nthanks`, dirty)).toBe('dirty-hunk');
    expect(matchDirty(`@@ -1 +1 @@\n+${UNCOMMITTED_LINE}\n`, dirty)).toBe('dirty-hunk');
    expect(matchDirty('diff --git a/src/config.py b/src/config.py\n', dirty)).toBe('dirty-path');
  });

  it('labels calls against the real dirty set', () => {
    const c = classifyCall({ tool: 'review', args: { files: ['src/parser.py', 'src/config.py'] } }, {}, { dirty, remoteAllowlist: ['review'] });
    expect(c.residency).toBe('dirty-tree');
    expect(c.verdict).toBe('local');
    expect(c.leaves.map((l) => l.residency)).toEqual(['tiny-public', 'dirty-tree']);
  });

  it('writes and reads the .agent-dirty-prefixes file with paths only, never content', async () => {
    await writeDirtyPrefixes(dirty);
    const text = readFileSync(join(dirty.root, '.agent-dirty-prefixes'), 'utf8');
    expect(text).not.toContain('strict-unreleased-dialect');
    const back = await readDirtyPrefixes(join(dirty.root, '.agent-dirty-prefixes'), dirty.root);
    expect([...back.paths].sort()).toEqual([...dirty.paths].sort());
    expect(back.prefixes).toEqual(dirty.prefixes);
  });

  it('says once that a directory is not a repository, without failing', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'argspan-plain-'));
    const said: string[] = [];
    expect(await readDirtySet(plain, { onNotARepository: (d) => said.push(d) })).toBeUndefined();
    expect(said).toEqual([plain]);
    rmSync(plain, { recursive: true });
  });
});

describe('strict public mode', () => {
  it('computes git blob ids as git does', () => {
    expect(gitBlobId(COMMITTED_README)).toBe(git(root, 'rev-parse', 'HEAD:README.md').trim());
  });

  it('a bulky value is public only when its bytes are committed', async () => {
    const committed = (await loadCommittedContent(root))!;
    const opts = { remoteAllowlist: ['summarise'], strictPublic: true, committed, dirty };
    const ok = classifyCall({ tool: 'summarise', args: { text: COMMITTED_README } }, {}, opts);
    expect(ok.leaves[0]!.rule).toBe('bulky-committed');
    expect(ok.verdict).toBe('remote-ok');
    const unproven = classifyCall({ tool: 'summarise', args: { text: `${COMMITTED_README}edited locally\n` } }, {}, opts);
    expect(unproven.residency).toBe('unknown');
    expect(unproven.verdict).toBe('local');
  });
});
