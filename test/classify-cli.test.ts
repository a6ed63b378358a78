import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkCase, loadCases } from './support/case-table.js';

const BIN = fileURLToPath(new URL('../packages/cli/bin/argspan.js', import.meta.url));

function run(args: string[], input: string, cwd?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('argspan classify (the real binary)', () => {
  it('answers every case of the shared table with one JSON line each', () => {
    const cases = loadCases();
    const r = run(['classify'], cases.map((c) => c.line).join('\n') + '\n');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(cases.length);
    cases.forEach((c, i) => {
      const out = lines[i];
      const leaves = out.args.map((a: Record<string, string>) => ({ ...a, sourceCallId: a.source_call_id }));
      checkCase({ ...out, leaves }, c.expect);
    });
  });

  it('names the malformed line on stderr, answers the others and exits 2', () => {
    const input = ['{"tool":"a","args":{"x":"hello"}}', '{"tool": "b", "args": ', '[1,2]', '{"tool":"c","args":{"to":"US"},"user_text":"status"}'].join('\n');
    const r = run(['classify'], input);
    expect(r.code).toBe(2);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).tool)).toEqual(['a', 'c']);
    expect(r.stderr).toMatch(/line 2: not valid JSON/);
    expect(r.stderr).toMatch(/line 3: expected a JSON object/);
  });

  it('never prints a canary secret from the input, on stdout or stderr', () => {
    const canary = 'ghp_' + 'C4NARYc4naryC4NARYc4naryC4NARYc4nary';
    const r = run(['classify'], `{"tool":"t","args":{"token":"${canary}","note":"${canary}"}}\n{"tool":"t","args":${JSON.stringify(canary)}`);
    expect(r.stdout + r.stderr).not.toContain(canary);
    expect(JSON.parse(r.stdout.split('\n')[0]!).residency).toBe('secret');
  });

  it('uses a real repository dirty set with --repo', () => {
    const repo = mkdtempSync(join(tmpdir(), 'argspan-cli-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: repo });
      writeFileSync(join(repo, 'draft.md'), 'untracked\n');
      const r = run(['classify', '--repo', repo], '{"tool":"t","args":{"path":"draft.md","other":"README.md"}}\n');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.residency).toBe('dirty-tree');
      expect(out.args.map((a: { residency: string }) => a.residency)).toEqual(['dirty-tree', 'tiny-public']);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('exits 1 with --fail-on-gate when a call is gated', () => {
    const r = run(['classify', '--fail-on-gate'], '{"tool":"cal","args":{"timezone":"UTC"},"user_text":"book it"}\n');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).gate.action).toBe('ask');
  });

  it('rejects a bad option value with exit 2', () => {
    const r = run(['classify', '--bulky-threshold', 'lots'], '');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--bulky-threshold/);
  });
});
