import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { type GatePolicy } from '@argspan/core';
import { checkPolicyFieldNames, parsePolicyFields, resolvePolicy, RecordedCallError } from '@argspan/core/internal';

/**
 * The gate policy's command-line form, declared once for every command that gates or judges calls
 * (`classify`, `mcp-proxy`): a JSON policy file in the snake_case of a recorded call's policy
 * fields, and one flag per field. Flags win over the file; a recorded call's own fields win over both.
 */
export interface PolicyCliOptions {
  policy?: string;
  remoteAllowlist?: string[];
  remoteTools?: string[];
  denyResidencies?: string[];
  denyInferred?: string[];
  inferredAction?: string;
  onNoEvidence?: string;
  bulkyThreshold?: string;
  strictPublic?: boolean;
  secretSourceTools?: string[];
  inheritResidency?: boolean;
}

const list = (v: string, prev: string[] = []): string[] => [...prev, ...v.split(',').map((s) => s.trim()).filter((s) => s !== '')];

/** Add the policy options to a command. */
export function addPolicyOptions(command: Command): Command {
  return command
    .option('--policy <file>', 'JSON policy file: remote_allowlist, remote_tools, deny_residencies, deny_inferred, inferred_action, no_evidence_action, bulky_threshold, strict_public, secret_source_tools, inherit_residency')
    .option('--remote-allowlist <tools>', 'comma-separated tools that may make a remote hop (repeatable)', list)
    .option('--remote-tools <tools>', 'comma-separated tools whose execution leaves this machine (repeatable)', list)
    .option('--deny-residencies <labels>', 'residencies whose calls are never dispatched (default: secret; "" for none)', (v: string, prev?: string[]) => (v.trim() === '' ? [...(prev ?? [])] : list(v, prev)))
    .option('--deny-inferred <keys>', 'keys on which a model-inferred value is held (replaces the default list; repeatable)', list)
    .addOption(new Option('--inferred-action <action>', 'hold an inferred denylisted value for a question, or deny the call').choices(['ask', 'block']))
    .addOption(
      new Option('--on-no-evidence <action>', "where the user's words cannot be seen: hold a denylisted value found in no tool result for a question, deny the call, or only record it (default log)").choices(['ask', 'block', 'log']),
    )
    .option('--bulky-threshold <chars>', 'characters at which a value counts as bulky (default 8192)')
    .option('--strict-public', 'bulky values are public only with proof they are committed (classify: --repo)')
    .option('--secret-source-tools <tools>', 'comma-separated tools whose results are secret, e.g. a vault tool (repeatable)', list)
    .option('--no-inherit-residency', 'label each value by its own look only: a value copied from a secret result is not secret');
}

/** A policy option or file that cannot be used: the message names the option or file, never its data. */
export class PolicyOptionError extends Error {
  override name = 'PolicyOptionError';
}

/** The partial policy the options give (file, then flags), validated as the gate will use it. */
export function policyFromOptions(opts: PolicyCliOptions): Partial<GatePolicy> {
  let policy: Partial<GatePolicy> = {};
  if (opts.policy !== undefined) policy = readPolicyFile(opts.policy);
  if (opts.remoteAllowlist) policy.remoteAllowlist = opts.remoteAllowlist;
  if (opts.remoteTools) policy.remoteTools = opts.remoteTools;
  if (opts.denyInferred) policy.denyInferred = opts.denyInferred;
  if (opts.inferredAction !== undefined) policy.inferredAction = opts.inferredAction as GatePolicy['inferredAction'];
  if (opts.onNoEvidence !== undefined) policy.noEvidenceAction = opts.onNoEvidence as GatePolicy['noEvidenceAction'];
  if (opts.strictPublic) policy.strictPublic = true;
  if (opts.secretSourceTools) policy.secretSourceTools = opts.secretSourceTools;
  // commander gives `inheritResidency: true` unless --no-inherit-residency: only the flag overrides a file
  if (opts.inheritResidency === false) policy.inheritResidency = false;
  if (opts.bulkyThreshold !== undefined) {
    const n = Number(opts.bulkyThreshold);
    if (!/^\d+$/.test(opts.bulkyThreshold.trim()) || !Number.isSafeInteger(n) || n < 1) {
      throw new PolicyOptionError(`--bulky-threshold must be a positive integer, got ${JSON.stringify(opts.bulkyThreshold)}`);
    }
    policy.bulkyThreshold = n;
  }
  if (opts.denyResidencies) {
    try {
      policy.denyResidencies = parsePolicyFields({ deny_residencies: opts.denyResidencies }).denyResidencies!;
    } catch (e) {
      throw new PolicyOptionError(`--deny-residencies: ${e instanceof Error ? e.message.replace(/^"deny_residencies" /, '') : 'invalid'}`);
    }
  }
  try {
    resolvePolicy(policy);
  } catch (e) {
    throw new PolicyOptionError(`policy: ${e instanceof Error ? e.message : 'invalid'}`);
  }
  return policy;
}

function readPolicyFile(path: string): Partial<GatePolicy> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new PolicyOptionError(`--policy ${path}: cannot read the file (${code})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PolicyOptionError(`--policy ${path}: not valid JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new PolicyOptionError(`--policy ${path}: expected a JSON object`);
  try {
    checkPolicyFieldNames(value as Record<string, unknown>);
    return parsePolicyFields(value as Record<string, unknown>);
  } catch (e) {
    throw new PolicyOptionError(`--policy ${path}: ${e instanceof RecordedCallError ? e.message : 'invalid policy'}`);
  }
}
