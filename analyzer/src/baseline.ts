import { readFileSync, writeFileSync } from 'node:fs';
import type { Finding } from './rules/run-rules.js';

/** A baseline file: accepted findings by fingerprint (written with `--write-baseline`). */
export interface BaselineFile {
  version: 1;
  findings: BaselineEntry[];
}

/** One accepted finding of a baseline. */
export interface BaselineEntry {
  fingerprint: string;
  rule: string;
  trace_id: string | null;
  span_id: string | null;
  tool: string | null;
  key: string | null;
}

/** Read a baseline's fingerprints. Throws with the file name when it is missing or malformed. */
export function readBaseline(file: string): Set<string> {
  return new Set(readBaselineEntries(file).map((f) => f.fingerprint));
}

/**
 * Read a baseline's entries; fields other than the fingerprint that are not strings read as null
 * (a hand-edited file). Throws with the file name when it is missing or malformed.
 */
export function readBaselineEntries(file: string): BaselineEntry[] {
  let data: unknown;
  try {
    // (a byte order mark, as some editors write one, skipped as in trace files)
    data = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new Error(`${file}: baseline cannot be read (${(err as NodeJS.ErrnoException).code ?? 'not JSON'})`);
  }
  // A later argspan may write another version, whose fingerprints this one cannot vouch for.
  const version = (data as Partial<BaselineFile> | null)?.version;
  if (version !== undefined && version !== 1) throw new Error(`${file}: baseline of another version than the one this argspan reads (1)`);
  const findings = (data as Partial<BaselineFile> | null)?.findings;
  if (!Array.isArray(findings) || findings.some((f) => typeof f?.fingerprint !== 'string')) {
    throw new Error(`${file}: baseline has no "findings" list of {fingerprint}`);
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return findings.map((f) => ({ fingerprint: f.fingerprint, rule: text(f.rule) ?? '', trace_id: text(f.trace_id), span_id: text(f.span_id), tool: text(f.tool), key: text(f.key) }));
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
