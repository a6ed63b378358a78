import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { analyzeBin, parseJson } from '../analyze-helpers.js';

/**
 * What the `test/analyze-foreign-*.test.ts` files share: `argspan analyze` as a platform team tries it
 * on traces other libraries wrote (the real fixtures of `fixtures/traces/foreign/`) and on the
 * other exports such teams have at hand.
 */

/** The real traces of other libraries, relative to the repository root the binary runs from. */
export const FOREIGN = 'fixtures/traces/foreign';

/** A new temporary directory for the files one test writes. */
export const tmp = (): string => mkdtempSync(join(tmpdir(), 'argspan-foreign-'));

/** Analyse `path` (JSON): exit 1, `want` (rule, tool, key, emitter) the one finding besides the run's reports, `token` printed nowhere; `calls` foreign calls where given. */
export function expectOnlyFinding(path: string, want: readonly [string, string, string, string], token: string, calls?: number): void {
  const run = analyzeBin(path, '--format', 'json');
  expect(run.code).toBe(1);
  const out = parseJson(run);
  if (calls !== undefined) expect(out.stats.foreign_calls).toBe(calls);
  expect(out.findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([want]);
  expect(run.stdout + run.stderr).not.toContain(token);
}
