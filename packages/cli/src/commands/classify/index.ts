import { Option } from 'commander';
import { ExitCode } from '../../exit-codes.js';
import type { CommandRegistrar } from '../../main.js';
import { classifyLines } from './classify-lines.js';

export { classifyLines, classificationLine } from './classify-lines.js';

export const registerClassify: CommandRegistrar = (program, io, setExit) => {
  program
    .command('classify')
    .description(
      'Classify and gate recorded tool calls: JSON lines on stdin, one JSON line per call on stdout.\n' +
        'Input fields: tool, args, user_text, context, schema_defaults, safe_defaults, remote_allowlist,\n' +
        'local_tools, deny_inferred, dirty, strict_public, bulky_threshold.',
    )
    .option('--repo <dir>', 'git repository whose uncommitted paths are dirty-tree evidence')
    .option('--strict-public', 'bulky values are public only with proof they are committed (needs --repo)')
    .addOption(new Option('--bulky-threshold <chars>', 'characters at which a value counts as bulky').argParser(positiveInt))
    .option('--fail-on-gate', 'exit 1 when any call is refused or its inferred-field gate blocks or asks')
    .action(async (opts: { repo?: string; strictPublic?: boolean; bulkyThreshold?: number; failOnGate?: boolean }) => {
      const r = await classifyLines(io.stdin, io.stdout, io.stderr, {
        ...(opts.repo !== undefined ? { repo: opts.repo } : {}),
        ...(opts.strictPublic ? { strictPublic: true } : {}),
        ...(opts.bulkyThreshold !== undefined ? { bulkyThreshold: opts.bulkyThreshold } : {}),
      });
      if (r.malformed > 0) {
        io.stderr.write(`argspan classify: ${r.malformed} malformed line(s), ${r.answered} answered\n`);
        setExit(ExitCode.INPUT_ERROR);
      } else if (opts.failOnGate && r.gated > 0) {
        setExit(ExitCode.FINDINGS);
      }
    });
};

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--bulky-threshold must be a positive integer, got "${v}"`);
  return n;
}
