import { redactName } from '@argspan/core';
/** Where a command writes. Machine output goes to `stdout`; logs, warnings and progress to `stderr`. */
export interface CommandIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const processIO: CommandIO = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/**
 * `io` with every text written to `stderr` passed through `redactName`: the messages there name
 * files and options as the user gave them (`--html traces/ghp_…/r.html`), and a credential in a
 * path is printed as its marker, as in the reports. What goes to `stdout` is the reports', which
 * redact by themselves.
 */
export function redactingStderr(io: CommandIO): CommandIO {
  const stderr = io.stderr;
  const redacting = new Proxy(stderr, {
    get(target, prop) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? redactName(chunk) : chunk, ...rest);
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...io, stderr: redacting };
}
