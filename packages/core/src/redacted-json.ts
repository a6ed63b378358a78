import { flatten } from './flatten.js';
import { shownName, splitCredentialKeys } from './key-path-secrets.js';
import { redactSecrets, redactionMarker } from './secrets/redact.js';

/**
 * A value's JSON text as it may be written to a span or passed on: every credential shape in the
 * text redacted (the text as a whole, so a `"password": "…"` pair is judged as a pair), every key
 * that holds a credential shown as names are ({@link shownName}), and every key that holds one only
 * together with the keys around it (`{"ghp_Qz7K…": {"p2Lm…": 1}}`) replaced by its rule's marker.
 * Undefined when the value has no JSON form or serialising it throws (a cycle, a BigInt, a getter).
 */
export function redactedJson(value: unknown): string | undefined {
  let parsed: unknown;
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return undefined;
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  return redactSecrets(JSON.stringify(withKeysShown(parsed, splitKeysOf(parsed)))).text;
}

/**
 * A copy of a JSON value with each key shown as names are ({@link shownName}), or as `hidden` maps
 * it (a key found to be part of a credential, by its marker).
 */
export function withKeysShown(v: unknown, hidden: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => withKeysShown(x, hidden));
  if (v === null || typeof v !== 'object') return v;
  // (built from entries: a key such as `__proto__` stays an own key)
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [hidden.get(k) ?? shownName(k), withKeysShown(x, hidden)]));
}

/** The keys of a JSON value that hold a credential only together with the keys around them, each with its marker (read on its leaves' key paths, as arguments' are). */
function splitKeysOf(value: unknown): Map<string, string> {
  const hidden = new Map<string, string>();
  for (const { path } of flatten(value).leaves) {
    for (const h of splitCredentialKeys(path) ?? []) hidden.set(String(path[h.at]), redactionMarker(h.rule));
  }
  return hidden;
}
