import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import type { AnalysisResult } from '../types.js';
import { loadRules } from './rule-file.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/traces/rules/', import.meta.url));
const ids = loadRules().map((r) => r.id);
const file = (id: string, which: 'tp' | 'fp') => join(FIXTURES, id, `${which}.jsonl`);

// gitleaks-style: every shipped rule is validated against its own examples before it ships.
// The cases use distinct ids, runs, fingerprints and leases, so one load holds them all.
let result: AnalysisResult;
beforeAll(async () => {
  result = await analyze({ paths: ids.flatMap((id) => [file(id, 'tp'), file(id, 'fp')]), reports: true });
});

describe.each(ids)('rule %s', (id) => {
  it('hits its true-positive trace', () => {
    expect(result.findings.filter((f) => f.rule === id && f.file === file(id, 'tp')).length).toBeGreaterThan(0);
  });
  it('stays quiet on its false-positive trace', () => {
    expect(result.findings.filter((f) => f.rule === id && f.file === file(id, 'fp'))).toEqual([]);
  });
});

describe('rule cases', () => {
  it('load without duplicate spans (distinct ids per case)', () => {
    expect(result.stats.duplicate_spans).toBe(0);
    expect(result.stats.files).toBe(ids.length * 2);
  });
});
