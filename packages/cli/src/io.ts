/** Where a command writes. Machine output goes to `stdout`; logs, warnings and progress to `stderr`. */
export interface CommandIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const processIO: CommandIO = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
