import { REPORT_FORMATS, SEVERITIES } from '@argspan/analyzer';

/** Parsed `argspan analyze` options (commander camel-cases the flags). */
export interface AnalyzeCliOptions {
  format: (typeof REPORT_FORMATS)[number];
  failOn: (typeof SEVERITIES)[number] | 'none';
  rules: string[];
  baseline?: string;
  writeBaseline?: string;
  db?: string;
  exportParquet?: string;
  allowPartial: boolean;
  reports: boolean;
  remoteAllowlist: string[];
  maxLineBytes?: string;
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
  { flags: '--fail-on <severity>', description: 'exit 1 when a finding is at or above this severity', choices: [...SEVERITIES, 'none'], default: 'low' },
  { flags: '--rules <dir>', description: 'add the .sql rules in this folder (repeatable)', repeatable: true, default: [] },
  { flags: '--baseline <file>', description: 'suppress findings whose fingerprint this baseline lists' },
  { flags: '--write-baseline <file>', description: 'write the findings of this run as a baseline' },
  { flags: '--db <file>', description: 'keep the DuckDB database in this file (analyzer tables are replaced)' },
  { flags: '--export-parquet <dir>', description: 'write every normalised table as <dir>/<table>.parquet' },
  { flags: '--allow-partial', description: 'analyse the readable rest of damaged input and report what was skipped', default: false },
  { flags: '--reports', description: 'also run the report rules (invented fields per turn, run summary, lineage)', default: false },
  { flags: '--remote-allowlist <tools>', description: 'comma-separated tools allowed to hop remotely (repeatable)', repeatable: true, default: [] },
  { flags: '--max-line-bytes <n>', description: 'largest JSON line accepted (default: DuckDB\'s 16 MiB)' },
];
