import { makeDirectoriesSync } from '@argspan/core/internal';
import { join } from 'node:path';
import type { Db } from './db.js';
import { sqlString } from './load/duckdb-types.js';

/** The normalised tables and views, in the order they are documented (analyzer/README.md, "Schema"). */
export const SCHEMA_TABLES = [
  'files',
  'spans',
  'span_attributes',
  'events',
  'event_attributes',
  'links',
  'resources',
  'resource_attributes',
  'tool_calls',
  'gate_hits',
  'tool_args',
  'argument_blobs',
  'argument_credentials',
  'hop_events',
  'credential_hits',
  'log_record_credential_hits',
  'remote_allowlist',
  'deny_residencies',
] as const;

/** Write each table to `<dir>/<table>.parquet` so the same rules can run on another SQL engine. */
export async function exportParquet(db: Db, dir: string): Promise<string[]> {
  // (not mkdirSync's recursive mode: under /proc it never returns)
  makeDirectoriesSync(dir);
  const written: string[] = [];
  for (const t of SCHEMA_TABLES) {
    const file = join(dir, `${t}.parquet`);
    await db.run(`COPY ${t} TO ${sqlString(file)} (FORMAT parquet)`);
    written.push(file);
  }
  return written;
}
