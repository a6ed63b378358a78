/** One problem with one input: which file, where in it, and what is wrong. Never a value from the file. */
export interface InputProblem {
  file: string;
  /** 1-based line (or framed message) number, when the problem is in one line. */
  line?: number;
  reason: string;
}

/** Unreadable or malformed input. The CLI maps it to exit code 2. */
export class InputError extends Error {
  constructor(readonly problems: readonly InputProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'InputError';
  }
}

/** `file:line: reason` (or `file: reason`). */
export function formatProblem(p: InputProblem): string {
  return `${p.file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.reason}`;
}
