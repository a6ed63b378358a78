import { redactSecrets, redactionMarker } from '@argspan/core';
import { binaryBytes, binaryText, bufferJsonBytes, isPlaceholderValue, typedArrayKind, isSecretKeyName, PRIVATE_KEY_BEGIN, PRIVATE_KEY_END, splitCredentialKeysEndingLast } from '@argspan/core/internal';
import type { SecretDetector } from '@argspan/core';
import { HopError, HopStateError } from './errors.js';

/**
 * A whole PEM / OpenSSH private key: header, base64 body and footer. The core detector flags the
 * header line; the body must go too before anything is written. Without a footer the block runs
 * to the next `"` (the end of a JSON string) or the end of the text.
 */
const PRIVATE_KEY_BLOCK = new RegExp(`${PRIVATE_KEY_BEGIN}[^"]*?(?:${PRIVATE_KEY_END}|(?="|$))`, 'g');

/**
 * `key = value` / `key: value` (optionally quoted, as in JSON, YAML, .env or a sentence: a quoted
 * value is all of it, spaces and escaped quotes included, up to 256 characters, so a line of
 * unclosed quotes costs linear time) and `Bearer <token>`. Blunt on purpose, like the seed's redaction: what leaves the machine or lands
 * in the state directory loses every value given to a credential key, however short or plain.
 */
const ASSIGNMENT =
  /(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\1(\s*[:=]\s*)(?:"(?<dq>(?:[^"\\\n]|\\.){0,256})(?=")|'(?<sq>(?:[^'\\\n]|\\.){0,256})(?=')|(?<uq>["']?)(?<bare>(?:(?:bearer|basic|token|digest)\s+)?(?:\$\{[^}\s]*\}|[^\s"',;}\]]+)))/gi;
/** An authorisation scheme before a credential value, kept (`Authorization: Bearer [REDACTED…]`). */
const SCHEME = /^(?:bearer|basic|token|digest)\s+/i;
/** A value that is one marker already (the detector's). */
const WHOLE_MARKER = /^\[REDACTED:[^\]]*\]$/;
const BEARER = /\b(bearer\s+)([A-Za-z0-9\-._~+/]+=*)/gi;
const REDACTED = '[REDACTED';

/** The rule id of values redacted because their key names a credential (the detector saw no shape). */
export const CREDENTIAL_ASSIGNMENT_RULE = 'credential-assignment';

/**
 * Redact text before it is written to the state directory or sent: whole private-key blocks,
 * every finding of the detector, then (bluntly) every value assigned to a credential key and every
 * bearer token. Markers name the rule. Stronger than the detector alone: on this path a redacted
 * non-secret costs little and a missed secret is gone.
 */
export function redactText(text: string, detector: SecretDetector): { text: string; ruleIds: string[] } {
  const blocks = text.includes('PRIVATE KEY') ? text.replace(PRIVATE_KEY_BLOCK, redactionMarker('private-key')) : text;
  const r = redactSecrets(blocks, detector);
  const ruleIds = new Set(blocks === text ? r.ruleIds : ['private-key', ...r.ruleIds]);
  const marker = redactionMarker(CREDENTIAL_ASSIGNMENT_RULE);
  // the pre-checks skip both scans for most short values (a payload redacts each string on its own)
  const assigned = !/[:=]/.test(r.text)
    ? r.text
    : r.text.replace(ASSIGNMENT, (...m: unknown[]) => {
        const [whole, q, key, sep] = m as string[];
        // A quoted value is the whole quoted text (spaces, escaped quotes); a bare one, up to a space or delimiter.
        const g = m[m.length - 1] as { dq?: string; sq?: string; uq?: string; bare?: string };
        const quote = g.dq !== undefined ? '"' : g.sq !== undefined ? "'" : (g.uq ?? '');
        const raw = g.dq ?? g.sq ?? g.bare ?? '';
        const scheme = SCHEME.exec(raw)?.[0] ?? '';
        const value = raw.slice(scheme.length);
        if (!isSecretKeyName(key!) || value === '' || WHOLE_MARKER.test(value) || isPlaceholderValue(value)) return whole!;
        ruleIds.add(CREDENTIAL_ASSIGNMENT_RULE);
        return `${q}${key}${q}${sep}${quote}${scheme}${marker}`;
      });
  const blunt = !/bearer/i.test(assigned)
    ? assigned
    : assigned.replace(BEARER, (m, lead: string, token: string) => {
        if (token.startsWith(REDACTED) || m.includes(REDACTED)) return m;
        ruleIds.add(CREDENTIAL_ASSIGNMENT_RULE);
        return `${lead}${marker}`;
      });
  return { text: blunt, ruleIds: [...ruleIds] };
}

/**
 * Last line of defence before a write: if anything credential-shaped is still in the encoded
 * record (a flag name, a run id), refuse to write it. Names the rule, never the value.
 */
export function assertNoSecrets(encoded: string, detector: SecretDetector, what: string): void {
  const finding = detector.find(encoded);
  if (finding) {
    throw new HopStateError(`refusing to write ${what}: it still holds a value matching secret rule ${finding.ruleId}`);
  }
}

/** A payload that cannot be turned into JSON (why, never what). */
class Unserialisable extends Error {}

/** Deepest nesting walked (a payload deeper than this is refused, not a stack overflow). */
const MAX_DEPTH = 512;
/** Longest array walked: a sparse array's length alone could ask for gigabytes. */
const MAX_ARRAY_LENGTH = 10_000_000;

/**
 * The body that leaves the machine. A string payload is redacted as text. Any other value is
 * walked the way `JSON.stringify` walks it (toJSON, boxed primitives; undefined, functions and
 * symbols dropped from objects and null in arrays; non-finite numbers null), redacting every
 * string and every object key with {@link redactText} and replacing every non-null value under a
 * credential key (`password`, `api_key`, …) with a marker — then serialised. Redacting values, not
 * the JSON text, means a token after an escaped newline or quote, or used as a key, never depends
 * on the detector reading JSON escapes. A clean payload serialises exactly as `JSON.stringify`.
 *
 * Throws {@link HopError} `HOP_PAYLOAD` naming the step and the reason (a BigInt, a cycle, a getter
 * or proxy trap that threw, too deep), or `HOP_REDACTION` when the detector fails — never a value.
 */
export function redactPayload(payload: unknown, detector: SecretDetector, step: number): string {
  const redact = (text: string) => {
    try {
      return redactText(text, detector).text;
    } catch {
      throw new HopError('HOP_REDACTION', `step ${step}: the secret detector failed while redacting the payload; nothing was sent`);
    }
  };
  if (typeof payload === 'string') return redact(payload);
  const keys = new Map<string, string>(); // keys repeat across the objects of a list: redact each once
  const redactKey = (key: string) => {
    let r = keys.get(key);
    if (r === undefined) keys.set(key, (r = redact(key)));
    return r;
  };
  const ancestors = new Set<object>();
  const marker = JSON.stringify(redactionMarker(CREDENTIAL_ASSIGNMENT_RULE));
  // The keys (and indexes) from the root to the value walked, and which of them hold a credential
  // only together with the keys around them (`{"ghp_Qz7K…": {"p2Lm…": 1}}`), by position, with
  // its rule: a key's name is written after its value is walked, so a later key can hide it.
  const path: (string | number)[] = [];
  const hidden = new Map<number, string>();

  /** JSON text of `value`, or undefined where JSON.stringify omits it. */
  const walk = (input: unknown, key: string, credential: boolean, depth: number): string | undefined => {
    let value = input;
    // Binary data (a Buffer, a typed array) goes out as JSON writes it, a list of byte values, where
    // no string is left to redact: its bytes are read as text, and data holding a secret is replaced whole.
    // So does a Buffer as JSON writes it ({"type":"Buffer","data":[…]}), passed in already written.
    if (typeof value === 'object' && value !== null) {
      const bytes = binaryBytes(value) ?? bufferJsonBytes(value);
      if (bytes !== undefined) {
        const text = binaryText(bytes, typedArrayKind(value), bytes.length);
        if (redact(text) !== text) return marker;
      }
    }
    if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') value = toJSON.call(value, key) as unknown;
      if (typeof value === 'object' && (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt)) {
        value = value.valueOf();
      }
    }
    if (value === null) return 'null';
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
    if (typeof value === 'bigint') throw new Unserialisable('it holds a BigInt');
    if (credential) {
      // blunt on purpose: whatever a credential key holds does not leave (a placeholder may)
      return typeof value === 'string' && (isPlaceholderValue(value) || value.startsWith(REDACTED)) ? JSON.stringify(value) : marker;
    }
    if (typeof value === 'string') return JSON.stringify(redact(value));
    if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    const obj = value as object;
    if (ancestors.has(obj)) throw new Unserialisable('it refers to itself (a cycle)');
    if (depth >= MAX_DEPTH) throw new Unserialisable(`it is nested deeper than ${MAX_DEPTH} levels`);
    ancestors.add(obj);
    const parts: string[] = [];
    if (Array.isArray(obj)) {
      if (obj.length > MAX_ARRAY_LENGTH) throw new Unserialisable(`it holds an array longer than ${MAX_ARRAY_LENGTH} elements`);
      for (let i = 0; i < obj.length; i++) {
        path.push(i);
        parts.push(walk(obj[i], String(i), false, depth + 1) ?? 'null');
        path.pop();
      }
      ancestors.delete(obj);
      return `[${parts.join(',')}]`;
    }
    const used = new Set<string>();
    for (const k of Object.keys(obj)) {
      const at = path.length;
      path.push(k);
      for (const h of splitCredentialKeysEndingLast(path, detector) ?? []) if (!hidden.has(h.at)) hidden.set(h.at, h.rule);
      const v = walk((obj as Record<string, unknown>)[k], k, isSecretKeyName(k), depth + 1);
      path.pop();
      const splitRule = hidden.get(at);
      hidden.delete(at);
      if (v === undefined) continue;
      const shown = splitRule === undefined ? redactKey(k) : redactionMarker(splitRule);
      let name = shown;
      // two keys redacted to the same marker both stay
      for (let n = 2; used.has(name); n++) name = `${shown}#${n}`;
      used.add(name);
      parts.push(`${JSON.stringify(name)}:${v}`);
    }
    ancestors.delete(obj);
    return `{${parts.join(',')}}`;
  };

  let text: string | undefined;
  try {
    text = walk(payload, '', false, 0);
  } catch (err) {
    if (err instanceof HopError) throw err;
    // a getter, toJSON or proxy trap of the caller's object threw: its message may quote a value
    const why = err instanceof Unserialisable ? err.message : 'reading it threw (a getter, toJSON or proxy trap)';
    throw new HopError('HOP_PAYLOAD', `step ${step}: payload is not serialisable to JSON: ${why}; nothing was sent`);
  }
  if (text === undefined) throw new HopError('HOP_PAYLOAD', `step ${step}: payload is not serialisable to JSON: it is undefined, a function or a symbol; nothing was sent`);
  return text;
}
