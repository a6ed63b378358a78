/**
 * The HTML report as its golden file holds it: the inlined chart libraries (hundreds of KB of
 * minified code that only an upgrade changes) reduced to their names, the scripts' hashes in its
 * Content-Security-Policy to `sha256-…`, and the run's wall time to 0. Used by the golden test and by the command that writes the golden files.
 */
export function goldenForm(report: string): string {
  return report
    .replace(/(<script data-library="[^"]*">)[\s\S]*?(<\/script>)/g, '$1/* inlined bundle */$2')
    .replace(/'sha256-[A-Za-z0-9+/=]+'/g, "'sha256-…'")
    .replace(/<span id=time-ms>\d+<\/span>/, '<span id=time-ms>0</span>');
}
