import { describe, expect, it } from 'vitest';
import { defaultSecretDetector } from '../secrets/index.js';
import { kindMisses, measuredKinds, type KindMisses } from './random-tokens.js';
import { loadCorpusModule } from './secret-corpus.js';

// The worker threads load their module file, so the test drives the compiled copy (npm test
// builds it first).
const compiled = new URL('../../dist/bench/random-tokens.js', import.meta.url).href;

describe('random-token miss rate (a small slice; the full run is npm run bench:secrets)', async () => {
  const corpus = await loadCorpusModule();
  const all = measuredKinds(corpus.KINDS).map((_, i) => i);

  it('finds every random well-formed token of every fixed-format kind, bare or after its key', async () => {
    const result = await kindMisses(defaultSecretDetector, all, 100, 20261130);
    expect(result.length).toBe(all.length);
    expect(result.filter((k) => k.fixedFormat && k.missed > 0).map((k) => `${k.family}/${k.kind}`)).toEqual([]);
    // GitHub and npm tokens are drawn with their checksum, as issued.
    expect(result.some((k) => k.family === 'npm' && k.context === 'bare')).toBe(true);
  });

  it('gives the same figures in worker threads, however many (each kind draws from its own seed)', async () => {
    const { missesInWorkers } = (await import(compiled)) as { missesInWorkers: (t: number, s: number, w: number) => Promise<KindMisses[]> };
    const one = await missesInWorkers(20, 5, 1);
    const three = await missesInWorkers(20, 5, 3);
    expect(three).toEqual(one);
    expect(one).toEqual(await kindMisses(defaultSecretDetector, all, 20, 5));
  });
});
