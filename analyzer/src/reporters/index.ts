import type { AnalysisResult } from '../types.js';
import { jsonReport } from './json.js';
import { junitReport } from './junit.js';
import { sarifReport } from './sarif.js';
import { tableReport } from './table.js';

/** A reporter turns a result into the text printed on stdout. */
export type Reporter = (result: AnalysisResult) => string;

export const REPORT_FORMATS = ['table', 'json', 'junit', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const reporters: Readonly<Record<ReportFormat, Reporter>> = {
  table: tableReport,
  json: jsonReport,
  junit: junitReport,
  sarif: sarifReport,
};
