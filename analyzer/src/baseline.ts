import { readFileSync, writeFileSync } from 'node:fs';
import type { Finding } from './rules/run-rules.js';

/** A baseline file: accepted findings by fingerprint (written with `--write-baseline`). */
export interface BaselineFile {
  version: 1;
  findings: { fingerprint: string; rule: string; trace_id: string | null; span_id: string | null; tool: string | null; key: string | null }[];
}

/** Read a baseline's fingerprints. Throws with the file name when it is missing or malformed. */
export function readBaseline(file: string): Set<string> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: baseline cannot be read (${(err as NodeJS.ErrnoException).code ?? 'not JSON'})`);
  }
  const findings = (data as Partial<BaselineFile> | null)?.findings;
  if (!Array.isArray(findings) || findings.some((f) => typeof f?.fingerprint !== 'string')) {
    throw new Error(`${file}: baseline has no "findings" list of {fingerprint}`);
  }
  return new Set(findings.map((f) => f.fingerprint));
}

/** Write the findings as a baseline (sorted, so the file diffs well). */
export function writeBaseline(file: string, findings: readonly Finding[]): void {
  const body: BaselineFile = {
    version: 1,
    findings: [...findings]
      .map(({ fingerprint, rule, trace_id, span_id, tool, key }) => ({ fingerprint, rule, trace_id, span_id, tool, key }))
      .sort((a, b) => a.fingerprint.localeCompare(b.fingerprint)),
  };
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
}
