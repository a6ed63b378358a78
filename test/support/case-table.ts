import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/**
 * The shared case table (fixtures/calls/cases.jsonl): seed 000's and 002's test plans, the README's
 * incidents, look-alikes and policy options — checked against every entry point (classifyCall, the
 * classify CLI, the instrumentation, the adapters) and through instrument → export → analyze.
 */
export interface CaseExpect {
  residency?: string;
  verdict?: string;
  /** Gate action of the inferred-field gate. */
  action?: string;
  /** What the wrapper does under the case's policy (no remote hop configured). */
  enforcement?: string;
  /** `rule key` of every finding `argspan analyze` reports on the instrumented call (policy as in the case). */
  findings?: string[];
  hits?: string[];
  leaves?: Record<string, { residency?: string; provenance?: string; rule?: string; source_call_id?: string }>;
}

export const CASES_FILE = new URL('../../fixtures/calls/cases.jsonl', import.meta.url);

export function loadCases(): { name: string; line: string; raw: Record<string, unknown>; expect: CaseExpect }[] {
  return readFileSync(CASES_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const raw = JSON.parse(line) as Record<string, unknown> & { name: string; expect: CaseExpect };
      return { name: raw.name, line, raw, expect: raw.expect };
    });
}

/** Check one outcome (from classifyCall or from the CLI's JSON line) against a case's expectations. */
export function checkCase(
  got: { residency: string; verdict: string; gate: { action: string; hits: string[] }; enforcement?: { action: string }; leaves: { key: string; residency: string; provenance: string; rule: string; sourceCallId?: string }[] },
  exp: CaseExpect,
): void {
  if (exp.residency) expect(got.residency).toBe(exp.residency);
  if (exp.verdict) expect(got.verdict).toBe(exp.verdict);
  if (exp.action) expect(got.gate.action).toBe(exp.action);
  if (exp.enforcement) expect(got.enforcement?.action, 'enforcement').toBe(exp.enforcement);
  if (exp.hits) expect(got.gate.hits).toEqual(exp.hits);
  for (const [key, want] of Object.entries(exp.leaves ?? {})) {
    const leaf = got.leaves.find((l) => l.key === key);
    expect(leaf, `leaf ${key}`).toBeDefined();
    if (want.residency) expect(leaf!.residency, `${key} residency`).toBe(want.residency);
    if (want.provenance) expect(leaf!.provenance, `${key} provenance`).toBe(want.provenance);
    if (want.rule) expect(leaf!.rule, `${key} rule`).toBe(want.rule);
    if (want.source_call_id) expect(leaf!.sourceCallId, `${key} source`).toBe(want.source_call_id);
  }
}
