import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '@argspan/analyzer';
import { parseRecordedCall } from '@argspan/core/internal';
import { FileSpanExporter } from '@argspan/setup';
import { loadCases } from './support/case-table.js';
import { viaInstrumentDispatch } from './support/entry-points.js';

// The writer/reader contract end to end: each case of the shared table runs through the real
// instrumentation and its file exporter, then the analyzer reads the files with the case's policy
// and must report exactly the findings the case expects — no consistency-check finding on a
// correctly gated call, and no canary from the arguments in any file.
const dir = mkdtempSync(join(tmpdir(), 'argspan-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CANARY = 'AKIAQ7CANARYZARGSPAN';
const cases = loadCases();
const caseDir = (i: number) => join(dir, `case-${String(i).padStart(2, '0')}`);
const findings = new Map<string, string[]>();

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  for (const [i, c] of cases.entries()) {
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FileSpanExporter({ directory: caseDir(i) }))] });
    const turn = provider.getTracer('agent').startSpan('agent turn');
    await context.with(trace.setSpan(context.active(), turn), () => viaInstrumentDispatch(c.raw, provider));
    turn.end();
    await provider.shutdown();
  }
  // One analysis per policy the cases use, as a CI job would run it with the agents' own policy.
  const byPolicy = new Map<string, number[]>();
  for (const [i, c] of cases.entries()) {
    const p = parseRecordedCall(c.raw).policy;
    const key = JSON.stringify([p.remoteAllowlist ?? [], p.denyResidencies ?? ['secret']]);
    byPolicy.set(key, [...(byPolicy.get(key) ?? []), i]);
  }
  for (const [key, indices] of byPolicy) {
    const [remoteAllowlist, denyResidencies] = JSON.parse(key) as [string[], ('secret' | 'dirty-tree')[]];
    const result: AnalysisResult = await analyze({ paths: indices.map(caseDir), remoteAllowlist, denyResidencies, reports: false });
    expect(result.stats.malformed_lines).toBe(0);
    for (const i of indices) findings.set(cases[i]!.name, []);
    for (const f of result.findings) {
      const i = indices.find((j) => f.file.startsWith(caseDir(j) + '/'));
      findings.get(cases[i!]!.name)!.push(`${f.rule} ${f.key}`);
    }
  }
});

describe('instrumentation → file exporter → analyzer, case by case', () => {
  cases.forEach((c, i) => {
    it(c.name, () => {
      expect(findings.get(c.name)!.sort()).toEqual([...(c.expect.findings ?? [])].sort());
      for (const f of readdirSync(caseDir(i))) expect(readFileSync(join(caseDir(i), f), 'utf8')).not.toContain(CANARY);
    });
  });
});
