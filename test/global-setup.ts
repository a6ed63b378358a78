import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every test's temporary files, and those of the processes tests start, go under one directory
 * that is removed when the run ends: a test that forgets to remove its own leaves nothing behind
 * in the system's temporary directory.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'argspan-tests-'));
  // (traversable by others, as /tmp is: a hop test runs a child process as uid 65534 under it)
  chmodSync(dir, 0o755);
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
