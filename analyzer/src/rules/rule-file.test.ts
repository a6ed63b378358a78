import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as conventions from '@argspan/conventions';
import { describe, expect, it } from 'vitest';
import { LOG_RECORD_BODY_KEY } from '../load/otlp-logs.js';
import { RULE_CASES } from '../synth/rule-cases.js';
import { RuleError, loadRules, parseRule } from './rule-file.js';

const RULE = `-- id: my_rule
-- title: My rule
-- severity: low
-- kind: gate
-- description: One line
--   and its continuation.
-- remedy: Fix it.
SELECT trace_id, span_id, tool, "key", 'x' AS reason FROM tool_args;
`;

/** Every string value exported by @argspan/conventions, recursively. */
function conventionValues(): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(Object.values(conventions));
  return out;
}

describe('rule files', () => {
  it('parses metadata with continuation lines and strips the trailing semicolon', () => {
    const r = parseRule(RULE, 'my_rule.sql');
    expect(r).toMatchObject({ id: 'my_rule', severity: 'low', kind: 'gate', description: 'One line and its continuation.', remedy: 'Fix it.' });
    expect(r.sql.endsWith('FROM tool_args')).toBe(true);
  });

  it('reads applies_when, the query that says whether the traces hold what the rule checks', () => {
    expect(parseRule(RULE, 'a.sql').appliesWhen).toBeUndefined();
    const r = parseRule(RULE.replace('-- remedy: Fix it.\n', '-- remedy: Fix it.\n-- applies_when: SELECT 1 FROM tool_calls\n--   WHERE went_remote;\n'), 'a.sql');
    expect(r.appliesWhen).toBe('SELECT 1 FROM tool_calls WHERE went_remote');
    expect(loadRules().find((x) => x.id === 'remote_hop_not_allowlisted')?.appliesWhen).toBe('SELECT 1 FROM tool_calls WHERE went_remote');
  });

  it('rejects missing metadata, unknown severities and non-snake_case ids, naming the file', () => {
    expect(() => parseRule(RULE.replace('-- remedy: Fix it.\n', ''), 'a.sql')).toThrow(/a\.sql: missing "-- remedy:"/);
    expect(() => parseRule(RULE.replace('severity: low', 'severity: urgent'), 'b.sql')).toThrow(/b\.sql: severity "urgent"/);
    expect(() => parseRule(RULE.replace('id: my_rule', 'id: My-Rule'), 'c.sql')).toThrow(/not snake_case/);
  });

  it('fails loudly on a duplicate id between shipped and user rules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-rules-'));
    writeFileSync(join(dir, 'dup.sql'), RULE.replace('my_rule', 'assumption_span'));
    expect(() => loadRules([dir])).toThrow(RuleError);
    expect(() => loadRules([dir])).toThrow(/duplicate rule id "assumption_span"/);
  });

  it('ships the rules the issue asks for, each with true- and false-positive cases', () => {
    const ids = loadRules().map((r) => r.id);
    for (const id of [
      'assumption_span',
      'sensitive_arg_sent_remote',
      'remote_hop_not_allowlisted',
      'hop_without_checkpoint',
      'duplicate_hop_during_lease',
      'excerpt_on_sensitive_leaf',
      'credential_in_attribute',
      'incomplete_evidence',
      'report_invented_fields_by_turn',
      'report_run_summary',
      'report_context_lineage',
      'held_assumption',
      'sensitive_arg_dispatched',
      'stopwatch_missing',
      'held_call_dispatched',
      'gate_hit_without_inferred_leaf',
      'inferred_leaf_not_in_hits',
    ]) expect(ids).toContain(id);
    // Names say what a rule checks, never which seed it came from (the README maps them).
    expect(ids.filter((i) => /^s\d{3}_/.test(i))).toEqual([]);
    expect(Object.keys(RULE_CASES).sort()).toEqual([...ids].sort());
  });

  it('uses only attribute keys, event names and label values that exist in @argspan/conventions', () => {
    const known = conventionValues();
    // SQL-side words that are not conventions: table scopes, the key of a log record's body and a call's source, written by the analyzer itself.
    const sqlWords = new Set(['span', 'event', 'link', 'resource', 'scope', 'missing', 'model-output', LOG_RECORD_BODY_KEY]);
    for (const rule of loadRules()) {
      const literals = [...readFileSync(rule.file, 'utf8').replace(/^--.*$/gm, '').matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!);
      for (const lit of literals) {
        if (/\s/.test(lit) || !/[a-z]/i.test(lit) || sqlWords.has(lit)) continue; // prose and punctuation of the reason
        expect(known.has(lit), `${rule.id}: literal '${lit}' is not in @argspan/conventions`).toBe(true);
      }
    }
  });
});
