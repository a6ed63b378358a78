import { formatPath, leafName } from './flatten.js';
import { defaultSecretDetector, findInName, redactionMarker, redactName } from './secrets/index.js';
import type { PathSegment, SecretDetector } from './types.js';

/** Rules of the credentials in names ({@link findInName}), by detector and name: agents repeat their tools and keys. Bounded. */
const NAME_RULES = new WeakMap<SecretDetector, Map<string, string | null>>();
const NAME_RULES_LIMIT = 65_536;

/** The rule of the (first) credential in a name — a tool's name, a key path — remembered per detector. */
export function nameRule(name: string, detector: SecretDetector): string | undefined {
  let memo = NAME_RULES.get(detector);
  if (memo === undefined) NAME_RULES.set(detector, (memo = new Map()));
  let rule = memo.get(name);
  if (rule === undefined) {
    if (memo.size >= NAME_RULES_LIMIT) memo.clear();
    rule = findInName(name, detector)?.ruleId ?? null;
    memo.set(name, rule);
  }
  return rule ?? undefined;
}

/** A key path's object keys shown as markers: position in the path and the rule that hid it. */
export type HiddenKey = { at: number; rule: string };

/** {@link splitCredentialKeys} by detector and key path as formatted (one path, one formatted key): agents repeat their keys. Bounded. */
const SPLIT_KEYS = new WeakMap<SecretDetector, Map<string, HiddenKey[] | null>>();

/** {@link splitCredentialKeys} of a leaf's `path`, remembered by its formatted `key`. */
export function splitCredentialKeysOf(key: string, path: readonly PathSegment[], detector: SecretDetector): HiddenKey[] | undefined {
  let memo = SPLIT_KEYS.get(detector);
  if (memo === undefined) SPLIT_KEYS.set(detector, (memo = new Map()));
  let split = memo.get(key);
  if (split === undefined) {
    if (memo.size >= NAME_RULES_LIMIT) memo.clear();
    split = splitCredentialKeys(path, detector) ?? null;
    memo.set(key, split);
  }
  return split ?? undefined;
}

/** The longest run of joined keys looked at: longer than any credential a rule matches (a PEM key included). */
const MAX_JOINED_KEYS = 16_384;
/** The most keys joined into one run: twice the flattening depth (a key path is no deeper), and what bounds a walker of deeper values (the hop's payload, 512 levels) to a few joins a key. */
const MAX_JOINED_RUN_KEYS = 64;
/** Findings looked for in one run of joined keys. */
const MAX_FINDINGS = 16;

/**
 * The object keys on `path` that hold a credential only together: a token split across nested
 * keys (`{"ghp_Qz7K…": {"p2Lm…": 1}}`) is in no one key, and a path shown as `ghp_Qz7K….p2Lm…`
 * would carry it whole. Each run of consecutive keys is joined (indexes between them skipped, as
 * an agent cannot put text there) and a credential found across a boundary hides every key it
 * overlaps. A credential inside one key is left to the name's own redaction.
 */
export function splitCredentialKeys(path: readonly PathSegment[], detector: SecretDetector = defaultSecretDetector): HiddenKey[] | undefined {
  return splitKeys(path, detector, false);
}

/**
 * {@link splitCredentialKeys} of the runs that end at the path's last key only: for a walker that
 * judged each shorter path already (the hop's payload), one key costs its depth, not its depth squared.
 */
export function splitCredentialKeysEndingLast(path: readonly PathSegment[], detector: SecretDetector = defaultSecretDetector): HiddenKey[] | undefined {
  return splitKeys(path, detector, true);
}

function splitKeys(path: readonly PathSegment[], detector: SecretDetector, lastOnly: boolean): HiddenKey[] | undefined {
  let keys = 0;
  for (const seg of path) if (typeof seg === 'string' && seg !== '') keys++;
  if (keys < 2) return undefined;
  const at: number[] = [];
  for (let i = 0; i < path.length; i++) if (typeof path[i] === 'string' && path[i] !== '') at.push(i);
  let hidden: Map<number, string> | undefined;
  for (let last = lastOnly ? at.length - 1 : 1; last < at.length; last++) {
    let joined = path[at[last]!] as string;
    for (let first = last - 1; first >= 0 && last - first < MAX_JOINED_RUN_KEYS; first--) {
      joined = (path[at[first]!] as string) + joined;
      if (joined.length > MAX_JOINED_KEYS) break;
      if (nameRule(joined, detector) === undefined) continue;
      for (const [pos, rule] of crossingFindings(joined, at.slice(first, last + 1), path, detector)) (hidden ??= new Map()).set(pos, rule);
    }
  }
  return hidden === undefined ? undefined : [...hidden].sort((a, b) => a[0] - b[0]).map(([pos, rule]) => ({ at: pos, rule }));
}

/** The positions of the keys (`positions`, joined into `joined`) each credential crossing a boundary between them overlaps. */
function crossingFindings(joined: string, positions: readonly number[], path: readonly PathSegment[], detector: SecretDetector): [number, string][] {
  const starts: number[] = [];
  let offset = 0;
  for (const pos of positions) {
    starts.push(offset);
    offset += (path[pos] as string).length;
  }
  const out: [number, string][] = [];
  let text = joined;
  for (let n = 0; n < MAX_FINDINGS; n++) {
    const f = findInName(text, detector);
    if (f === undefined) break;
    const over: number[] = [];
    for (let k = 0; k < positions.length; k++) {
      const end = k + 1 < starts.length ? starts[k + 1]! : joined.length;
      if (starts[k]! < f.end && end > f.start) over.push(positions[k]!);
    }
    if (over.length > 1) for (const pos of over) out.push([pos, f.ruleId]);
    // (blanked where it was found, so the next finding keeps its offsets)
    text = text.slice(0, f.start) + ' '.repeat(f.end - f.start) + text.slice(f.end);
  }
  return out;
}

/** The segments of a key path as `formatPath` writes it (`a.b`, `files[2]`, `headers["x-api-key"]`, `$`); undefined when it is not one. */
export function parseKeyPath(key: string): PathSegment[] | undefined {
  if (key === '$') return [];
  if (key === '') return undefined;
  const out: PathSegment[] = [];
  let i = 0;
  while (i < key.length) {
    const rest = key.slice(i);
    const m = (out.length === 0 ? /^[A-Za-z_$][A-Za-z0-9_$]*/ : /^\.[A-Za-z_$][A-Za-z0-9_$]*/).exec(rest) ?? /^\[(?:\d+|"(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (m === null) return undefined;
    const token = m[0];
    if (token.startsWith('[')) {
      const inner = token.slice(1, -1);
      if (inner.startsWith('"')) {
        try {
          out.push(JSON.parse(inner) as string);
        } catch {
          return undefined;
        }
      } else out.push(Number(inner));
    } else out.push(token.startsWith('.') ? token.slice(1) : token);
    i += token.length;
  }
  return out;
}

/** A key path and its last key as `formatPath` and `leafName` show them, with the keys at `hidden` as redaction markers. */
export function shownPath(path: readonly PathSegment[], hidden: readonly HiddenKey[]): { key: string; leaf: string } {
  const segments = [...path];
  for (const h of hidden) segments[h.at] = redactionMarker(h.rule);
  return { key: formatPath(segments), leaf: leafName(segments) };
}

/**
 * A key path from a trace (`a.b`, `files[2]`, `headers["x-api-key"]`) with every credential in it
 * replaced by its marker: in a key, glued into one ({@link redactName}), or split across nested
 * keys ({@link splitCredentialKeys}). What reports print for argument keys.
 */
export function redactKeyPath(key: string, detector: SecretDetector = defaultSecretDetector): string {
  const path = parseKeyPath(key);
  const split = path === undefined ? undefined : splitCredentialKeys(path, detector);
  return redactName(split === undefined ? key : shownPath(path!, split).key, detector);
}

/** The detector names are judged by, for a detector made by {@link valuesScannedDetector}. */
const NAME_DETECTORS = new WeakMap<SecretDetector, SecretDetector>();

/**
 * A detector for a call whose values were all scanned as one text and held no credential (a
 * foreign trace's argument blob): it finds nothing in a value, while the call's names — its tool,
 * its keys, keys holding a credential only together ({@link splitCredentialKeys}), which the
 * blob's text does not show joined — are still judged by `detector`.
 */
export function valuesScannedDetector(detector: SecretDetector): SecretDetector {
  const scanned: SecretDetector = { find: () => undefined, findAll: () => [] };
  NAME_DETECTORS.set(scanned, detector);
  return scanned;
}

/** The detector a call's names are judged by under `detector`. */
export function nameDetectorOf(detector: SecretDetector): SecretDetector {
  return NAME_DETECTORS.get(detector) ?? detector;
}

/** Names {@link shownName} was given, as shown: apart from the names classification judges (ids that never repeat would crowd those out). Bounded. */
const SHOWN_NAMES = new Map<string, string>();
const SHOWN_NAMES_LIMIT = 4096;

/**
 * A name the application gives (a call's, run's or conversation's id, an agent's name, an error
 * class's) as it may be shown: any credential in it, glued too, as its marker. Remembered for the
 * names that repeat (a run id on every call); an id that never repeats costs one look (~2 µs).
 */
export function shownName(name: string): string {
  let shown = SHOWN_NAMES.get(name);
  if (shown === undefined) {
    if (SHOWN_NAMES.size >= SHOWN_NAMES_LIMIT) SHOWN_NAMES.clear();
    shown = findInName(name) === undefined ? name : redactName(name);
    SHOWN_NAMES.set(name, shown);
  }
  return shown;
}
