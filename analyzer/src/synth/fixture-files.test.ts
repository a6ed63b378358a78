import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from './fixture-files.js';

const DIR = fileURLToPath(new URL('../../../fixtures/traces/', import.meta.url));

describe('committed trace fixtures', () => {
  it('match the generator (run `node fixtures/traces/generate.mjs` after changing analyzer/src/synth)', () => {
    for (const [rel, buf] of Object.entries(fixtureFiles())) {
      expect(readFileSync(join(DIR, rel)).equals(buf), rel).toBe(true);
    }
  });
});
