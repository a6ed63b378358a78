import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Severities, weakest first. */
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** What a rule is for: a gate rule, a seed test-plan check, or an informational report (run with `reports`). */
export const RULE_KINDS = ['gate', 'check', 'report'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** One rule: a `.sql` file whose leading `-- field: value` comment block is its metadata. */
export interface Rule {
  /** snake_case id, unique across shipped and user rules. */
  id: string;
  title: string;
  severity: Severity;
  kind: RuleKind;
  description: string;
  remedy: string;
  /** Tables the rule needs non-empty; when one is empty the rule is skipped and the run says so. */
  requires: string[];
  /**
   * A query that returns a row when the traces hold something the rule checks (a call that went
   * remote, for a rule about remote hops). When it returns none the rule cannot find anything: it
   * counts as run, with no findings, and is not reported as skipped whatever `requires` says.
   */
  appliesWhen?: string;
  /** The query. Returns trace_id, span_id, tool, key, reason. */
  sql: string;
  /** The file it came from. */
  file: string;
}

/** A rule file that cannot be used. The CLI maps it to exit code 2. */
export class RuleError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'RuleError';
  }
}

/** The rules shipped with the analyzer (analyzer/rules/, beside src/ and dist/). */
export const SHIPPED_RULES_DIR = fileURLToPath(new URL('../../rules/', import.meta.url));

const FIELD = /^--\s*([a-z_]+):\s?(.*)$/;
const CONTINUATION = /^--\s{2,}(.*)$/;
const REQUIRED = ['id', 'title', 'severity', 'kind', 'description', 'remedy'] as const;

/** Parse one rule file's text. */
export function parseRule(text: string, file: string): Rule {
  const meta: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  let i = 0;
  let last: string | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const cont = CONTINUATION.exec(line);
    if (cont && last) {
      meta[last] += ` ${cont[1]!.trim()}`;
      continue;
    }
    const m = FIELD.exec(line);
    if (m) {
      last = m[1]!;
      meta[last] = m[2]!.trim().replace(/^"(.*)"$/, '$1');
      continue;
    }
    if (line.trim() === '' || line.startsWith('--')) continue;
    break;
  }
  for (const f of REQUIRED) if (!meta[f]) throw new RuleError(file, `missing "-- ${f}:" metadata`);
  const sql = lines.slice(i).join('\n').trim().replace(/;\s*$/, '');
  if (!sql) throw new RuleError(file, 'no query after the metadata');
  if (!/^[a-z][a-z0-9_]*$/.test(meta.id!)) throw new RuleError(file, `id "${meta.id}" is not snake_case`);
  if (!(SEVERITIES as readonly string[]).includes(meta.severity!)) throw new RuleError(file, `severity "${meta.severity}" is not one of ${SEVERITIES.join(', ')}`);
  if (!(RULE_KINDS as readonly string[]).includes(meta.kind!)) throw new RuleError(file, `kind "${meta.kind}" is not one of ${RULE_KINDS.join(', ')}`);
  return {
    id: meta.id!,
    title: meta.title!,
    severity: meta.severity as Severity,
    kind: meta.kind as RuleKind,
    description: meta.description!,
    remedy: meta.remedy!,
    requires: (meta.requires ?? '').split(/[\s,]+/).filter(Boolean),
    ...(meta.applies_when ? { appliesWhen: meta.applies_when.replace(/;\s*$/, '') } : {}),
    sql,
    file,
  };
}

/**
 * Load every `*.sql` file from the shipped rules folder and the user's folders. Dropping a file
 * into a folder registers it; two rules with one id fail loudly, naming both files.
 */
export function loadRules(userDirs: readonly string[] = [], shippedDir: string = SHIPPED_RULES_DIR): Rule[] {
  const rules: Rule[] = [];
  const byId = new Map<string, Rule>();
  for (const dir of [shippedDir, ...userDirs]) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.sql')).sort();
    } catch {
      throw new RuleError(dir, 'rules folder cannot be read');
    }
    if (dir !== shippedDir && names.length === 0) throw new RuleError(dir, 'rules folder holds no .sql files');
    for (const name of names) {
      const file = join(dir, name);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch (err) {
        throw new RuleError(file, `rule file cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      const rule = parseRule(ruleText(bytes, file), file);
      const prev = byId.get(rule.id);
      if (prev) throw new RuleError(file, `duplicate rule id "${rule.id}" (also in ${prev.file})`);
      byId.set(rule.id, rule);
      rules.push(rule);
    }
  }
  return rules;
}

/**
 * A rule file's text: UTF-8, a leading byte order mark skipped. Bytes that are not UTF-8 (a file
 * saved as Latin-1 or cp1252) are a broken rule, not text to guess at: read with replacement
 * characters, a literal such as `'café'` would match nothing and the rule would pass silently.
 */
function ruleText(bytes: Buffer, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new RuleError(file, 'rule file is not UTF-8 (save it as UTF-8)');
  }
}
