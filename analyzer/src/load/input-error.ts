import { redactName } from '@argspan/core';
import { terminalText } from '../terminal-text.js';

/** One problem with one input: which file, where in it, and what is wrong. Never a value from the file. */
export interface InputProblem {
  file: string;
  /** 1-based line (or framed message) number, when the problem is in one line. */
  line?: number;
  reason: string;
}

/** The reason a single JSON document that does not parse is given (named at line 1: where it opens). */
export const DOCUMENT_NOT_JSON = 'not valid JSON (a truncated or corrupt document)';

/** Unreadable or malformed input. The CLI maps it to exit code 2. */
export class InputError extends Error {
  constructor(readonly problems: readonly InputProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'InputError';
  }
}

/**
 * Input that was read whole and holds no span at all (an empty export, API page or list): there
 * is nothing to analyse, and a run over it must not say "clean" for data it never saw.
 */
export class NoSpansError extends InputError {
  constructor(files: readonly string[]) {
    super([{ file: files.join(', '), reason: `no spans in the input: ${files.length === 1 ? 'the file was read and holds' : `all ${files.length} files were read and hold`} no span (an empty export, page or list); nothing to analyse` }]);
    this.name = 'NoSpansError';
  }
}

/**
 * A path given that names nothing to read: no such file, a glob that matches nothing, a folder
 * with no trace files, a pipe. Never skipped (`allowPartial` too): a typo in a CI job's path must
 * not make the gate check less than it was told to.
 */
export class PathsError extends InputError {
  constructor(problems: readonly InputProblem[]) {
    super(problems);
    this.name = 'PathsError';
  }
}

/**
 * `file:line: reason` (or `file: reason`), a credential in the file's name redacted and its control
 * characters written visibly (a file is named by whoever wrote it, and this goes to a terminal).
 */
export function formatProblem(p: InputProblem): string {
  return `${terminalText(redactName(p.file))}${p.line !== undefined ? `:${p.line}` : ''}: ${p.reason}`;
}
