import { REPORT_FORMATS, SEVERITIES } from '@argspan/analyzer';
import { RESIDENCY_ORDER, type Residency } from '@argspan/conventions';

/** Parsed `argspan analyze` options (commander camel-cases the flags). */
export interface AnalyzeCliOptions {
  format: (typeof REPORT_FORMATS)[number];
  html?: string;
  jaegerUrl?: string;
  failOn: (typeof SEVERITIES)[number] | 'none';
  rules: string[];
  baseline?: string;
  writeBaseline?: string;
  db?: string;
  exportParquet?: string;
  allowPartial: boolean;
  reports: boolean;
  remoteAllowlist: string[];
  denyResidencies?: string[];
  maxLineBytes?: string;
  memoryLimit?: string;
  threads?: string;
  engine: (typeof ENGINES)[number];
  clickhouseUrl?: string;
  database?: string;
  table?: string;
  logsTable?: string;
  since?: string;
  until?: string;
  maxTraceDuration?: string;
}

/** Where the rules run: DuckDB over trace files, or ClickHouse over the collector exporter's table. */
export const ENGINES = ['duckdb', 'clickhouse'] as const;

/** One option, declared once: the flags, the help text, its choices and default. */
export interface OptionSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: string | boolean | string[];
  repeatable?: boolean;
}

/** Every option of `argspan analyze`. */
export const ANALYZE_OPTIONS: readonly OptionSpec[] = [
  { flags: '--format <format>', description: 'output format', choices: REPORT_FORMATS, default: 'table' },
  { flags: '--html <file>', description: 'also write the HTML report to this file (beside --format)' },
  { flags: '--jaeger-url <url>', description: 'Jaeger UI base URL: trace ids in the HTML report link to <url>/trace/<id>' },
  { flags: '--fail-on <severity>', description: 'exit 1 when a finding is at or above this severity', choices: [...SEVERITIES, 'none'], default: 'low' },
  { flags: '--rules <dir>', description: 'add the .sql rules in this folder (repeatable)', repeatable: true, default: [] },
  { flags: '--baseline <file>', description: 'suppress findings whose fingerprint this baseline lists' },
  { flags: '--write-baseline <file>', description: 'write the findings of this run as a baseline' },
  { flags: '--db <file>', description: 'keep the DuckDB database in this file (analyzer tables are replaced)' },
  { flags: '--export-parquet <dir>', description: 'write every normalised table as <dir>/<table>.parquet (the traces themselves: attribute values included)' },
  { flags: '--allow-partial', description: 'analyse the readable rest of damaged input and report what was skipped', default: false },
  { flags: '--reports', description: 'also run the report rules (invented fields per turn, run summary, lineage)', default: false },
  { flags: '--remote-allowlist <tools>', description: 'comma-separated tools allowed to hop remotely (repeatable)', repeatable: true, default: [] },
  { flags: '--deny-residencies <labels>', description: 'residencies the agents\' policy never dispatches, comma-separated (default: secret; "" for none)', repeatable: true },
  { flags: '--max-line-bytes <n>', description: 'largest JSON line accepted (default: DuckDB\'s 16 MiB)' },
  { flags: '--memory-limit <size>', description: 'DuckDB memory limit, e.g. 1.25GB or 2GiB; beyond it tables spill to a temporary directory (default: 1.25GB)' },
  { flags: '--threads <n>', description: 'DuckDB worker threads, and threads classifying other libraries\' tool calls (default: the machine\'s cores)' },
  { flags: '--engine <engine>', description: 'where the rules run: duckdb (trace files) or clickhouse (the collector exporter\'s table)', choices: ENGINES, default: 'duckdb' },
  { flags: '--clickhouse-url <url>', description: 'ClickHouse HTTP interface, http[s]://[user:password@]host:port (else CLICKHOUSE_USER / CLICKHOUSE_PASSWORD)' },
  { flags: '--database <name>', description: 'ClickHouse database of the traces table (default: default)' },
  { flags: '--table <name>', description: 'the exporter\'s traces table, or a Distributed table over it (default: otel_traces)' },
  { flags: '--logs-table <name>', description: 'the exporter\'s logs table in the same database, whose GenAI log records (messages, the model\'s tool calls) are read as their spans\' events (default: otel_logs, when it exists)' },
  { flags: '--since <time>', description: 'ClickHouse: traces whose first span starts at or after this UTC date or ISO 8601 time' },
  { flags: '--until <time>', description: 'ClickHouse: ...and before this one' },
  { flags: '--max-trace-duration <duration>', description: 'ClickHouse: read a trace\'s spans up to this long after --until, e.g. 30m, 2h (default: 1h)' },
];

/** Options only the DuckDB engine takes, and those only ClickHouse takes (by their commander names). */
const DUCKDB_ONLY = { db: '--db', exportParquet: '--export-parquet', allowPartial: '--allow-partial', maxLineBytes: '--max-line-bytes', memoryLimit: '--memory-limit', threads: '--threads' } as const;
const CLICKHOUSE_ONLY = { clickhouseUrl: '--clickhouse-url', database: '--database', table: '--table', logsTable: '--logs-table', since: '--since', until: '--until', maxTraceDuration: '--max-trace-duration' } as const;

/** A ClickHouse run's options, checked before anything is read: what `analyzeClickHouse()` takes, or the first error. */
export interface ClickHouseCliOptions {
  url: string;
  database?: string;
  table?: string;
  logsTable?: string;
  since?: Date;
  until?: Date;
  maxTraceDurationMs?: number;
}

/**
 * The engine's options, checked against each other: trace paths for DuckDB; a URL and no paths
 * for ClickHouse; no option of the other engine; times and durations that parse.
 */
export function engineOptions(paths: readonly string[], opts: AnalyzeCliOptions): { ok: true; clickhouse?: ClickHouseCliOptions } | { ok: false; error: string } {
  const given = (names: Record<string, string>) => Object.entries(names).filter(([k]) => opts[k as keyof AnalyzeCliOptions] !== undefined && opts[k as keyof AnalyzeCliOptions] !== false).map(([, flag]) => flag);
  if (opts.engine === 'duckdb') {
    const wrong = given(CLICKHOUSE_ONLY);
    if (wrong.length) return { ok: false, error: `${wrong[0]} needs --engine clickhouse` };
    if (paths.length === 0) return { ok: false, error: 'give the trace files, folders or globs to analyse (or --engine clickhouse)' };
    return { ok: true };
  }
  const wrong = given(DUCKDB_ONLY);
  if (wrong.length) return { ok: false, error: `${wrong[0]} is an option of the duckdb engine, not of --engine clickhouse` };
  if (paths.length) return { ok: false, error: '--engine clickhouse reads the traces table, not files: remove the paths' };
  if (!opts.clickhouseUrl) return { ok: false, error: '--engine clickhouse needs --clickhouse-url' };
  const ch: ClickHouseCliOptions = { url: opts.clickhouseUrl };
  for (const [flag, name] of [['--database', 'database'], ['--table', 'table'], ['--logs-table', 'logsTable']] as const) {
    const v = opts[name];
    if (v === undefined) continue;
    if (v.trim() === '') return { ok: false, error: `${flag} must not be empty` };
    ch[name] = v;
  }
  for (const [flag, name] of [['--since', 'since'], ['--until', 'until']] as const) {
    const v = opts[name];
    if (v === undefined) continue;
    const d = parseInstant(v);
    if (!d) {
      return { ok: false, error: `${flag} must be a UTC date (2026-11-01) or an ISO 8601 time with its zone (2026-11-01T06:00:00Z), a real day, at most millisecond precision, from 1900 to 2262, got ${JSON.stringify(v)}` };
    }
    ch[name] = d;
  }
  if (ch.since && ch.until && ch.since >= ch.until) return { ok: false, error: '--since must be before --until' };
  if (opts.maxTraceDuration !== undefined) {
    const ms = parseDuration(opts.maxTraceDuration);
    if (ms === undefined) return { ok: false, error: `--max-trace-duration must be a duration such as 30m, 2h or 1d, got ${JSON.stringify(opts.maxTraceDuration)}` };
    ch.maxTraceDurationMs = ms;
  }
  return { ok: true, clickhouse: ch };
}

/** The instants a window may name: ClickHouse's DateTime64(9) holds 1900-01-01 up to 2262-04-11 23:47:16 UTC. */
const EARLIEST_INSTANT = Date.UTC(1900, 0, 1);
const LATEST_INSTANT = Date.UTC(2262, 3, 11, 23, 47, 16);
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/**
 * A UTC date, or an ISO 8601 date and time with its zone (Z or ±hh:mm): never the machine's local
 * time; a real calendar day and time (not 2025-02-30, which Date would roll into March), at most
 * millisecond precision (what the window compares with), within DateTime64's range. Undefined
 * otherwise.
 */
export function parseInstant(v: string): Date | undefined {
  const s = v.trim();
  const m = INSTANT.exec(s);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour > 23 || minute > 59 || second > 59) return undefined;
  if (m[7] !== undefined && /[1-9]/.test(m[7].slice(3))) return undefined;
  const d = new Date(m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : s.replace(' ', 'T'));
  const t = d.getTime();
  return Number.isNaN(t) || t < EARLIEST_INSTANT || t > LATEST_INSTANT ? undefined : d;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `2h`, `1d` in milliseconds (positive). */
export function parseDuration(v: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(v.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/** `--jaeger-url`, checked before any file is read: an http(s) URL, or the error. */
export function jaegerUrlOption(value: string | undefined): { ok: true; value: string | undefined } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, value: undefined };
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    return { ok: false, error: '--jaeger-url must be an http:// or https:// URL without credentials, e.g. http://localhost:16686' };
  }
  return { ok: true, value: url.href.replace(/\/+$/, '') };
}

/** A size DuckDB's `memory_limit` accepts: a number and a unit (decimal or binary). */
const SIZE = /^(\d+(?:\.\d+)?) ?(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

/** `--deny-residencies`, checked before any file is read: the labels, or the first error. @default ['secret'] */
export function denyResidenciesOption(values: readonly string[] | undefined): { ok: true; value: Residency[] | undefined } | { ok: false; error: string } {
  if (values === undefined) return { ok: true, value: undefined };
  const labels = values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  const bad = labels.find((l) => !(RESIDENCY_ORDER as readonly string[]).includes(l));
  if (bad !== undefined) return { ok: false, error: `--deny-residencies takes residency labels (${RESIDENCY_ORDER.join(', ')}), got ${JSON.stringify(bad)}` };
  return { ok: true, value: labels as Residency[] };
}

/** The numeric options, checked before any file is read: the `analyze()` options they map to, or the first error. */
export function numericOptions(opts: Pick<AnalyzeCliOptions, 'maxLineBytes' | 'memoryLimit' | 'threads'>):
  | { ok: true; options: { maxLineBytes?: number; memoryLimit?: string; threads?: number } }
  | { ok: false; error: string } {
  const options: { maxLineBytes?: number; memoryLimit?: string; threads?: number } = {};
  const positiveInt = (flag: string, v: string): number | string => {
    const n = Number(v);
    return /^\d+$/.test(v.trim()) && Number.isSafeInteger(n) && n > 0 ? n : `${flag} must be a positive integer, got ${JSON.stringify(v)}`;
  };
  if (opts.maxLineBytes !== undefined) {
    const n = positiveInt('--max-line-bytes', opts.maxLineBytes);
    if (typeof n === 'string') return { ok: false, error: n };
    options.maxLineBytes = n;
  }
  if (opts.threads !== undefined) {
    const n = positiveInt('--threads', opts.threads);
    if (typeof n === 'string') return { ok: false, error: n };
    options.threads = n;
  }
  if (opts.memoryLimit !== undefined) {
    const m = SIZE.exec(opts.memoryLimit.trim());
    if (!m || !(Number(m[1]) > 0)) return { ok: false, error: `--memory-limit must be a size such as 1.25GB, 512MB or 2GiB, got ${JSON.stringify(opts.memoryLimit)}` };
    options.memoryLimit = `${m[1]}${m[2]}`;
  }
  return { ok: true, options };
}
