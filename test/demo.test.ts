import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DEMO = fileURLToPath(new URL('../packages/demo/dist/main.js', import.meta.url));
const CANARY = `AKIA${'DEMOCANARYQZXWVK'}`;

describe('npm run demo', () => {
  it('replays the three incidents against real components, audits the traces and leaves nothing running', () => {
    const traces = mkdtempSync(join(tmpdir(), 'argspan-demo-test-'));
    try {
      const r = spawnSync(process.execPath, [DEMO], { encoding: 'utf8', env: { ...process.env, ARGSPAN_DEMO_TRACES: traces, OTEL_EXPORTER_OTLP_ENDPOINT: '' }, timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      const out = r.stdout;
      // 1. the .env bundle never reaches the MCP server
      expect(out).toMatch(/call 1 read_text_file: ran on the local MCP server/);
      expect(out).toMatch(/call 3 read_multiple_files: ArgspanRefusedError: .*secret-file-name at paths\[2\]/);
      // 2. one clarifying question instead of a wrong invite
      expect(out).toMatch(/calendar\.create: asked: .*which time zone \(`timezone`\)/);
      expect(out).toMatch(/invites sent so far: 0/);
      // 3. exactly one side effect for the idempotency key across the crash
      expect(out).toMatch(/replays from the checkpoint/);
      expect(out).toMatch(/model server: 2 requests under one idempotency key, 1 side effect$/m);
      // the analyzer report
      // held before it ran: reported for review, at info (it does not fail CI)
      expect(out).toMatch(/info\s+held_assumption\s+calendar\.create\s+timezone/);
      expect(out).not.toMatch(/assumption_span/);
      // the HTML report of the run, beside the traces
      const report = join(traces, 'report.html');
      expect(out).toContain(`HTML report of this run: ${report}`);
      const html = readFileSync(report, 'utf8');
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('<code>held_assumption</code>');
      expect(html).not.toContain(CANARY);
      // no canary anywhere: stdout, stderr, every trace file
      expect(out + r.stderr).not.toContain(CANARY);
      const files = readdirSync(traces);
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect(readFileSync(join(traces, f), 'utf8')).not.toContain(CANARY);
      // nothing left running: no process mentions the demo's scripts or its temporary folders
      const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
      expect(ps).not.toMatch(/model-server\.js|cafe-agent\.js|argspan-demo-repo-|argspan-demo-cafe-/);
    } finally {
      rmSync(traces, { recursive: true, force: true });
    }
  });
});
