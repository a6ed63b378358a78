import { redactErrorMessage } from '@argspan/analyzer';
import { Command, CommanderError } from 'commander';
import { ExitCode } from './exit-codes.js';
import { processIO, redactingStderr, type CommandIO } from './io.js';
import { registerClassify } from './commands/classify/index.js';
import { registerAnalyze } from './commands/analyze/index.js';
import { registerMcpProxy } from './commands/mcp-proxy/index.js';

/** Each command registers itself on the program and reports its exit code through `setExit`. */
export type CommandRegistrar = (program: Command, io: CommandIO, setExit: (code: number) => void) => void;

const registrars: CommandRegistrar[] = [registerClassify, registerAnalyze, registerMcpProxy];

/**
 * Run the CLI. Resolves to the process exit code; never calls process.exit itself. An error no
 * command expected is a bug: exit 3 (never 2, which says the input or usage was bad), with its
 * message stripped of anything quoted, which may be input data. A credential in anything written
 * to stderr (a path given as an option, a file's name) is shown as its marker.
 */
export async function main(argv: string[], given: CommandIO = processIO): Promise<number> {
  const io = redactingStderr(given);
  let exitCode: number = ExitCode.OK;
  const program = new Command('argspan')
    .description('See and control what AI agents put into tool calls.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });
  for (const register of registrars) register(program, io, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; everything else commander rejects is bad usage.
      return err.exitCode === 0 ? ExitCode.OK : ExitCode.INPUT_ERROR;
    }
    io.stderr.write(internalErrorMessage(err));
    return ExitCode.INTERNAL_ERROR;
  }
  return exitCode;
}

/** The one line printed for a bug: what failed, never what it was reading. */
export function internalErrorMessage(err: unknown): string {
  return `argspan: internal error (a bug in argspan, not a problem with the input; please report it): ${redactErrorMessage(err)}\n`;
}
