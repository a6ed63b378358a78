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
}

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
  { flags: '--export-parquet <dir>', description: 'write every normalised table as <dir>/<table>.parquet' },
  { flags: '--allow-partial', description: 'analyse the readable rest of damaged input and report what was skipped', default: false },
  { flags: '--reports', description: 'also run the report rules (invented fields per turn, run summary, lineage)', default: false },
  { flags: '--remote-allowlist <tools>', description: 'comma-separated tools allowed to hop remotely (repeatable)', repeatable: true, default: [] },
  { flags: '--deny-residencies <labels>', description: 'residencies the agents\' policy never dispatches, comma-separated (default: secret; "" for none)', repeatable: true },
  { flags: '--max-line-bytes <n>', description: 'largest JSON line accepted (default: DuckDB\'s 16 MiB)' },
  { flags: '--memory-limit <size>', description: 'DuckDB memory limit, e.g. 1.25GB or 2GiB; beyond it tables spill to a temporary directory (default: 1.25GB)' },
  { flags: '--threads <n>', description: 'DuckDB worker threads (default: the machine\'s cores)' },
];

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
