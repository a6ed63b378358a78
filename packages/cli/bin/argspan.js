#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in ../dist (built by `npm ci` through the root `prepare` step).
import { main } from '../dist/main.js';

// `argspan … | head` closes stdout early: that is the reader's choice, not an error to crash on.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => {
    process.stderr.write(`argspan: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
