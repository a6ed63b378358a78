#!/usr/bin/env node
/**
 * Write the HTML report's golden files: `node scripts/update-html-golden.mjs` (after `npx tsc -b`).
 * For each golden scenario, runs the built CLI as the golden test does
 * (`argspan analyze fixtures/traces/<scenario>.jsonl --format html --jaeger-url http://localhost:16686`)
 * and writes its golden form (inlined libraries reduced to their names, wall time 0) to
 * fixtures/traces/golden/<scenario>.html. Review the diff before committing it;
 * test/html-report-golden.test.ts compares against what is committed and never writes it.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { goldenForm } from '../analyzer/dist/reporters/html/golden-form.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HTML_GOLDEN_SCENARIOS = ['tokyo-invite', 'dotenv'];
const HTML_GOLDEN_ARGS = ['--format', 'html', '--jaeger-url', 'http://localhost:16686'];

for (const scenario of HTML_GOLDEN_SCENARIOS) {
  const run = spawnSync(process.execPath, ['packages/cli/bin/argspan.js', 'analyze', `fixtures/traces/${scenario}.jsonl`, ...HTML_GOLDEN_ARGS], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 1) throw new Error(`${scenario}: argspan analyze exited ${run.status}: ${run.stderr}`);
  const file = `fixtures/traces/golden/${scenario}.html`;
  writeFileSync(new URL(`../${file}`, import.meta.url), goldenForm(run.stdout));
  console.log(`wrote ${file}`);
}
