import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenForm } from '../analyzer/src/reporters/html/golden-form.js';
import { CANARY_AWS_KEY } from '../analyzer/src/synth/rule-cases.js';
import { ROOT, analyzeBin } from './analyze-helpers.js';

// The same scenarios and flags as scripts/update-html-golden.mjs, which writes the files this reads.
const SCENARIOS = ['tokyo-invite', 'dotenv'];
const ARGS = ['--format', 'html', '--jaeger-url', 'http://localhost:16686'];

describe.each(SCENARIOS)('HTML golden: %s', (scenario) => {
  it('matches the committed structure (written by node scripts/update-html-golden.mjs), with no canary in it', () => {
    const run = analyzeBin(`fixtures/traces/${scenario}.jsonl`, ...ARGS);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).not.toContain(CANARY_AWS_KEY);
    const file = join(ROOT, `fixtures/traces/golden/${scenario}.html`);
    expect(existsSync(file), `${file} (write it with node scripts/update-html-golden.mjs)`).toBe(true);
    expect(goldenForm(run.stdout)).toBe(readFileSync(file, 'utf8'));
  });
});
