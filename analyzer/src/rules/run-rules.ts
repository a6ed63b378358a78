import { createHash } from 'node:crypto';
import { Emitter, INSTRUMENTATION_SCOPE } from '@argspan/conventions';
import { findInName, redactKeyPath, redactName } from '@argspan/core';
import type { Db } from '../db.js';
import { describeDuckDbError } from '../duckdb-error.js';
import { sqlString } from '../load/duckdb-types.js';
import { phase, type PhaseListener } from '../phases.js';
import { RuleError, SEVERITIES, type Rule, type Severity } from './rule-file.js';

/** One finding: one row of one rule, in the fixed result shape. */
export interface Finding {
  rule: string;
  severity: Severity;
  /** The rule's `reason` column: a full sentence, never a value from an argument. */
  message: string;
  trace_id: string | null;
  span_id: string | null;
  tool: string | null;
  key: string | null;
  /** Export file the span was loaded from. */
  file: string | null;
  /**
   * The library that recorded the span (`argspan`, or another library's emitter as in
   * `tool_calls.emitter`): that of the tool calls on the span, else argspan's when its scope wrote
   * the span; null for another library's span that holds no tool call.
   */
  emitter: string | null;
  /**
   * Stable id for baselines: hash of rule, trace id, span id, tool and key — and, for the second
   * and later finding with all five the same (two calls one model response proposed with the same
   * tool and key), its occurrence.
   */
  fingerprint: string;
}

export interface RuleRun {
  findings: Finding[];
  /** Rules not run, with why (a required table was empty). */
  skipped: { rule: string; reason: string }[];
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * Fingerprint of a finding: its rule, tool and argument key (or attribute), never its trace or
 * span — their ids are new in every recording, so a baseline of one CI run's traces must match the
 * next run's, and a SARIF alert stay one alert. `occurrence` tells apart findings that share rule,
 * tool and key (the first keeps the plain fingerprint): a baseline accepts as many of them as it
 * holds, and one more is new.
 */
export function fingerprintOf(f: Pick<Finding, 'rule' | 'tool' | 'key'>, occurrence = 1): string {
  const parts = [f.rule, f.tool, f.key].map((x) => x ?? '');
  if (occurrence > 1) parts.push(`#${occurrence}`);
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}

/**
 * Run each rule over the loaded tables. Every rule must return trace_id, span_id, tool, key and
 * reason; a rule that fails or returns another shape is a {@link RuleError} naming its file.
 */
export async function runRules(db: Db, rules: readonly Rule[], onPhase?: PhaseListener): Promise<RuleRun> {
  const skipped: RuleRun['skipped'] = [];
  const byId = new Map(rules.map((r) => [r.id, r]));
  await db.run(`CREATE OR REPLACE TEMP TABLE rule_hits (rule VARCHAR, trace_id VARCHAR, span_id VARCHAR, tool VARCHAR, "key" VARCHAR, reason VARCHAR)`);
  // A `requires` naming no table or view is a broken rule (a typo), never a rule skipped as if its table were empty.
  const relations = new Set((await db.all(`SELECT table_name FROM information_schema.tables`)).map((r) => String(r.table_name)));
  for (const rule of rules) {
    const unknown = rule.requires.filter((t) => !relations.has(t));
    if (unknown.length) throw new RuleError(rule.file, `rule ${rule.id} requires ${unknown.map((t) => `"${t}"`).join(', ')}, which no table or view is named`);
  }
  for (const rule of rules) {
    if (rule.appliesWhen !== undefined && !(await applies(db, rule, rule.appliesWhen))) continue;
    const empty: string[] = [];
    for (const table of rule.requires) {
      const r = await db.one(`SELECT count(*) AS n FROM "${table.replace(/"/g, '')}"`);
      if (Number(r.n) === 0) empty.push(table);
    }
    if (empty.length) {
      skipped.push({ rule: rule.id, reason: `needs ${empty.join(', ')}, which is empty` });
      continue;
    }
    try {
      await phase(onPhase, `rule ${rule.id}`, () =>
        db.run(`INSERT INTO rule_hits
        SELECT '${rule.id}', CAST(r.trace_id AS VARCHAR), CAST(r.span_id AS VARCHAR), CAST(r.tool AS VARCHAR), CAST(r."key" AS VARCHAR), CAST(r.reason AS VARCHAR)
        FROM (${rule.sql}\n) AS r`),
      );
    } catch (err) {
      throw new RuleError(rule.file, `rule ${rule.id} failed (it must return trace_id, span_id, tool, key, reason): ${ruleFailure(err)}`);
    }
  }
  // One join for every rule's rows: the export file each span came from, and who recorded it.
  const rows = await phase(onPhase, 'findings', () =>
    db.all(`SELECT h.*, f.path AS file,
      coalesce(c.emitter, CASE WHEN s.scope_name = ${sqlString(INSTRUMENTATION_SCOPE)} THEN ${sqlString(Emitter.ARGSPAN)} END) AS emitter
    FROM rule_hits h
    LEFT JOIN span_structs s ON s.trace_id = h.trace_id AND s.span_id = h.span_id LEFT JOIN files f ON f.file_id = s.file_id
    LEFT JOIN (SELECT c.trace_id, c.span_id, any_value(c.emitter) AS emitter
      FROM tool_calls c JOIN (SELECT DISTINCT trace_id, span_id FROM rule_hits) USING (trace_id, span_id) GROUP BY ALL) c
      ON c.trace_id = h.trace_id AND c.span_id = h.span_id`),
  );
  return { findings: findingsOf(rows, byId), skipped };
}

/** Whether a rule's `applies_when` query returns a row; a query that fails is a broken rule. */
async function applies(db: Db, rule: Rule, query: string): Promise<boolean> {
  try {
    return Number((await db.one(`SELECT count(*) AS n FROM (SELECT 1 FROM (${query}\n) AS q LIMIT 1) AS a`)).n) > 0;
  } catch (err) {
    throw new RuleError(rule.file, `rule ${rule.id}'s applies_when query failed: ${ruleFailure(err)}`);
  }
}

/**
 * Findings from rule rows (`rule`, `trace_id`, `span_id`, `tool`, `key`, `reason`, `emitter`, and
 * `file` when the engine knows it), fingerprinted, redacted and sorted: the same for every engine.
 */
export function findingsOf(rows: readonly Record<string, unknown>[], rules: ReadonlyMap<string, Rule>): Finding[] {
  const findings: Finding[] = rows.map((r) => {
    const rule = rules.get(String(r.rule))!;
    const base = { rule: rule.id, trace_id: str(r.trace_id), span_id: str(r.span_id), tool: str(r.tool), key: str(r.key) };
    return { ...base, severity: rule.severity, message: str(r.reason) ?? `Rule ${rule.id} matched.`, file: str(r.file), emitter: str(r.emitter), fingerprint: fingerprintOf(base) };
  });
  // Sorted (names not yet redacted), so that the nth of the findings sharing a fingerprint is the same nth for the same traces.
  const seen = new Map<string, number>();
  for (const f of sortFindings(findings)) {
    const occurrence = (seen.get(f.fingerprint) ?? 0) + 1;
    seen.set(f.fingerprint, occurrence);
    if (occurrence > 1) f.fingerprint = fingerprintOf(f, occurrence);
  }
  return sortFindings(findings.map(redactFinding));
}

/**
 * A finding with every credential-shaped part of its text replaced by a marker naming the rule
 * (`[REDACTED:github-pat]`). Rules name tools, keys and run ids as the traces give them, and a
 * trace may hold a credential there, glued to the rest of a name too (`deploy_ghp_…`), and so may a trace file's name; the fingerprint stays that of the original names, so
 * baselines still match. One detector call per finding over all its text: most find nothing.
 */
function redactFinding(f: Finding): Finding {
  // A key holding a credential only across its keys (`ghp_Qz7K….p2Lm…`) is shown redacted, in the message too.
  const key = f.key === null ? null : redactKeyPath(f.key);
  const message = key !== f.key ? f.message.split(f.key!).join(key!) : f.message;
  if (key === f.key && !findInName([f.message, f.tool, f.key, f.trace_id, f.span_id, f.file].join('\n'))) return f;
  const clean = (s: string | null) => (s === null ? null : redactName(s));
  return { ...f, message: redactName(message), tool: clean(f.tool), key: clean(key), trace_id: clean(f.trace_id), span_id: clean(f.span_id), file: clean(f.file) };
}

/**
 * Why a rule's query failed. An error about the query itself (a column or function it names, its
 * syntax) is about the rule file and shown, first line only; an error while running it (a failed
 * cast, an overflow) may quote a value from the traces, so only its kind is named.
 */
function ruleFailure(err: unknown): string {
  const msg = (err instanceof Error ? err.message : String(err)).split('\n', 1)[0]!;
  return /^(Binder|Parser|Catalog|Syntax) Error\b/.test(msg) ? msg : describeDuckDbError(err);
}

/** Strongest severity first, then rule, trace, span, key: the same input always prints the same. */
export function sortFindings(findings: Finding[]): Finding[] {
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  const cmp = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '');
  return findings.sort(
    (a, b) =>
      rank(b.severity) - rank(a.severity) ||
      cmp(a.rule, b.rule) ||
      cmp(a.trace_id, b.trace_id) ||
      cmp(a.span_id, b.span_id) ||
      cmp(a.key, b.key) ||
      cmp(a.message, b.message),
  );
}

/** True when `s` is at or above `threshold`. */
export function atOrAbove(s: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(s) >= SEVERITIES.indexOf(threshold);
}
