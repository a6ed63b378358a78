import { fingerprintOf, sortFindings, type Finding } from '../rules/run-rules.js';
import type { AnalysisResult } from '../types.js';

/**
 * `base`'s findings repeated to `n`, copy k on trace ids of their own (so every row differs), for
 * reports of many findings: a trace set that yields 100k findings takes minutes to analyse.
 */
export function repeatFindings(base: AnalysisResult, n: number): AnalysisResult {
  const real = base.findings;
  const findings: Finding[] = [];
  for (let i = 0; i < n; i++) {
    const f = real[i % real.length]!;
    const copy = Math.floor(i / real.length);
    const trace_id = copy === 0 ? f.trace_id : `${copy.toString(16).padStart(8, '0')}${(f.trace_id ?? '').slice(8)}`;
    // (each copy a fingerprint of its own, as findings of other tools would have)
    findings.push({ ...f, trace_id, fingerprint: copy === 0 ? f.fingerprint : fingerprintOf({ ...f, tool: `${f.tool ?? ''}#copy${copy}` }) });
  }
  return { ...base, findings: sortFindings(findings) };
}
