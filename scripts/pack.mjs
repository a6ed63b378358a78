#!/usr/bin/env node
// Build every published workspace and pack it with `npm pack` into one folder, so argspan can be
// installed before (or without) a registry release: `npm install <folder>/*.tgz`.
// Usage: node scripts/pack.mjs [out-dir]   (default: ./tarballs). Prints one tarball path per line.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(process.argv[2] ?? join(root, 'tarballs'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const workspaces = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
const published = workspaces.filter((dir) => !JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).private);

execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: root, stdio: 'inherit' });
mkdirSync(out, { recursive: true });
for (const dir of published) {
  // Each tarball carries the licence text; the copy exists only while packing.
  const licence = join(root, dir, 'LICENSE');
  copyFileSync(join(root, 'LICENSE'), licence);
  try {
    const report = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', out], { cwd: join(root, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    for (const r of report) console.log(join(out, r.filename));
  } finally {
    rmSync(licence, { force: true });
  }
}
