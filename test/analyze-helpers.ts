import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

/** Repository root: the binary runs from here so file paths in its output are relative. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the real built binary: `node packages/cli/bin/argspan.js analyze ...args`. */
export function analyzeBin(...args: string[]): Run {
  const r = spawnSync(process.execPath, ['packages/cli/bin/argspan.js', 'analyze', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Parse `--format json` output; fails the test if stdout holds anything but the one JSON object. */
export function parseJson(run: Run): { findings: { rule: string; severity: string; key: string | null; tool: string | null; emitter: string | null; message: string }[]; stats: Record<string, unknown> & { skipped: { file: string; line?: number; reason: string }[] } } {
  return JSON.parse(run.stdout) as ReturnType<typeof parseJson>;
}

/** Rows of `sql` in DuckDB itself: over a `--db` file, or in memory (e.g. over `--export-parquet` files). */
export async function query(dbFile: string | undefined, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(dbFile ?? ':memory:');
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
