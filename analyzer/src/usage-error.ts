/**
 * An option whose value cannot be used: a `--db` file that is not a DuckDB database, a baseline
 * that cannot be read or written, a memory limit DuckDB refuses. Bad usage, not bad input and
 * not a bug: the CLI maps it to exit code 2. The message names the option and what is wrong.
 */
export class UsageError extends Error {
  constructor(
    readonly option: string,
    reason: string,
  ) {
    super(`${option}: ${reason}`);
    this.name = 'UsageError';
  }
}
