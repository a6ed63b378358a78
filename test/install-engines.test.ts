import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// Every package a Node 20 install pulls in (the lockfile is what `npm ci` installs) must declare it
// runs there: what argspan's packages depend on, on the oldest Node argspan supports; the tools
// that build and test it, on the Node 20 this runs on. A dependency that needs Node 22 prints
// EBADENGINE at install and may break at run time.
describe('the install', () => {
  it('holds no package whose engines exclude the Node versions argspan supports', () => {
    const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    const oldest = semver.minVersion(root.engines.node)!.version;
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
    };
    const excluded = Object.entries(lock.packages)
      .filter(([, p]) => p.engines && !Array.isArray(p.engines) && typeof p.engines.node === 'string')
      .filter(([, p]) => !semver.satisfies(p.dev ? process.versions.node : oldest, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name} (${(p.engines as { node: string }).node})`);
    expect(excluded).toEqual([]);
  });
});
