/**
 * Typed access to the labelled corpus generator in fixtures/secrets/ (plain ESM so scripts and
 * tests share it), and the scoring used by the secret benchmark and its test.
 */
import type { SecretDetector } from '../types.js';

export interface PositiveSample {
  family: string;
  kind: string;
  context: string;
  text: string;
  /** Span that must be reported (the encoded form when the context encodes the value). */
  start: number;
  end: number;
  /** The raw secret. */
  value: string;
}

export interface NegativeSample {
  family: string;
  text: string;
  path?: string;
}

/** Random draws a credential kind is made from (the generator's `gen`). */
export interface Draws {
  s(alphabet: string, n: number): string;
  pick<T>(xs: readonly T[]): T;
  int(lo: number, hi: number): number;
}

/** A credential kind of the generator: its family, how a value is made, and where its secret is. */
export interface CredentialKind {
  family: string;
  kind: string;
  /** The env name it usually travels under. */
  env: string;
  /** false: recognisable only after a key name. */
  bare?: boolean;
  multiline?: boolean;
  /** A value with no format of its own (passwords, bearer tokens of any shape). */
  freeForm?: boolean;
  make(g: Draws): string;
  /** [start, end) of the secret inside a value (default: all of it). */
  span?(value: string): [number, number];
}

/** The package-text negatives: the committed list's files as installed, and those left out. */
export interface PackageNegatives {
  files: NegativeSample[];
  /** Files of the list read for. */
  listed: number;
  /** Listed files not installed. */
  missing: number;
  /** Listed files whose text is not the listed one (another version). */
  changed: number;
}

interface CorpusModule {
  KINDS: readonly CredentialKind[];
  prng(seed: number): () => number;
  gen(rand: () => number): Draws;
  generatePositives(seed?: number, perContext?: number): PositiveSample[];
  generateNegatives(seed?: number, perClass?: number): NegativeSample[];
  readPackageNegatives(nodeModules: string, opts?: { maxFiles?: number; list?: string | URL }): PackageNegatives;
  packageFileHash(text: string): string;
  readHandSets(): { positives: PositiveSample[]; negatives: NegativeSample[] };
  toArgumentValues(files: NegativeSample[], seed?: number): NegativeSample[];
}

/** Repository root, from this file's location (src/bench or dist/bench of packages/core). */
export const REPO_ROOT = new URL('../../../../', import.meta.url);

export async function loadCorpusModule(): Promise<CorpusModule> {
  const url = new URL('fixtures/secrets/generate-corpus.mjs', REPO_ROOT);
  return (await import(url.href)) as CorpusModule;
}

export interface FamilyScore {
  family: string;
  positives: number;
  detected: number;
  /** Positives whose raw or encoded value survives redaction. */
  leaked: number;
  /** Negatives on which a rule of this family fired. */
  falsePositives: number;
}

export interface Score {
  families: FamilyScore[];
  recall: number;
  negatives: number;
  /** Negatives with any finding. */
  flaggedNegatives: number;
  fpRate: number;
  /** Up to 20 examples of missed positives and flagged negatives, never with the value. */
  misses: string[];
  falseHits: string[];
}

/** Family of a rule id, from the rule list (falls back to the id). */
export type FamilyOf = (ruleId: string) => string;

/** Score a detector on labelled samples: recall per family, false-positive rate, leaks after redaction. */
export function scoreDetector(
  detector: SecretDetector,
  redact: (text: string) => string,
  positives: readonly PositiveSample[],
  negatives: readonly NegativeSample[],
  familyOf: FamilyOf,
): Score {
  const fam = new Map<string, FamilyScore>();
  const get = (family: string): FamilyScore => {
    let f = fam.get(family);
    if (!f) fam.set(family, (f = { family, positives: 0, detected: 0, leaked: 0, falsePositives: 0 }));
    return f;
  };
  const misses: string[] = [];
  const falseHits: string[] = [];
  let detected = 0;
  for (const p of positives) {
    const f = get(p.family);
    f.positives++;
    const hit = detector.findAll(p.text).some((x) => x.start < p.end && p.start < x.end);
    if (hit) {
      f.detected++;
      detected++;
    } else if (misses.length < 20) misses.push(`${p.family}/${p.kind} in ${p.context}`);
    const red = redact(p.text);
    const encoded = p.text.slice(p.start, p.end);
    if ((p.value.length >= 8 && red.includes(p.value)) || (encoded.length >= 8 && red.includes(encoded))) f.leaked++;
  }
  let flagged = 0;
  for (const n of negatives) {
    const found = detector.findAll(n.text);
    if (found.length === 0) continue;
    flagged++;
    for (const id of new Set(found.map((x) => familyOf(x.ruleId)))) get(id).falsePositives++;
    if (falseHits.length < 20) falseHits.push(`${n.family}${n.path ? ` ${n.path}` : ''}: ${[...new Set(found.map((x) => x.ruleId))].join(',')}`);
  }
  return {
    families: [...fam.values()].sort((a, b) => a.family.localeCompare(b.family)),
    recall: positives.length === 0 ? 1 : detected / positives.length,
    negatives: negatives.length,
    flaggedNegatives: flagged,
    fpRate: negatives.length === 0 ? 0 : flagged / negatives.length,
    misses,
    falseHits,
  };
}

/** Adversarial inputs for the worst-case time per KB: long runs, repeated keywords, nested encodings. */
export function adversarialInputs(bytes: number): { name: string; text: string }[] {
  const rep = (unit: string) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
  let nested = 'password=' + 'Zq8'.repeat(6) + '!x';
  for (let i = 0; i < 6; i++) nested = i % 2 === 0 ? Buffer.from(nested).toString('base64') : encodeURIComponent(`k=${nested}`);
  const nestedBlock = `token: ${nested}\n`;
  return [
    { name: 'one char (a)', text: rep('a') },
    { name: 'one char (A)', text: rep('A') },
    { name: 'one char (=)', text: rep('=') },
    { name: 'one char (-)', text: rep('-') },
    { name: 'one char (%)', text: rep('%') },
    { name: 'one char (\\)', text: rep('\\') },
    { name: 'digits', text: rep('1234567890') },
    { name: 'base64 run', text: rep('QWxhZGRpbjpvcGVuIHNlc2FtZQ') },
    { name: 'hex of text, one run', text: rep(Buffer.from('password: the quick brown fox ').toString('hex')) },
    { name: 'hex of text, xxd lines', text: rep(`${Buffer.from('password=Zq8Zq8Zq8!x the quick brown f').toString('hex').slice(0, 60)}\n`) },
    // many short runs, each decoded and scanned on its own
    { name: 'hex of text, short runs', text: rep(`${Buffer.from('password=Zq8Zq8Zq').toString('hex')} `) },
    { name: 'url-escapes', text: rep('%41') },
    { name: 'json escapes', text: rep('\\"') },
    { name: 'unicode escapes', text: rep('\\u0041') },
    { name: 'octal escapes', text: rep('\\101\\060') },
    { name: 'keyword password=', text: rep('password=') },
    { name: 'keyword token: ', text: rep('token: ') },
    { name: 'prefixes ghp_', text: rep('ghp_') },
    { name: 'prefix AKIA', text: rep('AKIA') },
    { name: 'eyJ run', text: rep('eyJ') },
    { name: 'eyJ dots', text: rep('eyJabcdefghij.') },
    { name: 'scheme ://', text: rep('://') },
    { name: 'url user:pass', text: rep('://a:b') },
    { name: 'BEGIN lines', text: rep('-----BEGIN RSA PRIVATE KEY-----') },
    { name: 'BEGIN + body', text: '-----BEGIN PRIVATE KEY-----\n' + rep('MIIE') },
    { name: 'Bearer run', text: rep('Bearer ') },
    { name: 'Basic run', text: rep('Basic QQ') },
    { name: 'telegram :AA', text: rep('12345678:AA') },
    { name: 'azure Q~', text: rep('abc8Q~') },
    { name: 'sk- run', text: rep('sk-') },
    { name: 'nested encodings', text: rep(nestedBlock) },
    { name: 'json-in-string', text: rep('{\\"password\\":\\"Zq8Zq8Zq8!x\\"},') },
    // characters a reader does not see, or reads as ASCII (decodeHiddenCharacters): the whole text decoded as one layer
    { name: 'zero-width between letters', text: rep('ab\u200b') },
    { name: 'zero-width inside password=', text: rep('pass\u200bword=Zq8\u200dZq8!x ') },
    { name: 'tag characters', text: rep([...'token: '].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')) },
    { name: 'escaped zero-width characters', text: rep('a\\u200b') },
    { name: 'variation selectors', text: rep('\u{1F600}\ufe0f\u{e0151}\u{e0152}\u{e0153}\u{e0154}\u{e0155}\u{e0156}\u{e0157}\u{e0158}') },
    { name: 'fullwidth keywords', text: rep('\uff54\uff4f\uff4b\uff45\uff4e\uff1a ') },
    { name: 'CJK text', text: rep('\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3001') },
    // characters spelled out (decodeSpelledCharacters): windows open at each keyword hit that spells something
    { name: 'character references', text: rep('&#103;&#x68;') },
    { name: 'references that spell nothing', text: rep('don&#39;t &#8212; ') },
    { name: 'lists of codes', text: rep('bytes([103, 104, 112, 95, 97, 98, 99, 100]) ') },
    { name: 'one list of codes', text: 'String.fromCharCode(' + rep('103, ') },
    { name: 'chr() chain', text: rep('chr(103)+') },
    { name: 'joined literals', text: rep('"ab" + ') },
    { name: 'fromCharCode, no list', text: rep('fromCharCode ') },
    { name: 'escape + prefix', text: rep('\\nghp_') },
    { name: 'escape + prefix, apart', text: rep(`\\nghp_${'ab '.repeat(400)}`) },
    { name: 'escape + base64', text: rep('\\nQWxhZGRpbjpvcGVuIHNlc2FtZQ') },
    { name: 'escape + Q~', text: rep('\\tabc8Q~') },
    { name: 'mixed keywords', text: rep('api_key=secret_token:password ') },
    // one run that starts with a token prefix and holds a keyword every five characters (the
    // run keyword's hit is found at the run's end and sorted back over all of them)
    { name: 'prefix, keyword run', text: 'ghp_' + rep('token') },
    // Discord ids in base64 (run keywords), each followed by a token that fails its last part
    { name: 'discord id runs', text: rep('MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.MTIzNDU2Nzg5MDEy.') },
    // a provider name in every key and no value (key-named rules read every key back)
    { name: 'empty provider keys', text: rep('HEROKU_API_KEY=\nDD_API_KEY=\nALGOLIA_ADMIN_KEY=\n') },
    // program names with no password flag (each one reads the rest of its command)
    { name: 'program names', text: rep('mysql zip 7z a sshpass ') },
    // commands whose rest is runs of escaped backslashes, odd and even (each backslash asks whether an escaped line break starts there)
    { name: 'commands, backslash runs', text: rep(`mysql gh secret set X ${'\\\\'.repeat(20)}\\\\\\r `) },
    // a SQL password's quote after whitespace (the statement is read back from it)
    { name: "password ' after spaces", text: rep(`${' '.repeat(200)}password '`) },
    // one run of mixed case and digits with a _ (glued prefixes are looked for everywhere in it)
    // and one of separators (prefixes are looked for after each)
    { name: 'glued run with _', text: rep('aB3_') },
    // token-shaped runs glued on their right by `_` (each tried again with a `_` after it, then
    // judged: none random enough), and a proven prefix whose body holds `_` and fails its pattern
    // (tried again without its right boundary)
    { name: 'tokens glued by _', text: rep(`-AKIAAAAAAAAAAAAAAAAA_v2 ghp_${'aB'.repeat(18)}_v2 xoxb-${'1'.repeat(12)}_old `) },
    { name: 'proven prefix, _ body', text: rep(` ops_eyJ${'aB3_'.repeat(1100)}`) },
    // the same glued on both sides within its length (its proof fails, then cut back at `_`s), and
    // prefixes whose body may hold `_` glued on their right (tried with a `_` after, judged random or not)
    { name: 'proven prefix, _ body, glued', text: rep(`deploy_ops_eyJ${'aB3_'.repeat(900)}_v2 x_sk-proj-${'aB3_'.repeat(60)} `) },
    { name: 'prefixes, _ body, glued', text: rep(`AIza${'ab_'.repeat(12)} glpat-${'ab_c'.repeat(17)}_x tfp_${'Ab3_'.repeat(11)}_y `) },
    // one run of two prefixes glued by `_` again and again: the scan appends every hit of one
    // after every hit of the other (ordered by insertion, quadratic)
    { name: 'two prefixes, one run', text: rep('xAKIAQ3EGRWZ7NPL4XBMV_ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5_') },
    { name: 'separator run', text: rep('a-b/c+') },
    // curl's cookie flag again and again (each reads the command back to curl), cookies without a session one,
    // kubectl literals and secret setters with no value (each reads its command back)
    { name: 'curl -b runs', text: 'curl ' + rep('-b ') },
    { name: 'cookie pairs', text: rep('Cookie: a=b; ') },
    { name: 'secret setters', text: 'kubectl create secret generic x ' + rep('--from-literal=a=b gh secret set X -b ') },
    // a finding on every line, JSON-escaped (catch-all readings were compared pairwise: quadratic)
    { name: 'escaped DB_PASSWORD= lines', text: JSON.stringify(rep('DB_PASSWORD=Zq8mN3pX7vR2kL9wT4yB\n')) },
  ];
}
