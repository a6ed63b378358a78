/** Named exit codes, shared by every command (gitleaks / npm-check-updates style). */
export const ExitCode = {
  /** Clean: nothing at or above the threshold; or a baseline was written (`analyze --write-baseline`). */
  OK: 0,
  /** Findings at or above the threshold (analyze), or a call refused/blocked with --fail-on-block (classify). */
  FINDINGS: 1,
  /** Bad usage, unreadable or malformed input, a rule error. */
  INPUT_ERROR: 2,
  /** An internal error: a bug in argspan, never a verdict on the input. */
  INTERNAL_ERROR: 3,
  /** `mcp-proxy`: the MCP server exited (or closed the connection) while the client was connected. */
  SERVER_FAILED: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
