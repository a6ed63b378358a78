#!/usr/bin/env node
// Build every published workspace and pack it with `npm pack` into one folder, so argspan can be
// installed before (or without) a registry release: `npm install <folder>/*.tgz`.
// Usage: node scripts/pack.mjs [out-dir]   (default: ./tarballs). Prints one tarball path per line.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(process.argv[2] ?? join(root, 'tarballs'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const workspaces = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
const published = workspaces.filter((dir) => !JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).private);

// `tsc -b` never deletes the output of a source that was removed or renamed: drop it, so no tarball
// ships a module (and a source map) whose source is gone. Only such files are touched: tests may
// be running from the rest of dist/ meanwhile.
for (const dir of published) removeOrphanedOutput(join(root, dir));
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: root, stdio: 'inherit' });
mkdirSync(out, { recursive: true });
for (const dir of published) {
  // (each package's prepack copies the licence text in: scripts/licence.mjs)
  const report = JSON.parse(execFileSync(npm, ['pack', '--json', '--silent', '--pack-destination', out], { cwd: join(root, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  for (const r of report) console.log(join(out, r.filename));
}

/** Remove the files of `dir/dist` compiled from a `dir/src` TypeScript file that no longer exists. */
function removeOrphanedOutput(dir) {
  const dist = join(dir, 'dist');
  if (!existsSync(dist)) return;
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const output = join(entry.parentPath ?? entry.path, entry.name);
    const stem = relative(dist, output).match(/^(.*?)(?:\.d\.ts|\.js)(?:\.map)?$/)?.[1];
    if (stem === undefined || existsSync(join(dir, 'src', `${stem}.ts`))) continue;
    rmSync(output);
    console.error(`removed ${relative(root, output)}: its source is gone`);
  }
}
