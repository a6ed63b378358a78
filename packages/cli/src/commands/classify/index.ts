import { ExitCode } from '../../exit-codes.js';
import type { CommandRegistrar } from '../../main.js';
import { addPolicyOptions, policyFromOptions, PolicyOptionError, type PolicyCliOptions } from '../../policy/policy-options.js';
import { classifyLines, RepoOptionError } from './classify-lines.js';

export { classifyLines, classificationLine } from './classify-lines.js';

export const registerClassify: CommandRegistrar = (program, io, setExit) => {
  const command = program
    .command('classify')
    .summary('Classify and gate recorded tool calls: JSON lines on stdin, one JSON line per call on stdout.')
    .description(
      // Paragraphs only: commander wraps each to the terminal's width.
      'Classify and gate recorded tool calls: JSON lines on stdin, one JSON line per call on stdout.\n\n' +
        'Input fields: tool, args, call_id, user_text, user_text_available, context (strings or ' +
        '{call_id, content, residency}), schema_defaults, safe_defaults, public_schema_keys, dirty, and the policy fields ' +
        '(remote_allowlist, remote_tools, deny_residencies, deny_inferred, inferred_action, no_evidence_action, ' +
        'strict_public, bulky_threshold, secret_source_tools, inherit_residency), which win over the options below.\n\n' +
        "A context entry naming an earlier line's call_id inherits that call's result residency (a read of .env is secret).\n\n" +
        'Exit codes: 0 every line answered; 1 with --fail-on-gate, a call was denied or held; 2 bad usage or policy, or a malformed line ' +
        '(named by number; the other lines are still answered).',
    )
    .option('--repo <dir>', 'git repository whose uncommitted paths are dirty-tree evidence')
    .option('--remote-hop', 'judge remote-ok calls as an agent with a remote hop configured (enforcement hop)')
    .option('--fail-on-gate', 'exit 1 when the policy denies or holds any call');
  addPolicyOptions(command).action(async (opts: PolicyCliOptions & { repo?: string; remoteHop?: boolean; failOnGate?: boolean }) => {
    let policy;
    try {
      policy = policyFromOptions(opts);
    } catch (e) {
      if (!(e instanceof PolicyOptionError)) throw e;
      io.stderr.write(`argspan classify: ${e.message}\n`);
      setExit(ExitCode.INPUT_ERROR);
      return;
    }
    let r;
    try {
      r = await classifyLines(io.stdin, io.stdout, io.stderr, {
        policy,
        ...(opts.repo !== undefined ? { repo: opts.repo } : {}),
        ...(opts.remoteHop ? { remoteHop: true } : {}),
      });
    } catch (e) {
      if (!(e instanceof RepoOptionError)) throw e;
      io.stderr.write(`argspan classify: ${e.message}\n`);
      setExit(ExitCode.INPUT_ERROR);
      return;
    }
    if (r.malformed > 0) {
      io.stderr.write(`argspan classify: ${r.malformed} malformed line(s), ${r.answered} answered\n`);
      setExit(ExitCode.INPUT_ERROR);
    } else if (opts.failOnGate && r.gated > 0) {
      setExit(ExitCode.FINDINGS);
    }
  });
};
