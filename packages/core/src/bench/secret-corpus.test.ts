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

  it('real package text: false-positive rate <= 0.005', () => {
    const files = corpus.readPackageNegatives(fileURLToPath(new URL('node_modules', REPO_ROOT)), { maxFiles: 300 });
    expect(files.length).toBeGreaterThan(100);
    const score = scoreDetector(defaultSecretDetector, redact, [], corpus.toArgumentValues(files), familyOf);
    expect(score.fpRate).toBeLessThanOrEqual(0.005);
  });
});
