import {
  InputError,
  RuleError,
  analyze,
  atOrAbove,
  formatProblem,
  reporters,
  writeBaseline,
  type AnalysisResult,
} from '@argspan/analyzer';
import { Option, type Command } from 'commander';
import { ExitCode } from '../../exit-codes.js';
import type { CommandIO } from '../../io.js';
import type { CommandRegistrar } from '../../main.js';
import { ANALYZE_OPTIONS, denyResidenciesOption, numericOptions, type AnalyzeCliOptions } from './options.js';
import { createProgress } from './progress.js';

const collect = (value: string, prev: string[] = []) => [...prev, value];

/** `argspan analyze PATH...`: load trace exports, run the rules, print a report, gate CI by exit code. */
export const registerAnalyze: CommandRegistrar = (program: Command, io: CommandIO, setExit) => {
  const cmd = program
    .command('analyze')
    .description('Load trace exports into DuckDB, run the gate rules and report findings (exit 0 clean, 1 findings, 2 bad input).')
    .argument('<paths...>', 'trace files, directories or globs (OTLP JSON lines [.gz|.zst], collector framed output, OTLP or Jaeger JSON)');
  for (const spec of ANALYZE_OPTIONS) {
    const opt = new Option(spec.flags, spec.description);
    if (spec.choices) opt.choices(spec.choices);
    if (spec.repeatable) opt.argParser(collect);
    if (spec.default !== undefined) opt.default(spec.default);
    cmd.addOption(opt);
  }
  cmd.action(async (paths: string[], opts: AnalyzeCliOptions) => setExit(await runAnalyze(paths, opts, io)));
};

async function runAnalyze(paths: string[], opts: AnalyzeCliOptions, io: CommandIO): Promise<number> {
  const numeric = numericOptions(opts);
  const deny = denyResidenciesOption(opts.denyResidencies);
  if (!numeric.ok || !deny.ok) {
    io.stderr.write(`argspan analyze: ${!numeric.ok ? numeric.error : (deny as { error: string }).error}\n`);
    return ExitCode.INPUT_ERROR;
  }
  const progress = createProgress(io.stderr);
  let result: AnalysisResult;
  try {
    result = await analyze({
      paths,
      rulesDirs: opts.rules,
      reports: opts.reports,
      allowPartial: opts.allowPartial,
      remoteAllowlist: opts.remoteAllowlist.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean),
      ...numeric.options,
      ...(deny.value ? { denyResidencies: deny.value } : {}),
      ...(opts.baseline ? { baseline: opts.baseline } : {}),
      ...(opts.db ? { dbPath: opts.db } : {}),
      ...(opts.exportParquet ? { exportParquetDir: opts.exportParquet } : {}),
      onProgress: progress.update,
    });
  } catch (err) {
    progress.done();
    if (err instanceof InputError) {
      for (const p of err.problems) io.stderr.write(`argspan analyze: ${formatProblem(p)}\n`);
      io.stderr.write('argspan analyze: input could not be read; no analysis result (use --allow-partial to analyse the readable rest)\n');
      return ExitCode.INPUT_ERROR;
    }
    if (err instanceof RuleError || err instanceof Error) {
      io.stderr.write(`argspan analyze: ${err.message}\n`);
      return ExitCode.INPUT_ERROR;
    }
    throw err;
  }
  progress.done();
  for (const p of result.stats.skipped) io.stderr.write(`argspan analyze: skipped ${formatProblem(p)}\n`);
  for (const r of result.stats.rules_skipped) io.stderr.write(`argspan analyze: rule ${r.rule} not run: ${r.reason}\n`);
  if (opts.writeBaseline) writeBaseline(opts.writeBaseline, result.findings);
  io.stdout.write(reporters[opts.format](result));
  const failOn = opts.failOn;
  const failing = failOn === 'none' ? [] : result.findings.filter((f) => atOrAbove(f.severity, failOn));
  return failing.length ? ExitCode.FINDINGS : ExitCode.OK;
}
