import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A browser script the report inlines: the chart library and what it needs. */
export interface InlineLibrary {
  /** npm package name and installed version, shown in the report's footer. */
  name: string;
  version: string;
  licence: string;
  /** The minified bundle, with its copyright header. */
  code: string;
}

/** The scripts the report's charts need, in load order. */
export interface ChartAssets {
  libraries: readonly InlineLibrary[];
}

/** Observable Plot's UMD bundle reads `d3` from the global scope, so d3 comes first. */
const BUNDLES = [
  { name: 'd3', file: 'dist/d3.min.js' },
  { name: '@observablehq/plot', file: 'dist/plot.umd.min.js' },
] as const;

let cached: ChartAssets | undefined;

/**
 * Read the chart libraries' minified bundles from the installed npm packages (the analyzer's
 * dependencies; nothing is vendored into the repository). Read once per process.
 */
export function readChartAssets(): ChartAssets {
  cached ??= { libraries: BUNDLES.map((b) => readBundle(b.name, b.file)) };
  return cached;
}

function readBundle(name: string, file: string): InlineLibrary {
  const dir = packageDir(name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; license?: string };
  const code = readFileSync(join(dir, file), 'utf8');
  // Inlined in a <script> element: a closing tag or comment opener inside would end or change it.
  if (/<\/script|<!--/i.test(code)) throw new Error(`${name} ${pkg.version}: ${file} holds "</script" or "<!--" and cannot be inlined in the HTML report`);
  return { name, version: pkg.version, licence: pkg.license ?? 'see the package', code };
}

/** The installed package's folder: its entry point resolved from here, then up to the package.json that names it. */
function packageDir(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === name) return dir;
    } catch {
      // not the package root yet
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`${name}: installed package folder not found`);
    dir = up;
  }
}
