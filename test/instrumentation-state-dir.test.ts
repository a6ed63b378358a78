import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The instrumentation never lets the disk decide whether a call is gated: in a working directory
// where nothing can be created (procfs refuses every mkdir, for root too), calls are still
// classified, gated and recorded, with one warning that hashes will not join across processes.
const INSTRUMENTATION = fileURLToPath(new URL('../packages/instrumentation/dist/index.js', import.meta.url));
const SETUP = fileURLToPath(new URL('../packages/setup/dist/index.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'argspan-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runAgent(cwd: string, env: Record<string, string> = {}) {
  const script = join(dir, `agent-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    script,
    `import { instrumentDispatch, ArgspanRefusedError } from ${JSON.stringify(INSTRUMENTATION)};
import { setupTracing } from ${JSON.stringify(SETUP)};
const tracing = setupTracing({ register: false, exporter: 'file', env: {}, file: { directory: ${JSON.stringify(join(dir, 'traces'))} } });
const run = instrumentDispatch(async () => 'ran', { tracerProvider: tracing.provider });
console.log(await run('fs.read', { path: 'README.md' }));
console.log(await run('fs.read', { path: 'README.md' }));
console.log(await run('fs.read', { path: '.env' }).catch((e) => e instanceof ArgspanRefusedError ? 'denied' : 'other ' + e));
await tracing.shutdown();
console.log(JSON.stringify(tracing.stats()));`,
  );
  return spawnSync(process.execPath, [script], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });
}

describe('the instrumentation with no usable state directory', () => {
  it('gates and records every call in a read-only working directory, warning once', () => {
    const r = runAgent('/proc');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual(['ran', 'ran', 'denied']);
    expect(JSON.parse(r.stdout.split('\n')[3]!)).toEqual([{ ended: 6, exported: 6, dropped: 0, failed: 0, queued: 0 }]); // a tool span and an argument span per call
    expect(r.stderr.match(/ARGSPAN_EPHEMERAL_HASH_KEY/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/hashes use a per-process key and will not join across processes/);
  });

  it('takes the key from ARGSPAN_HASH_KEY without touching the disk, and refuses a malformed one by name', () => {
    const ok = runAgent('/proc', { ARGSPAN_HASH_KEY: 'ab'.repeat(32) });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).not.toMatch(/ARGSPAN_EPHEMERAL_HASH_KEY/);
    const bad = runAgent(dir, { ARGSPAN_HASH_KEY: 'CANARY-not-hex' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/ARGSPAN_HASH_KEY must be at least 32 hex digits/);
    expect(bad.stderr).not.toContain('CANARY');
  });

  it('joins hashes across processes through the state directory when it is usable', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    expect(runAgent(cwd).status).toBe(0);
    const key = readFileSync(join(cwd, '.argspan', 'hash.key'), 'utf8');
    expect(runAgent(cwd).status).toBe(0);
    expect(readFileSync(join(cwd, '.argspan', 'hash.key'), 'utf8')).toBe(key);
  });
});
