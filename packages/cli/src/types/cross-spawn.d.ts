// cross-spawn ships no types; the proxy uses its spawn, which has child_process.spawn's signature
// (it resolves `npx` and other .cmd shims on Windows, where child_process.spawn cannot).
declare module 'cross-spawn' {
  import type { ChildProcess, SpawnOptions } from 'node:child_process';
  function spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
  export default spawn;
}
