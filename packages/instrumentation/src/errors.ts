import { ErrorType } from '@argspan/conventions';
import type { Enforcement, GateAction, Residency, Verdict } from '@argspan/conventions';
import type { CallClassification } from '@argspan/core';
import { assumedValuesPhrase, shownName } from '@argspan/core/internal';

/**
 * Base of the errors the gate throws instead of dispatching (enforcement `deny` or `hold`).
 * Messages and fields name the tool, the rule and the key, never a value.
 */
export class ArgspanGateError extends Error {
  /** The `error.type` recorded on the span. */
  readonly errorType: ErrorType;
  readonly tool: string;
  readonly callId: string;
  readonly verdict: Verdict;
  /** `deny` or `hold`: what the gate did instead of dispatching. */
  readonly enforcement: Enforcement;
  /** Why (the enforcement reason: names the rule and key, never the value). */
  readonly reason: string;
  readonly residency: Residency;
  readonly gateAction: GateAction;
  /** `tool.key` of every denylisted leaf whose value the model inferred (or nobody can be shown to have given). */
  readonly hits: readonly string[];

  constructor(errorType: ErrorType, message: string, callId: string, c: CallClassification) {
    super(message);
    this.name = errorType;
    this.errorType = errorType;
    this.tool = c.tool;
    this.callId = callId;
    this.verdict = c.verdict;
    this.enforcement = c.enforcement.action;
    this.reason = c.enforcement.reason;
    this.residency = c.residency;
    this.gateAction = c.gate.action;
    this.hits = [...c.gate.hits];
  }
}

/** The policy denies the call (a secret it would send or return, a remote tool's refused hop, a failed classification): the tool was not called. */
export class ArgspanRefusedError extends ArgspanGateError {
  constructor(callId: string, c: CallClassification) {
    super(ErrorType.REFUSED, `argspan refused ${c.tool}: ${c.enforcement.reason}`, callId, c);
  }
}

/** The inferred-field gate blocked the call: the model guessed a value on a denylisted key. */
export class ArgspanBlockedError extends ArgspanGateError {
  constructor(callId: string, c: CallClassification) {
    super(ErrorType.BLOCKED, `argspan blocked ${c.tool}: ${assumedValuesPhrase(c.gate)}`, callId, c);
  }
}

/** The inferred-field gate needs an answer first; `question` is the one question to put to the user. */
export class ArgspanClarificationError extends ArgspanGateError {
  /** The one clarifying question (names the field, never the value). */
  readonly question: string;

  constructor(callId: string, c: CallClassification) {
    const question = c.gate.question ?? `Please confirm ${c.gate.hits.join(', ')}.`;
    super(ErrorType.CLARIFICATION, `argspan needs an answer before ${c.tool}: ${question}`, callId, c);
    this.question = question;
  }
}

/** The error the gate throws for a classification, or undefined when the call may run or hop. */
export function gateError(callId: string, c: CallClassification): ArgspanGateError | undefined {
  switch (c.enforcement.action) {
    case 'run':
    case 'hop':
      return undefined;
    case 'hold':
      return new ArgspanClarificationError(callId, c);
    default:
      // A call denied by the inferred-field gate is "blocked"; every other denial "refused".
      return c.enforcement.rule === 'inferred-field'
        ? new ArgspanBlockedError(callId, c)
        : new ArgspanRefusedError(callId, c);
  }
}

/** `error.type` for a tool's own failure: the error's class name, `_OTHER` when it has none. */
export function errorTypeOf(err: unknown): string {
  if (err instanceof Error) {
    const name = err.constructor?.name || err.name;
    if (name && name !== 'Object') return shownName(name);
  }
  return ErrorType.OTHER;
}
