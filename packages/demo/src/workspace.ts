import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The demo's canary: shaped like an AWS access key id so the detector must catch it; never a real key. */
export const DEMO_CANARY = `AKIA${'DEMOCANARYQZXWVK'}`;

/**
 * A real git repository for the config-parser tidy-up: a committed parser, an uncommitted edit to
 * `src/config.py`, and a `.env` (git-ignored) holding the canary.
 */
export function makeDemoRepo(): string {
  const root = mkdtempSync(join(tmpdir(), 'argspan-demo-repo-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, GIT_AUTHOR_NAME: 'demo', GIT_AUTHOR_EMAIL: 'demo@example.com', GIT_COMMITTER_NAME: 'demo', GIT_COMMITTER_EMAIL: 'demo@example.com' },
    });
  git('init', '-q');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/parser.py'), 'def parse(text):\n    return [line.split("=", 1) for line in text.splitlines() if "=" in line]\n');
  writeFileSync(join(root, 'src/config.py'), 'MODE = "lenient"\n');
  writeFileSync(join(root, '.gitignore'), '.env\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  writeFileSync(join(root, 'src/config.py'), 'MODE = "strict"  # uncommitted tidy-up, not yet reviewed\n');
  writeFileSync(join(root, '.env'), `AWS_ACCESS_KEY_ID=${DEMO_CANARY}\n`);
  return root;
}
