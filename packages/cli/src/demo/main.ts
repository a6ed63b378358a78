/**
 * `npm run demo` — the classification demo: a scripted agent transcript replayed against a real
 * temporary git repository (a `.env` with a canary secret, an uncommitted `src/config.py`), each
 * call classified and gated as argspan would before dispatch. No LLM, no network.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyCall, parseRecordedCall, readDirtySet, type CallClassification } from '@argspan/core';

const TRANSCRIPT = fileURLToPath(new URL('../../../../fixtures/calls/demo-transcript.jsonl', import.meta.url));

function makeRepo(): string {
  const root = mkdtempSync(join(tmpdir(), 'argspan-demo-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      env: { ...process.env, GIT_AUTHOR_NAME: 'demo', GIT_AUTHOR_EMAIL: 'demo@example.com', GIT_COMMITTER_NAME: 'demo', GIT_COMMITTER_EMAIL: 'demo@example.com' },
    });
  git('init', '-q');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/parser.py'), 'def parse(text):\n    return [line.split("=", 1) for line in text.splitlines()]\n');
  writeFileSync(join(root, 'src/config.py'), 'MODE = "lenient"\n');
  writeFileSync(join(root, '.gitignore'), '.env\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  writeFileSync(join(root, 'src/config.py'), 'MODE = "strict"  # uncommitted tidy-up\n');
  // A canary made for the demo: shaped like an AWS key id so the detector must catch it.
  writeFileSync(join(root, '.env'), `AWS_ACCESS_KEY_ID=AKIA${'DEMOCANARY000042'}\n`);
  return root;
}

function row(c: CallClassification): string {
  const gate = c.gate.action === 'allow' ? 'allow' : `${c.gate.action} ${c.gate.hits.join(',')}`;
  return `  ${c.tool.padEnd(18)} ${c.residency.padEnd(13)} ${c.verdict.padEnd(10)} ${gate.padEnd(32)} ${c.reason}`;
}

export async function runDemo(out: NodeJS.WritableStream = process.stdout): Promise<void> {
  const repo = makeRepo();
  try {
    const dirty = await readDirtySet(repo);
    const lines = readFileSync(TRANSCRIPT, 'utf8').split('\n').filter((l) => l.trim() !== '');
    let scene = '';
    out.write('argspan demo: classifying a scripted agent transcript before dispatch\n');
    out.write(`repository: ${repo} (uncommitted: ${[...(dirty?.paths ?? [])].join(', ')})\n`);
    for (const line of lines) {
      const raw = JSON.parse(line) as Record<string, unknown> & { scene: string };
      if (raw.scene !== scene) {
        scene = raw.scene;
        out.write(`\n${scene}\n  ${'tool'.padEnd(18)} ${'residency'.padEnd(13)} ${'verdict'.padEnd(10)} ${'gate'.padEnd(32)} reason\n`);
      }
      const rec = parseRecordedCall(raw);
      const c = classifyCall(rec.call, rec.context, { ...rec.policy, ...(dirty ? { dirty } : {}) });
      out.write(row(c) + '\n');
      if (c.gate.question) out.write(`  ${''.padEnd(18)} asks: ${c.gate.question}\n`);
    }
    out.write('\nNo argument value above left the machine: reasons name rules and keys, never values.\n');
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runDemo().catch((err: unknown) => {
    process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
