import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { classifyCall, loadCommittedContent, readDirtySet, resultResidency, type CallClassification, type CallContext, type ClassifyOptions, type CommittedContent, type DirtySet, type GatePolicy } from '@argspan/core';
import { parseRecordedCall, RecordedCallError } from '@argspan/core/internal';
import { Enforcement, type Residency } from '@argspan/conventions';

export interface ClassifyLinesOptions {
  /** Repository whose dirty set (and, in strict mode, committed blobs) apply to every call. */
  repo?: string;
  /** The policy every call is judged by (a recorded call's own policy fields win over it). */
  policy?: Partial<GatePolicy>;
  /** Judge `remote-ok` calls as an agent with a remote hop configured would (enforcement `hop`). */
  remoteHop?: boolean;
}

/** `--repo` names no usable git work tree. The message names the option and path, nothing else. */
export class RepoOptionError extends Error {
  override name = 'RepoOptionError';
}

export interface ClassifyLinesResult {
  answered: number;
  malformed: number;
  /** Calls the policy denies or holds (they would not reach the tool). */
  gated: number;
}

/** The JSON line printed for one call: what `argspan classify` promises on stdout. */
export function classificationLine(c: CallClassification): Record<string, unknown> {
  const gate: Record<string, unknown> = { action: c.gate.action, hits: c.gate.hits };
  if (c.gate.question) gate.question = c.gate.question;
  const out: Record<string, unknown> = {
    tool: c.tool,
    residency: c.residency,
    verdict: c.verdict,
    reason: c.reason,
    gate,
    enforcement: { action: c.enforcement.action, reason: c.enforcement.reason },
    args: c.leaves.map((l) => {
      const a: Record<string, unknown> = { key: l.key, leaf: l.leaf, residency: l.residency, provenance: l.provenance, rule: l.rule };
      if (l.sourceCallId !== undefined) a.source_call_id = l.sourceCallId;
      return a;
    }),
  };
  if (c.limits.length > 0) out.limits = c.limits;
  if (c.droppedLeaves > 0) out.dropped_leaves = c.droppedLeaves;
  if (c.strippedKeys.length > 0) out.stripped_keys = c.strippedKeys;
  return out;
}

function inlineDirtySet(paths: string[], root: string): DirtySet {
  const prefixes = paths.filter((p) => p.endsWith('/'));
  return { root, paths: new Set(paths.filter((p) => !p.endsWith('/'))), prefixes, lines: new Set() };
}

/**
 * Read recorded calls as JSON lines from `input`, write one classification line per call to
 * `out`. A malformed line is reported on `err` with its line number; the others are still answered.
 */
export async function classifyLines(
  input: NodeJS.ReadableStream,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  options: ClassifyLinesOptions = {},
): Promise<ClassifyLinesResult> {
  let repoDirty: DirtySet | undefined;
  let committed: CommittedContent | undefined;
  const root = resolve(options.repo ?? '.');
  if (options.repo !== undefined) {
    repoDirty = await readDirtySet(root);
    // Without the repository there is no dirty-tree evidence: answering anyway would call
    // uncommitted work public, so this is a usage error, not a warning.
    if (!repoDirty) throw new RepoOptionError(`--repo ${options.repo}: not a git work tree (or not readable); no dirty-tree evidence`);
    if (options.policy?.strictPublic) committed = await loadCommittedContent(root);
  }

  const result: ClassifyLinesResult = { answered: 0, malformed: 0, gated: 0 };
  // What each earlier line's result passes on (a read of .env is a secret source): a context entry
  // naming that call id inherits it unless it says its own residency.
  const sources = new BoundedMap<string, Residency>(MAX_REMEMBERED_SOURCES);
  let lineNo = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      result.malformed++;
      err.write(`argspan classify: stdin line ${lineNo}: not valid JSON\n`);
      continue;
    }
    let recorded;
    try {
      recorded = parseRecordedCall(parsed);
    } catch (e) {
      result.malformed++;
      const why = e instanceof RecordedCallError ? e.message : 'not a recorded call';
      err.write(`argspan classify: stdin line ${lineNo}: ${why}\n`);
      continue;
    }
    const dirty = recorded.dirty ? inlineDirtySet(recorded.dirty, root) : repoDirty;
    const opts: ClassifyOptions = { ...options.policy, ...recorded.policy, remoteHop: options.remoteHop === true };
    if (dirty) opts.dirty = dirty;
    if (committed) opts.committed = committed;
    const context = withSourceResidency(recorded.context, sources);
    const c = classifyCall(recorded.call, context, opts);
    if (recorded.call.callId !== undefined) {
      const passed = resultResidency(recorded.call.tool, c, opts);
      if (passed !== undefined) sources.set(recorded.call.callId, passed);
    }
    if (c.enforcement.action === Enforcement.DENY || c.enforcement.action === Enforcement.HOLD) result.gated++;
    out.write(JSON.stringify(classificationLine(c)) + '\n');
    result.answered++;
  }
  return result;
}

/** Most call ids whose result residency `classify` remembers for later lines. */
const MAX_REMEMBERED_SOURCES = 100_000;

/** The context with each entry that names an earlier line's call id given that call's result residency. */
function withSourceResidency(context: CallContext, sources: BoundedMap<string, Residency>): CallContext {
  if (!context.context || sources.size === 0) return context;
  let changed = false;
  const entries = context.context.map((e) => {
    if (typeof e === 'string' || e.residency !== undefined || e.callId === undefined) return e;
    const r = sources.get(e.callId);
    if (r === undefined) return e;
    changed = true;
    return { ...e, residency: r };
  });
  return changed ? { ...context, context: entries } : context;
}

/** A map that forgets its oldest entries past `max`. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.max) this.delete(this.keys().next().value as K);
    return this;
  }
}
