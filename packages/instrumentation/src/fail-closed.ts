import { ResidencyRule } from '@argspan/conventions';
import { redactSecrets } from '@argspan/core';
import type { CallClassification, ClassifyContext, ClassifyOptions, ToolCall } from '@argspan/core';
import type { Classifier } from './types.js';

/** Reason recorded when the classifier threw or returned something unusable. Names no value. */
export const FAIL_CLOSED_REASON = `fail-closed: the classifier threw or returned no usable classification (rule ${ResidencyRule.FAIL_CLOSED})`;

/**
 * Run the classifier like opentelemetry-js-contrib's `safeExecuteInTheMiddle`, but failing closed:
 * a throw or a malformed result becomes a `refuse` classification with `failedClosed: true`. The
 * thrown error itself is discarded — its message could quote a value.
 */
export function classifySafely(
  classifier: Classifier,
  call: ToolCall,
  ctx: ClassifyContext,
  options: ClassifyOptions | undefined,
): Omit<CallClassification, 'enforcement'> {
  try {
    const c = classifier(call, ctx, options);
    if (isWellFormed(c)) return c;
  } catch {
    // fall through: fail closed
  }
  return failClosed(call.tool);
}

/**
 * The fail-closed classification of a call to `tool` (shown redacted if the name holds a
 * credential): no leaves, so nothing of the arguments is recorded.
 */
export function failClosed(tool: string, reason: string = FAIL_CLOSED_REASON): Omit<CallClassification, 'enforcement'> {
  return {
    tool: shownToolName(tool),
    residency: 'unknown',
    verdict: 'refuse',
    reason,
    gate: { action: 'block', hits: [] },
    leaves: [],
    flat: [],
    limits: [],
    droppedLeaves: 0,
    bytes: 0,
    strippedKeys: [],
    failedClosed: true,
  };
}

function isWellFormed(c: unknown): c is Omit<CallClassification, 'enforcement'> {
  if (typeof c !== 'object' || c === null) return false;
  const k = c as Partial<CallClassification>;
  return (
    typeof k.verdict === 'string' &&
    typeof k.reason === 'string' &&
    typeof k.residency === 'string' &&
    typeof k.gate === 'object' &&
    k.gate !== null &&
    Array.isArray(k.gate.hits) &&
    Array.isArray(k.leaves) &&
    Array.isArray(k.flat) &&
    k.leaves.length === k.flat.length &&
    k.leaves.every(isLabel) &&
    k.flat.every((l) => typeof l === 'object' && l !== null && typeof l.text === 'string')
  );
}

function isLabel(l: unknown): boolean {
  if (typeof l !== 'object' || l === null) return false;
  const x = l as Record<string, unknown>;
  return typeof x.key === 'string' && typeof x.residency === 'string' && typeof x.provenance === 'string' && typeof x.rule === 'string';
}

/** A tool name as spans may show it: redacted if it holds a credential; never throws. */
function shownToolName(tool: string): string {
  try {
    return redactSecrets(tool).text;
  } catch {
    return '(unnamed)';
  }
}
