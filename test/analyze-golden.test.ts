import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_AWS_KEY } from '../analyzer/src/synth/rule-cases.js';
import { ROOT, analyzeBin, parseJson } from './analyze-helpers.js';

const GOLDEN = join(ROOT, 'fixtures/traces/golden');
const FORMATS = { table: 'txt', json: 'json', junit: 'xml', sarif: 'sarif.json' } as const;
const normalise = (s: string) => s.replace(/"time_ms": \d+/g, '"time_ms": 0');

const EXPECTED: Record<string, [string, string | null][]> = {
  'tokyo-invite': [
    ['assumption_span', 'attendee.email'],
    ['assumption_span', 'timezone'],
    ['inferred_gate_missed', 'attendee.email'],
    ['inferred_leaf_not_in_hits', 'attendee.email'],
    ['inferred_leaf_not_in_hits', 'timezone'],
  ],
  dotenv: [
    ['credential_in_attribute', 'text'],
    ['excerpt_on_sensitive_leaf', 'text'],
    ['local_verdict_went_remote', null],
    ['sensitive_arg_sent_remote', 'text'],
  ],
};

describe.each(Object.keys(EXPECTED))('golden: %s', (scenario) => {
  const input = `fixtures/traces/${scenario}.jsonl`;

  it.each(Object.entries(FORMATS))('matches the %s golden file, with no canary in it', (format, ext) => {
    const run = analyzeBin(input, '--format', format);
    expect(run.code).toBe(1);
    if (format === 'json') {
      // Exactly the expected findings, not only "the same as last time".
      const got = parseJson(run).findings.map((f) => [f.rule, f.key] as [string, string | null]);
      expect(got.sort()).toEqual([...EXPECTED[scenario]!].sort());
    }
    const out = normalise(run.stdout);
    expect(out).not.toContain(CANARY_AWS_KEY);
    expect(run.stderr).not.toContain(CANARY_AWS_KEY);
    const file = join(GOLDEN, `${scenario}.${ext}`);
    // Golden files are written by a person's command (UPDATE_GOLDEN=1 npx vitest run test/analyze-golden.test.ts),
    // reviewed, and committed; a missing one fails.
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, out);
    }
    expect(existsSync(file), `${file} (write it with UPDATE_GOLDEN=1)`).toBe(true);
    expect(out).toBe(readFileSync(file, 'utf8'));
  });
});
