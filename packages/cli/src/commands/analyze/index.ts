import {
  InputError,
  NoSpansError,
  PathsError,
  RuleError,
  UsageError,
  analyze,
  analyzeClickHouse,
  exitVerdict,
  expandPaths,
  formatProblem,
  reporters,
  writeBaseline,
  type AnalysisResult,
} from '@argspan/analyzer';
import { Option, type Command } from 'commander';
import { ExitCode } from '../../exit-codes.js';
import type { CommandIO } from '../../io.js';
import { internalErrorMessage, type CommandRegistrar } from '../../main.js';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ANALYZE_OPTIONS, denyResidenciesOption, engineOptions, jaegerUrlOption, numericOptions, type AnalyzeCliOptions } from './options.js';
import { createProgress } from './progress.js';

const collect = (value: string, prev: string[] = []) => [...prev, value];

/** `argspan analyze PATH...`: load trace exports, run the rules, print a report, gate CI by exit code. */
export const registerAnalyze: CommandRegistrar = (program: Command, io: CommandIO, setExit) => {
  const cmd = program
    .command('analyze')
    .description('Load trace exports into DuckDB (or read the collector exporter\'s table in ClickHouse), run the gate rules and report findings (exit 0 clean or baseline written, 1 findings, 2 bad input, input without a span, bad usage or a broken rule, 3 internal error).')
    .argument('[paths...]', 'trace files, directories or globs (OTLP JSON lines [.gz|.zst], collector framed output, OTLP or Jaeger JSON, Phoenix, Langfuse or LangSmith API answers; OTLP logs exports beside them, whose GenAI log records are read as their spans\' events); none with --engine clickhouse');
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
  const jaeger = jaegerUrlOption(opts.jaegerUrl);
  const engine = engineOptions(paths, opts);
  const outputs = outputsApartFromInputs(paths, { '--write-baseline': opts.writeBaseline, '--html': opts.html });
  if (!numeric.ok || !deny.ok || !jaeger.ok || !engine.ok || !outputs.ok) {
    // Every option is checked before anything is read; the first error is the one printed.
    const first = [numeric, deny, jaeger, engine, outputs].find((checked) => !checked.ok) as { error: string };
    io.stderr.write(`argspan analyze: ${first.error}\n`);
    return ExitCode.INPUT_ERROR;
  }
  const wantsHtml = opts.format === 'html' || opts.html !== undefined;
  const progress = createProgress(io.stderr);
  const common = {
    rulesDirs: opts.rules,
    reports: opts.reports,
    overview: wantsHtml,
    remoteAllowlist: opts.remoteAllowlist.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean),
    ...(deny.value ? { denyResidencies: deny.value } : {}),
    ...(opts.baseline ? { baseline: opts.baseline } : {}),
  };
  let result: AnalysisResult;
  try {
    result = engine.clickhouse
      ? await analyzeClickHouse({ ...common, ...engine.clickhouse })
      : await analyze({
          ...common,
          paths,
          allowPartial: opts.allowPartial,
          ...numeric.options,
          ...(opts.db ? { dbPath: opts.db } : {}),
          ...(opts.exportParquet ? { exportParquetDir: opts.exportParquet } : {}),
          onProgress: progress.update,
        });
  } catch (err) {
    progress.done();
    if (err instanceof InputError) {
      for (const p of err.problems) io.stderr.write(`argspan analyze: ${formatProblem(p)}\n`);
      // (a path naming nothing to read is never skipped: --allow-partial is no way round it)
      if (err instanceof PathsError) io.stderr.write('argspan analyze: no analysis result: a path given names nothing to read (a path is never skipped, with --allow-partial too)\n');
      else if (!(err instanceof NoSpansError)) io.stderr.write(`argspan analyze: input could not be read; no analysis result${opts.allowPartial ? '' : ' (use --allow-partial to analyse the readable rest)'}\n`);
      return ExitCode.INPUT_ERROR;
    }
    if (err instanceof RuleError || err instanceof UsageError) {
      io.stderr.write(`argspan analyze: ${err.message}\n`);
      return ExitCode.INPUT_ERROR;
    }
    io.stderr.write(internalErrorMessage(err));
    return ExitCode.INTERNAL_ERROR;
  }
  progress.done();
  const reportOptions = {
    failOn: opts.failOn,
    ...(jaeger.value ? { jaegerUrl: jaeger.value } : {}),
    ...(opts.writeBaseline ? { wroteBaseline: opts.writeBaseline } : {}),
  };
  let report: string;
  let htmlFile: string | undefined;
  try {
    report = reporters[opts.format](result, reportOptions);
    if (opts.html !== undefined) htmlFile = opts.format === 'html' ? report : reporters.html(result, reportOptions);
  } catch (err) {
    io.stderr.write(internalErrorMessage(err));
    return ExitCode.INTERNAL_ERROR;
  }
  if (opts.html !== undefined && htmlFile !== undefined) {
    try {
      writeFileSync(opts.html, htmlFile);
    } catch (err) {
      io.stderr.write(`argspan analyze: --html: ${opts.html} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return ExitCode.INPUT_ERROR;
    }
    io.stderr.write(`argspan analyze: wrote the HTML report to ${opts.html}\n`);
  }
  if (opts.writeBaseline) {
    try {
      // (the findings the old baseline accepted stay accepted: an update adds the new ones, it never drops the old)
      writeBaseline(opts.writeBaseline, [...result.findings, ...(result.suppressed ?? [])]);
    } catch (err) {
      io.stderr.write(`argspan analyze: --write-baseline: ${opts.writeBaseline} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return ExitCode.INPUT_ERROR;
    }
  }
  for (const p of result.stats.skipped) io.stderr.write(`argspan analyze: skipped ${formatProblem(p)}\n`);
  for (const r of result.stats.rules_skipped) io.stderr.write(`argspan analyze: rule ${r.rule} not run: ${r.reason}\n`);
  io.stdout.write(report);
  if (opts.writeBaseline) {
    // Recording a baseline is the job of that run, and it is done: the findings are now accepted.
    const kept = result.suppressed?.length ?? 0;
    io.stderr.write(`argspan analyze: wrote ${result.findings.length + kept} finding(s) to the baseline ${opts.writeBaseline}${opts.baseline ? ` (${kept} accepted by ${opts.baseline} and still found, ${result.findings.length} new)` : ''}\n`);
    return ExitCode.OK;
  }
  return exitVerdict(result.findings, opts.failOn, result.rules).fails ? ExitCode.FINDINGS : ExitCode.OK;
}

/**
 * A file this run writes must not be one it reads: `--write-baseline traces/a.jsonl` (or a
 * baseline already among the files of an input folder) would replace a trace export.
 */
function outputsApartFromInputs(paths: readonly string[], outputs: Record<string, string | undefined>): { ok: true } | { ok: false; error: string } {
  if (Object.values(outputs).every((o) => o === undefined)) return { ok: true };
  const inputs = new Set(expandPaths(paths).files.map((f) => resolve(f)));
  for (const [option, out] of Object.entries(outputs)) {
    if (out !== undefined && inputs.has(resolve(out))) return { ok: false, error: `${option}: ${out} is one of the input files; write it elsewhere` };
  }
  return { ok: true };
}
