import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { classifyCall, parseRecordedCall, type CallClassification, type ClassifyOptions } from '@argspan/core';

/**
 * The shared case table (fixtures/calls/cases.jsonl): seed 000 and 002 test plans and look-alikes,
 * checked against classifyCall, the classify CLI and the instrumentation's spans.
 */
export interface CaseExpect {
  residency?: string;
  verdict?: string;
  action?: string;
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
  got: { residency: string; verdict: string; gate: { action: string; hits: string[] }; leaves: { key: string; residency: string; provenance: string; rule: string; sourceCallId?: string }[] },
  exp: CaseExpect,
): void {
  if (exp.residency) expect(got.residency).toBe(exp.residency);
  if (exp.verdict) expect(got.verdict).toBe(exp.verdict);
  if (exp.action) expect(got.gate.action).toBe(exp.action);
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

export function classifyCase(raw: Record<string, unknown>): CallClassification {
  const rec = parseRecordedCall(raw);
  const options: ClassifyOptions = { ...rec.policy };
  if (rec.dirty) options.dirty = { root: '/repo', paths: new Set(rec.dirty), prefixes: [], lines: new Set() };
  return classifyCall(rec.call, rec.context, options);
}

