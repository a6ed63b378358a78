/**
 * `argspan` — the command line (`argspan classify`, `argspan analyze`). The same commands can be
 * run in-process: `main(argv, io)` resolves to the exit code and never calls `process.exit`.
 */
export { main } from './main.js';
export type { CommandIO } from './io.js';
export { ExitCode } from './exit-codes.js';
