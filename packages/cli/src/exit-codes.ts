/** Named exit codes, shared by every command (gitleaks / npm-check-updates style). */
export const ExitCode = {
  /** Clean: nothing at or above the threshold. */
  OK: 0,
  /** Findings at or above the threshold (analyze), or a call refused/blocked with --fail-on-block (classify). */
  FINDINGS: 1,
  /** Bad usage, unreadable or malformed input, a rule error. */
  INPUT_ERROR: 2,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
