import type { AnalysisResult } from '../types.js';
import { htmlReport, type HtmlReportOptions } from './html/index.js';
import { jsonReport } from './json.js';
import { junitReport } from './junit.js';
import { sarifReport } from './sarif.js';
import { tableReport } from './table.js';

/** Options a reporter may use (the HTML report's; the others ignore them). */
export type ReportOptions = HtmlReportOptions;

/** A reporter turns a result into the text printed on stdout. */
export type Reporter = (result: AnalysisResult, options?: ReportOptions) => string;

export const REPORT_FORMATS = ['table', 'json', 'junit', 'sarif', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const reporters: Readonly<Record<ReportFormat, Reporter>> = {
  table: tableReport,
  json: jsonReport,
  junit: junitReport,
  sarif: sarifReport,
  html: htmlReport,
};
