/**
 * @argspan/analyzer — load trace exports (OTLP JSON lines, collector framed output, OTLP and
 * Jaeger JSON documents) into DuckDB, run SQL rules and report findings for people and CI.
 */
export { analyze, DEFAULT_MEMORY_LIMIT } from './analyze.js';
export { analyzeClickHouse, DEFAULT_MAX_TRACE_DURATION_MS } from './clickhouse/analyze-clickhouse.js';
export type { AnalyzeOptions, ClickHouseAnalyzeOptions, RuleRunOptions, AnalysisResult, AnalysisStats } from './types.js';
export type { PhaseListener } from './phases.js';
export { InputError, NoSpansError, PathsError, formatProblem } from './load/input-error.js';
export { expandPaths } from './load/expand-paths.js';
export { UsageError } from './usage-error.js';
export { redactErrorMessage } from './duckdb-error.js';
export { MAX_JSON_NESTING } from './load/json-byte-scan.js';
export type { InputProblem } from './load/input-error.js';
export { RuleError, loadRules, parseRule, SEVERITIES, RULE_KINDS, SHIPPED_RULES_DIR } from './rules/rule-file.js';
export type { Rule, Severity, RuleKind } from './rules/rule-file.js';
export { atOrAbove, fingerprintOf } from './rules/run-rules.js';
export type { Finding } from './rules/run-rules.js';
export { readBaseline, readBaselineEntries, writeBaseline } from './baseline.js';
export type { BaselineFile } from './baseline.js';
export { reporters, REPORT_FORMATS } from './reporters/index.js';
export type { Reporter, ReportFormat, ReportOptions } from './reporters/index.js';
export { renderHtmlReport } from './reporters/html/render.js';
export type { HtmlReportOptions } from './reporters/html/render.js';
export { readChartAssets } from './reporters/html/chart-assets.js';
export type { ChartAssets, InlineLibrary } from './reporters/html/chart-assets.js';
export { exitVerdict, DEFAULT_FAIL_ON } from './verdict.js';
export type { ExitVerdict, FailOn } from './verdict.js';
export type { RunOverview, OverviewTotals, CallCounts, RunRow, TurnFieldRow, HopOverview, HopRow, HopEventRow, BaselineComparison } from './overview/types.js';
export type { BaselineEntry } from './baseline.js';
export { SCHEMA_TABLES } from './export-parquet.js';
export { DEFAULT_MAX_LINE_BYTES } from './load/load-file.js';
