import { readFileSync, writeFileSync } from 'node:fs';
import { fingerprintOf, type Finding } from './rules/run-rules.js';

/**
 * A baseline file: accepted findings by fingerprint (written with `--write-baseline`). Version 2:
 * fingerprints of rule, tool and key (see `fingerprintOf`); version 1's also named the trace and
 * span, and are read by their entries' rule, tool and key.
 */
export interface BaselineFile {
  version: 2;
  findings: BaselineEntry[];
}

/** The baseline version this argspan writes; it reads this one and version 1. */
const BASELINE_VERSION = 2;

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
  const version = (data as { version?: unknown } | null)?.version;
  if (version !== undefined && version !== 1 && version !== BASELINE_VERSION) throw new Error(`${file}: baseline of another version than the ones this argspan reads (1, ${BASELINE_VERSION})`);
  const findings = (data as Partial<BaselineFile> | null)?.findings;
  if (!Array.isArray(findings) || findings.some((f) => typeof f?.fingerprint !== 'string')) {
    throw new Error(`${file}: baseline has no "findings" list of {fingerprint}`);
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const entries = findings.map((f) => ({ fingerprint: f.fingerprint, rule: text(f.rule) ?? '', trace_id: text(f.trace_id), span_id: text(f.span_id), tool: text(f.tool), key: text(f.key) }));
  if (version === BASELINE_VERSION) return entries;
  // Version 1 (or none): its fingerprints named the trace and span, so they match only the very
  // traces it was recorded from. Each entry is known again by its rule, tool and key, counted as
  // the findings are, so the baseline accepts what it accepted, in any recording.
  const seen = new Map<string, number>();
  return entries.map((e) => {
    const plain = fingerprintOf(e);
    const occurrence = (seen.get(plain) ?? 0) + 1;
    seen.set(plain, occurrence);
    return { ...e, fingerprint: fingerprintOf(e, occurrence) };
  });
}

/** Write the findings as a baseline (sorted, so the file diffs well). */
export function writeBaseline(file: string, findings: readonly Finding[]): void {
  const body: BaselineFile = {
    version: BASELINE_VERSION,
    findings: [...findings]
      .map(({ fingerprint, rule, trace_id, span_id, tool, key }) => ({ fingerprint, rule, trace_id, span_id, tool, key }))
      .sort((a, b) => a.fingerprint.localeCompare(b.fingerprint)),
  };
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
}
