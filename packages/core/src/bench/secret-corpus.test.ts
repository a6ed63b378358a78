import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_RULES, defaultSecretDetector, redactSecrets } from '../secrets/index.js';
import { REPO_ROOT, loadCorpusModule, scoreDetector } from './secret-corpus.js';

const familyOf = (id: string) => BUILTIN_RULES.find((r) => r.id === id)?.family ?? id;
const redact = (t: string) => redactSecrets(t).text;

describe('labelled secret corpus (small slice; the full run is npm run bench:secrets)', async () => {
  const corpus = await loadCorpusModule();

  it('generates the same corpus from the same seed', () => {
    expect(corpus.generatePositives(7, 1)).toEqual(corpus.generatePositives(7, 1));
    expect(corpus.generatePositives(7, 1)).not.toEqual(corpus.generatePositives(8, 1));
  });

  it('recall >= 0.99 over every kind and context, and redaction leaks nothing', () => {
    const positives = [...corpus.generatePositives(11, 1), ...corpus.readHandSets().positives];
    for (const p of positives) expect(p.text.slice(p.start, p.end).length, `${p.kind}/${p.context}`).toBeGreaterThan(0);
    const score = scoreDetector(defaultSecretDetector, redact, positives, [], familyOf);
    expect(score.recall).toBeGreaterThanOrEqual(0.99);
    expect(score.families.reduce((s, f) => s + f.leaked, 0)).toBe(0);
  });

  it('the false-positive classes (UUIDs, SHAs, digests, SRI, data URIs, examples, placeholders, identifiers, prose) produce nothing', () => {
    const negatives = [...corpus.generateNegatives(11, 10), ...corpus.readHandSets().negatives];
    const score = scoreDetector(defaultSecretDetector, redact, [], negatives, familyOf);
    expect(score.falseHits).toEqual([]);
  });

  it('package text is read from the committed list only: a file not installed or of another version is counted, not read, and moves no other value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-package-list-'));
    const modules = join(dir, 'node_modules');
    mkdirSync(join(modules, 'a', 'lib'), { recursive: true });
    const same = 'export const a = 1;\n'.repeat(200);
    writeFileSync(join(modules, 'a', 'lib', 'same.js'), same);
    writeFileSync(join(modules, 'a', 'lib', 'changed.js'), 'export const b = 2;\n');
    writeFileSync(join(modules, 'a', 'unlisted.md'), '# not in the list\n');
    const list = join(dir, 'list.txt');
    const line = (text: string, path: string) => `${corpus.packageFileHash(text)} ${path}`;
    writeFileSync(list, ['# header', line('export const b = 1;\n', 'a/lib/changed.js'), line('gone', 'a/gone.js'), line(same, 'a/lib/same.js')].join('\n') + '\n');
    const read = corpus.readPackageNegatives(modules, { list });
    expect({ ...read, files: read.files.map((f) => f.path) }).toEqual({ files: ['a/lib/same.js'], listed: 3, missing: 1, changed: 1 });
    const alone = corpus.toArgumentValues(read.files);
    expect(alone.length).toBeGreaterThan(1);
    expect(corpus.toArgumentValues([{ family: 'package-text', text: 'other\n'.repeat(500), path: 'a/other.js' }, ...read.files]).slice(-alone.length)).toEqual(alone);
  });

  it('real package text (300 files of the committed list, as installed): false-positive rate <= 0.005', () => {
    const { files, listed } = corpus.readPackageNegatives(fileURLToPath(new URL('node_modules', REPO_ROOT)), { maxFiles: 300 });
    expect(listed).toBe(300);
    // npm ci installs what the lock file says: the list's files are there (a few may move with a dependency)
    expect(files.length).toBeGreaterThan(270);
    const score = scoreDetector(defaultSecretDetector, redact, [], corpus.toArgumentValues(files), familyOf);
    expect(score.fpRate).toBeLessThanOrEqual(0.005);
  });
});
