import { Residency } from '@argspan/conventions';
import { redactSecrets, redactionMarker, type CallClassification } from '@argspan/core';
import { isAsyncIterable, parseKeyPath, redactedJson, withKeysShown } from '@argspan/core/internal';

/** Longest `gen_ai.tool.call.arguments` / `.result` written, in characters; the rest is cut. @default 8192 */
export const MAX_RECORDED_CONTENT = 8192;

const SENSITIVE: ReadonlySet<string> = new Set([Residency.SECRET, Residency.DIRTY_TREE]);

/**
 * The call's arguments as `gen_ai.tool.call.arguments` (the GenAI conventions' opt-in attribute,
 * so GenAI backends show the input): the dispatched snapshot as JSON with every secret or
 * dirty-tree leaf replaced by a marker naming its rule, and every key that holds a credential
 * redacted. Undefined when the call failed closed (nothing was classified to redact by).
 */
export function recordedArguments(snapshot: unknown, c: CallClassification): string | undefined {
  if (c.failedClosed) return undefined;
  let copy = snapshot === undefined ? undefined : (JSON.parse(JSON.stringify(snapshot)) as unknown);
  // Object keys the classification found to be values (inside a credential slot, copied from a secret source).
  const hiddenKeys = new Map<string, string>();
  c.flat.forEach((leaf, i) => {
    const label = c.leaves[i]!;
    if (label.hiddenKeys !== undefined) {
      // Each hidden key's marker as the key path shows it (the credential's rule, for one split across keys).
      const shown = parseKeyPath(label.key);
      for (const at of label.hiddenKeys) {
        const marker = shown?.[at];
        hiddenKeys.set(String(leaf.path[at]), typeof marker === 'string' ? marker : redactionMarker(label.rule));
      }
    }
    if (!SENSITIVE.has(label.residency)) return;
    copy = setAt(copy, leaf.path, redactionMarker(label.rule));
  });
  return cut(JSON.stringify(withKeysShown(copy, hiddenKeys)) ?? '');
}

/**
 * The tool's result as `gen_ai.tool.call.result`, with credential shapes redacted. A call with
 * secret or dirty-tree arguments (reading `.env`, an uncommitted file) records no result: what it
 * returned is as sensitive as what it was given; nor does a streamed result (not `"{}"`).
 */
export function recordedResult(result: unknown, c: CallClassification): string | undefined {
  if (c.failedClosed || SENSITIVE.has(c.residency) || result === undefined || isAsyncIterable(result)) return undefined;
  const text = typeof result === 'string' ? redactSecrets(result).text : redactedJson(result);
  return text === undefined ? undefined : cut(text);
}

function cut(text: string): string {
  return text.length > MAX_RECORDED_CONTENT ? text.slice(0, MAX_RECORDED_CONTENT) : text;
}

function setAt(root: unknown, path: readonly (string | number)[], value: string): unknown {
  if (path.length === 0) return value;
  let node = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const next = node?.[path[i]!];
    if (next === null || typeof next !== 'object') return root;
    node = next as Record<string | number, unknown>;
  }
  if (node !== null && typeof node === 'object') node[path[path.length - 1]!] = value;
  return root;
}
