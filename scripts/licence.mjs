#!/usr/bin/env node
// A published package's copy of the repository's LICENSE, present only while it is packed: each
// package runs `copy` before `npm pack` or `npm publish` (prepack) and `remove` after (postpack).
// Usage, from a package folder: node ../../scripts/licence.mjs copy|remove
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [action] = process.argv.slice(2);
if (action === 'copy') copyFileSync(join(root, 'LICENSE'), join(process.cwd(), 'LICENSE'));
else if (action === 'remove') rmSync(join(process.cwd(), 'LICENSE'), { force: true });
else {
  console.error('usage: node scripts/licence.mjs copy|remove');
  process.exit(2);
}
