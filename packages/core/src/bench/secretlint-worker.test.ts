import { describe, expect, it } from 'vitest';
import type { SecretlintWorker } from './secretlint-worker.js';
import { loadCorpusModule } from './secret-corpus.js';

// The worker loads its own module file in a new thread, so the test drives the compiled copy
// (npm test builds it first).
const compiled = new URL('../../dist/bench/secretlint-worker.js', import.meta.url).href;

describe('secretlint worker (the benchmark reference)', async () => {
  const { startSecretlintWorker } = (await import(compiled)) as { startSecretlintWorker: () => SecretlintWorker };
  const corpus = await loadCorpusModule();
  const key = corpus.generatePositives(5, 1).find((p) => p.family === 'private-key' && p.context === 'bare')!;

  it('runs lintSource in its own thread and reports ranges and the time of each call', async () => {
    const w = startSecretlintWorker();
    try {
      const found = await w.lint(key.text);
      expect(found.ranges.length).toBeGreaterThan(0);
      expect(found.ms).toBeGreaterThan(0);
      const clean = await w.lint('nothing secret in here');
      expect(clean.ranges).toEqual([]);
      // Many calls in a row stay answered in order (the profiler's lists are emptied between them).
      const many = await Promise.all(Array.from({ length: 50 }, (_, i) => w.lint(i % 2 ? key.text : 'plain text')));
      many.forEach((r, i) => expect(r.ranges.length > 0).toBe(i % 2 === 1));
    } finally {
      await w.close();
    }
    await expect(w.lint('after close')).rejects.toThrow();
  });
});
