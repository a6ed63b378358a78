#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in ../dist (built by `npm ci` through the root `prepare` step).
import { internalErrorMessage, main } from '../dist/main.js';

// `argspan … | head` closes stdout early: that is the reader's choice, not an error to crash on.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // A bug (exit 3), never "bad input" (2); the message is stripped of quoted text, which may be input data.
    process.stderr.write(internalErrorMessage(err));
    process.exitCode = 3;
  },
);
