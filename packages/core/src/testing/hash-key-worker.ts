/**
 * Child process for the hash-key crash test (run from dist/ by the test). Env: KEY_STATE_DIR;
 * KEY_CRASH_AT=<key step> SIGKILLs the process right after that file-system step; KEY_WAIT_GO=1
 * prints {"ready":true} and waits for a line on stdin first, so racers start together.
 * Prints {"fingerprint"} — a keyed hash of a fixed text, so processes can compare keys without
 * printing one — or {"error","message"}.
 */
import { writeSync } from 'node:fs';
import { once } from 'node:events';
import { HashKeyError, loadOrCreateHashKeyWith, nodeKeyFileOps } from '../hash-key-file.js';
import type { KeyStep } from '../hash-key-file.js';
import { createValueHasher } from '../keyed-hash.js';

const say = (obj: unknown) => writeSync(1, JSON.stringify(obj) + '\n');
const crashAt = process.env.KEY_CRASH_AT;

async function main(): Promise<void> {
  if (process.env.KEY_WAIT_GO === '1') {
    say({ ready: true });
    await once(process.stdin, 'data');
    process.stdin.destroy();
  }
  const onStep = (step: KeyStep) => {
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
  };
  const key = await loadOrCreateHashKeyWith(process.env.KEY_STATE_DIR!, nodeKeyFileOps, onStep);
  say({ fingerprint: createValueHasher(key).hash('argspan hash key check') });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    say({ error: err instanceof HashKeyError ? err.code : 'ERROR', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
