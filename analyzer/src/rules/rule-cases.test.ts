import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { loadRules } from './rule-file.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/traces/rules/', import.meta.url));

// gitleaks-style: every shipped rule is validated against its own examples before it ships.
describe.each(loadRules().map((r) => r.id))('rule %s', (id) => {
  it('hits its true-positive trace', async () => {
    const r = await analyze({ paths: [join(FIXTURES, id, 'tp.jsonl')], reports: true });
    expect(r.findings.filter((f) => f.rule === id).length).toBeGreaterThan(0);
  });
  it('stays quiet on its false-positive trace', async () => {
    const r = await analyze({ paths: [join(FIXTURES, id, 'fp.jsonl')], reports: true });
    expect(r.findings.filter((f) => f.rule === id)).toEqual([]);
  });
});
