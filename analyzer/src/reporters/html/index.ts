import type { AnalysisResult } from '../../types.js';
import { readChartAssets } from './chart-assets.js';
import { renderHtmlReport, type HtmlReportOptions } from './render.js';

export type { HtmlReportOptions } from './render.js';

/** `--format html`: the self-contained HTML report, the chart libraries read from their installed packages. */
export function htmlReport(result: AnalysisResult, options: HtmlReportOptions = {}): string {
  return renderHtmlReport(result, options, readChartAssets());
}
