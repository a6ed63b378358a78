import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CANARY_AWS_KEY } from '../analyzer/src/synth/rule-cases.js';

const BIN = fileURLToPath(new URL('../packages/cli/bin/argspan.js', import.meta.url));

function run(args: string[], input: string, cwd?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('argspan classify (the real binary)', () => {
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

  it('a value copied from an earlier line\'s .env read inherits secret; an entry can also say its residency', () => {
    const pw = 'correct-horse-battery-staple-42';
    const lines = [
      { tool: 'read_file', call_id: 'c1', args: { path: '.env' }, deny_residencies: [] },
      { tool: 'summarize_docs', args: { note: pw }, context: [{ call_id: 'c1', content: pw }] }, // found by the source call, not the text
      { tool: 'summarize_docs', args: { note: pw }, context: [{ call_id: 'vault', content: pw, residency: 'secret' }] },
      { tool: 'summarize_docs', args: { note: pw }, context: [{ call_id: 'c1', content: pw }], inherit_residency: false },
    ].map((l) => JSON.stringify(l));
    const r = run(['classify', '--remote-allowlist', 'summarize_docs'], lines.join('\n') + '\n');
    expect(r.code).toBe(0);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out.map((o) => o.args[0].rule)).toEqual(['secret-file-name', 'inherited-secret', 'inherited-secret', 'tiny']);
    expect(out[1].reason).toContain('copied from the result of call c1');
    expect(r.stdout + r.stderr).not.toContain(pw);
    expect(run(['classify', '--no-inherit-residency'], lines[1]! + '\n').stdout).toContain('"tiny"');
    const bad = run(['classify'], JSON.stringify({ tool: 't', args: {}, context: [{ content: 'x', residency: 'top-secret' }] }) + '\n');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 1: "context\[0\].residency" must be a residency label/);
  });

  it('exits 1 with --fail-on-gate when a call is gated', () => {
    const r = run(['classify', '--fail-on-gate'], '{"tool":"cal","args":{"timezone":"UTC"},"user_text":"book it"}\n');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).gate.action).toBe('ask');
  });

  it('gates no_evidence values with --on-no-evidence when a line says the user text is not available', () => {
    const line = '{"tool":"email.send","args":{"to":"maria@example.com"},"user_text_available":false}\n';
    const logged = run(['classify', '--fail-on-gate'], line);
    expect(logged.code).toBe(0);
    expect(JSON.parse(logged.stdout).args[0].provenance).toBe('no_evidence');
    const blocked = run(['classify', '--fail-on-gate', '--on-no-evidence', 'block'], line);
    expect(blocked.code).toBe(1);
    expect(JSON.parse(blocked.stdout).enforcement).toEqual({ action: 'deny', reason: 'denied: value with no evidence of who gave it on email.send.to (noEvidenceAction block)' });
    const fromLine = run(['classify'], line.replace('}\n', ',"no_evidence_action":"ask"}\n'));
    expect(JSON.parse(fromLine.stdout).enforcement.action).toBe('hold');
    expect(run(['classify', '--on-no-evidence', 'maybe'], '').code).toBe(2);
  });

  it('rejects a bad option value with exit 2', () => {
    for (const args of [['--bulky-threshold', 'lots'], ['--bulky-threshold', '-5'], ['--deny-residencies', 'secrets'], ['--inferred-action', 'maybe']]) {
      const r = run(['classify', ...args], '');
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(args[0]);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });

  it('exits 2 when --repo is not a git work tree, instead of answering without dirty-tree evidence', () => {
    for (const repo of ['/nonexistent/argspan-repo', tmpdir()]) {
      const r = run(['classify', '--repo', repo], '{"tool":"t","args":{"path":"draft.md"}}\n');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`--repo ${repo}: not a git work tree`);
    }
  });

  describe('the demo transcript', () => {
    const transcript = readFileSync(new URL('../fixtures/calls/demo-transcript.jsonl', import.meta.url), 'utf8').trim().split('\n');

    it('--fail-on-gate exits 1 on the third call, which bundles .env and is denied', () => {
      const r = run(['classify', '--fail-on-gate'], transcript.slice(0, 3).join('\n'));
      expect(r.code).toBe(1);
      const third = JSON.parse(r.stdout.trim().split('\n')[2]!);
      expect(third.enforcement.action).toBe('deny');
      expect(third.enforcement.reason).toMatch(/secret-file-name at files\[2\]/);
      expect(run(['classify', '--fail-on-gate'], transcript.slice(0, 2).join('\n')).code).toBe(0);
    });

    it('takes the policy from a file and from flags; the same policy the instrumentation takes', () => {
      const dir = mkdtempSync(join(tmpdir(), 'argspan-policy-'));
      try {
        const policy = join(dir, 'policy.json');
        // A model on this machine: secret calls may run here.
        writeFileSync(policy, JSON.stringify({ deny_residencies: [], remote_allowlist: ['model.summarise'] }));
        const r = run(['classify', '--fail-on-gate', '--policy', policy], transcript.slice(0, 3).join('\n'));
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout.trim().split('\n')[2]!).enforcement.action).toBe('run');
        // A flag wins over the file.
        expect(run(['classify', '--fail-on-gate', '--policy', policy, '--deny-residencies', 'secret'], transcript.slice(0, 3).join('\n')).code).toBe(1);

        writeFileSync(policy, '{"deny_residencies": ["secrets", "CANARY-POLICY-VALUE"]}');
        const bad = run(['classify', '--policy', policy], transcript[0]!);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain(policy);
        expect(bad.stderr).toMatch(/deny_residencies/);
        expect(bad.stderr).not.toContain('CANARY');
        // A field the policy has no name for is refused, never ignored (the gate would stay on its default):
        // a typo, the API's camelCase (with the field meant), a key holding a credential (shown redacted).
        for (const [field, said] of [
          ['infered_action', /unknown policy field "infered_action"; the fields are remote_allowlist, /],
          ['inferredAction', /unknown policy field "inferredAction"; did you mean "inferred_action"\?/],
          [`note_${CANARY_AWS_KEY}`, /unknown policy field "note_\[REDACTED:[a-z-]+\]"/],
        ] as const) {
          writeFileSync(policy, JSON.stringify({ [field]: 'block' }));
          const unknown = run(['classify', '--policy', policy], transcript[0]!);
          expect(unknown.code, field).toBe(2);
          expect(unknown.stderr).toMatch(said);
          expect(unknown.stderr).not.toContain(CANARY_AWS_KEY);
        }
        const missing = run(['classify', '--policy', join(dir, 'nope.json')], transcript[0]!);
        expect(missing.code).toBe(2);
        expect(missing.stderr).toMatch(/nope\.json: cannot read the file \(ENOENT\)/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('--remote-hop judges remote-ok calls as an agent with a remote hop would', () => {
      const summarise = transcript.find((l) => l.includes('"model.summarise"'))!;
      expect(JSON.parse(run(['classify'], summarise).stdout).enforcement.action).toBe('run');
      expect(JSON.parse(run(['classify', '--remote-hop'], summarise).stdout).enforcement.action).toBe('hop');
    });
  });
});
