import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/traces/${name}`, import.meta.url));

/** Run `fn` with TMPDIR pointing at a fresh directory (this test's own), and return what it left there. */
async function leftInTmp(fn: () => Promise<unknown>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'argspan-analyze-test-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    await fn();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  return readdirSync(dir);
}
const summary = (fs: { rule: string; span_id: string | null; key: string | null }[]) => fs.map((f) => `${f.rule} ${f.span_id} ${f.key}`);

describe('analyze: phases and DuckDB settings', () => {
  it('reports every phase with its wall and CPU time, once per rule', async () => {
    const seen: { name: string; wall: number; cpu: number }[] = [];
    const result = await analyze({ paths: [fixture('dotenv.jsonl')], reports: true, onPhase: (name, wall, cpu) => seen.push({ name, wall, cpu }) });
    const names = seen.map((p) => p.name);
    for (const phase of ['stage', 'dedup', 'normalise', 'cleanup', 'argspan tables', 'argspan tables: tool_args', 'credential scan', 'credential scan: pre-filter', 'policy', 'findings']) {
      expect(names).toContain(phase);
    }
    expect(names.filter((n) => n.startsWith('rule ')).sort()).toEqual(result.rules.map((r) => `rule ${r.id}`).sort());
    expect(seen.every((p) => p.wall >= 0 && p.cpu >= 0)).toBe(true);
  });

  it('finds the same under a small memory limit and one thread, and removes its spill directory', async () => {
    const paths = [fixture('tokyo-invite.jsonl'), fixture('dotenv.jsonl')];
    const usual = await analyze({ paths, reports: true });
    let tight: Awaited<ReturnType<typeof analyze>> | undefined;
    const left = await leftInTmp(async () => (tight = await analyze({ paths, reports: true, memoryLimit: '160MB', threads: 1 })));
    expect(summary(tight!.findings)).toEqual(summary(usual.findings));
    expect(tight!.findings.length).toBeGreaterThan(0);
    expect(left).toEqual([]);
  });

  it('a bad memory limit fails before anything is read and leaves no spill directory', async () => {
    const left = await leftInTmp(() => expect(analyze({ paths: [fixture('dotenv.jsonl')], memoryLimit: 'lots' })).rejects.toThrow(/--memory-limit: DuckDB refused the memory limit "lots"/));
    expect(left).toEqual([]);
  });

  it('no paths is a usage error naming what to give, before anything is opened', async () => {
    const left = await leftInTmp(() => expect(analyze({ paths: [] })).rejects.toMatchObject({ name: 'UsageError', message: 'paths: give the trace files, folders or globs to analyse' }));
    expect(left).toEqual([]);
  });

  it('reads whole-document formats under a memory limit smaller than their reader reserves', async () => {
    const result = await analyze({ paths: [join(fixture('formats'), 'jaeger-trace.json')], memoryLimit: '256MB' });
    expect(result.stats.spans).toBeGreaterThan(0);
  });
});
