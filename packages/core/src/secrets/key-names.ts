/**
 * Rules for credentials named by their key (`HEROKU_API_KEY=<uuid>`, `ddAppKey: "<hex>"`): they
 * have no keywords of their own. A few credential words are the scanner's keywords for all of
 * them; at a hit, the key around it is read back to its start, split into words, and the rules
 * whose provider word begins one of those words are tried there. Hundreds of provider names thus
 * cost the pre-filter nothing (a Teddy bucket holds few prefixes before it passes common text).
 */

/**
 * The keywords of `PAT` as the last word of a key (a personal access token: `GITLAB_PAT=`,
 * `azureDevOpsPat = "`, `"githubPat": "`, `--gitea-pat v`): `pat` and what an assignment begins
 * with, a setter's call (`builder.giteaPat("`), Hadoop's `<name>fs.gitea.pat</name>`, C's `GITEA_PAT[] =` or a
 * line break (Kubernetes' `- name: GITEA_PAT` before its `value:`). Not
 * `pat` alone, which begins every `path`, `pattern` and `patch`.
 */
export const PAT_KEY_WORDS: readonly string[] = ['pat"', "pat'", 'pat=', 'pat:', 'pat ', 'pat\\', 'pat>', 'pat<', 'pat(', 'pat[', 'pat\n', 'pat\r'];

/**
 * The credential words whose hits send the key they stand in to the key-named rules: the generic
 * rule's words (their hits cost nothing more), `_key`, `login`, `_pat` and `pat` before an assignment (PAT_KEY_WORDS), and `key` where a key
 * ends with it (`herokuKey"`, `appKey =`, `hapikey=`, Hadoop's `heroku.api.key</name>`, a setter's
 * `setDdAppKey("`, C's `char ddAppKey[] =`). Not `key` alone: it is in every `keys`,
 * `keyof` and `monkey`, and as a short Teddy prefix it passes a sixth more of ordinary text.
 */
export const CREDENTIAL_KEY_WORDS: readonly string[] = [
  'token', 'secret', 'pass', 'pwd', 'credential', 'api_key', 'api-key', 'apikey', 'access_key', 'accesskey',
  'private_key', 'privatekey', 'auth_key', 'authkey', '_key', 'login', '_pat', 'api.key',
  'key"', "key'", 'key:', 'key=', 'key ', 'key>', 'key\\', 'key<', 'key(',
  // (C's array of chars, `char ddAppKey[] = "v"`)
  'key[',
  // (a camelCase key ending in `Pat`, `azureDevOpsPat = "`, which `_pat` misses)
  ...PAT_KEY_WORDS,
];

/** How far back from a credential word a key is read. */
const KEY_REACH = 64;
const KEY_CHAR = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-') KEY_CHAR[ch.charCodeAt(0)] = 1;

/** A provider name as it is looked up: lowercase, without separators (`dd_api` → `ddapi`). */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A provider name as a regex source that matches it as keys write it: `dd[_-]?api` (any case). */
export function namePattern(name: string): string {
  const words = name.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  return words.map((w) => [...w].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('')).join('[_.-]?');
}

const isSpace = (c: number): boolean => c === 32 || c === 9;
/** (charCodeAt past the end is NaN: every table read checks the range first) */
export const isKeyChar = (c: number): boolean => c < 128 && KEY_CHAR[c] === 1;
const isTypeChar = (c: number): boolean => isKeyChar(c) || c === 58 || c === 60 || c === 62 || c === 91 || c === 93 || c === 42 || c === 38 || c === 39 || c === 63;

/**
 * True when the key holding the credential word at `pos` is followed by what an assignment
 * begins with (see ASSIGN_TAIL): an operator after an optional closing quote, `]` and spaces, a
 * type then `=` (`var key string =`), a line break (a quoted value on the next line, a Kubernetes
 * `value:`), `</` (Hadoop's `</name>`), a brace (an HCL variable, a C# property), `||`, `??` or `?:`
 * before a literal default (`process.env.KEY ?? "v"`), a call's
 * quoted argument (`setApiKey("`), `)` after a quote (`ENV.fetch('KEY') {`), ` to ` after a quote
 * (Kotlin), or a value after a space when the key is a CONSTANT_NAME or a flag (`ENV KEY v`,
 * `--key v`). Most credential words in code are in no assignment (`Object.keys(x)`, `keyof T`,
 * `getToken()`).
 */
export function keyIsAssigned(text: string, pos: number): boolean {
  let e = pos;
  const n = text.length;
  while (e < n && e - pos < 40 && isKeyChar(text.charCodeAt(e))) e++;
  const keyEnd = e;
  while (e < n && text.charCodeAt(e) === 92) e++; // an escaped closing quote
  const q = text.charCodeAt(e);
  const quoted = q === 34 || q === 39 || q === 96;
  if (quoted) e++;
  if (text.charCodeAt(e) === 93) e++;
  else if (text.charCodeAt(e) === 91) {
    // C's array of chars: `char API_KEY[] = "v"`, `char api_key[33] = "v"`
    let j = e + 1;
    while (j < n && j - e <= 5 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    if (text.charCodeAt(j) === 93) e = j + 1;
  }
  const c0 = text.charCodeAt(e);
  if (c0 === 62) return true; // <key>value (an XML element)
  if (c0 === 60) return text.charCodeAt(e + 1) === 47; // <name>key</name> <value>
  if (c0 === 40) return callWithString(text, e + 1); // setApiKey("v")
  if (c0 === 41) return quoted; // ENV.fetch('KEY') { 'v' }
  for (let k = 0; k < 4 && isSpace(text.charCodeAt(e)); k++) e++;
  const c = text.charCodeAt(e);
  const next = text.charCodeAt(e + 1);
  if (c === 61 || c === 58 || c === 44 || c === 10 || c === 13) return true; // = : , line break
  if (c === 123) return quoted || braceGet(text, e + 1); // variable "key" {, Key { get; set; } =
  if ((c === 63 || c === 43 || c === 46) && next === 61) return true; // ?= += .=
  if ((c === 124 && next === 124) || (c === 60 && next === 45)) return true; // ||= <-, and a fallback: `process.env.KEY || "v"`
  if (c === 63 && (next === 63 || next === 58)) return true; // `process.env.KEY ?? "v"`, PHP's `getenv('KEY') ?: 'v'`
  if (!isSpace(text.charCodeAt(e - 1))) return false;
  if (quoted && c === 116 && next === 111 && isSpace(text.charCodeAt(e + 2))) return true; // "key" to "v"
  if (!isKeyChar(c) && c !== 34 && c !== 39 && c !== 92) return false;
  if (!quoted && spacedKey(text, pos, keyEnd)) return true; // ENV KEY v, --key v
  if (setByCli(text, keyStart(text, pos))) return true; // aws configure set key v, dotnet user-secrets set "Key" "v"
  if (!isKeyChar(c)) return false;
  // a type between name and `=`
  for (let k = 0; k < 40 && e < n && isTypeChar(text.charCodeAt(e)); k++) e++;
  for (let k = 0; k < 4 && isSpace(text.charCodeAt(e)); k++) e++;
  return text.charCodeAt(e) === 61;
}

/** Where the key holding `pos` starts: read back over key characters, at most KEY_REACH (64). */
export function keyStart(text: string, pos: number): number {
  let s = pos;
  while (s > 0 && pos - s < KEY_REACH && isKeyChar(text.charCodeAt(s - 1))) s--;
  return s;
}

/**
 * The key starting at `keyStart` is set by a CLI's setter, which takes its value after a space:
 * `aws configure set KEY V`, `npm config set //registry/:KEY V`, `gh config set KEY V`,
 * `dotnet user-secrets set "Section:KEY" "V"` (a section or a registry may stand before the key).
 * Read back by hand, allocating nothing: it is asked for most spaced keys.
 */
export function setByCli(text: string, keyStart: number): boolean {
  let j = keyStart;
  // the key's own start: a section, a registry (`//npm.pkg.github.com/:`)
  for (let k = 0; k < 128 && j > 0 && !isSpaceOrQuoteOrEquals(text.charCodeAt(j - 1)); k++) j--;
  const q = text.charCodeAt(j - 1);
  if (q === 34 || q === 39) j--;
  if (!isSpace(text.charCodeAt(j - 1))) return false;
  for (let k = 0; k < 4 && isSpace(text.charCodeAt(j - 1)); k++) j--;
  if (!text.startsWith('set', j - 3) || !isSpace(text.charCodeAt(j - 4))) return false;
  j -= 4;
  for (let k = 0; k < 4 && isSpace(text.charCodeAt(j - 1)); k++) j--;
  for (const setter of CLI_SETTERS) {
    const at = j - setter.length;
    if (at >= 0 && text.startsWith(setter, at) && !isKeyChar(text.charCodeAt(at - 1))) return true;
  }
  return false;
}

/** Commands whose `set` takes a key and then its value (`npm config set`, `aws configure set`, `dotnet user-secrets set`). */
const CLI_SETTERS = ['config', 'configure', 'user-secrets'];
const isSpaceOrQuoteOrEquals = (c: number): boolean => isSpace(c) || c === 34 || c === 39 || c === 61 || c === 10 || c === 13;

/** `get` after `{` and up to four spaces (a C# property). */
function braceGet(text: string, e: number): boolean {
  for (let k = 0; k < 4 && isSpace(text.charCodeAt(e)); k++) e++;
  return text.startsWith('get', e);
}

/** A quoted string opens after `(` and up to four spaces. */
function callWithString(text: string, e: number): boolean {
  for (let k = 0; k < 4 && isSpace(text.charCodeAt(e)); k++) e++;
  const c = text.charCodeAt(e);
  return c === 34 || c === 39 || c === 96 || c === 92;
}

/** The key ending at `end` (holding `pos`) is a flag (`--key`) or a CONSTANT_NAME (`A_KEY`). */
function spacedKey(text: string, pos: number, end: number): boolean {
  const s = keyStart(text, pos);
  if (text.charCodeAt(s) === 45) return true;
  if (PROPERTIES_KEY.test(text.slice(s, end)) && LINE_START_BEFORE.test(text.slice(Math.max(0, s - 24), s))) return true;
  let underscore = false;
  for (let i = s; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 95) underscore = true;
    else if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57))) return false;
  }
  return underscore;
}

/** A Java properties key: dotted words, starting with a letter (`db.password`, `mail.smtp.auth.token`). */
const PROPERTIES_KEY = /^[A-Za-z][\w-]*(?:\.[\w-]+)+$/;
/** A line's start before a key, also as JSON writes it: a line break or its escape (`\n`), or a string's opening quote. */
const LINE_START_BEFORE = /(?:^|[\r\n]|\\[nr]|(?:^|[\[{:,][ \t]{0,4})\\{0,3}")[ \t]{0,16}$/;
/** A line's end after a value, also as JSON writes it: a line break, its escape, or a string's closing quote. */
const LINE_END_AFTER = /^(?:$|[ \t]{0,16}(?:[\r\n]|\\{1,3}[nr]|\\{0,3}"(?=[\s,}\]]|$)))/;

/**
 * A Java .properties line, whose separator may be a space (`db.password v`): a dotted key that
 * starts its line (in a text or a JSON string) and a value that ends it. In prose a dotted name is
 * seldom a line's first word and its next word never the line's last.
 */
export function propertiesLine(text: string, keyStart: number, key: string, valueEnd: number): boolean {
  return PROPERTIES_KEY.test(key) && LINE_START_BEFORE.test(text.slice(Math.max(0, keyStart - 24), keyStart)) && LINE_END_AFTER.test(text.slice(valueEnd, valueEnd + 24));
}

/** A letter or digit as a trie edge: a-z 0-25 (either case), 0-9 26-35; -1 for anything else. */
function edge(c: number): number {
  if (c >= 97 && c <= 122) return c - 97;
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 48 && c <= 57) return c - 22;
  return -1;
}
const isSeparator = (c: number): boolean => c === 95 || c === 45 || c === 46;

/**
 * Rules by the provider names that begin a word of a key: a trie over the names' letters and
 * digits (separators and case do not count), walked from each word start of a key without
 * allocating.
 */
export class KeyNameIndex {
  /** Child of each trie node per edge (36 per node), 0 for none; node 0 is the root. */
  private next = new Int32Array(36 * 64);
  private nodes = 1;
  /** Rules whose name ends at each node; `terminal` marks those nodes. */
  private readonly rulesAt = new Map<number, number[]>();
  private terminal = new Uint8Array(64);
  /** Word starts of the key being read. */
  private readonly starts = new Int32Array(KEY_REACH + 1);
  /** The last lookup's (rule, start of its name) pairs; `found` of them. */
  readonly named = new Int32Array(256);
  found = 0;

  add(name: string, rule: number): void {
    const n = normalizeName(name);
    if (n.length < 2) throw new Error(`key name "${name}" is shorter than two letters or digits`);
    let node = 0;
    for (let i = 0; i < n.length; i++) {
      const e = edge(n.charCodeAt(i));
      let child = this.next[node * 36 + e]!;
      if (child === 0) {
        child = this.nodes++;
        if (this.nodes * 36 > this.next.length) {
          const grown = new Int32Array(this.next.length * 2);
          grown.set(this.next);
          this.next = grown;
          const marks = new Uint8Array(this.terminal.length * 2);
          marks.set(this.terminal);
          this.terminal = marks;
        }
        this.next[node * 36 + e] = child;
      }
      node = child;
    }
    this.rulesAt.set(node, [...(this.rulesAt.get(node) ?? []), rule]);
    this.terminal[node] = 1;
  }

  get size(): number {
    return this.rulesAt.size;
  }

  /**
   * The rules named in the key that ends at `pos` (a credential word's hit), as (rule, start of
   * the name) pairs in `named` (`found` of them): every provider name that begins at a word start
   * before the credential word and ends at a word end (names may span words: `dd_api`, `x-aio`).
   * Words are split at `_`, `-`, `.` and at a lowercase letter or digit followed by an uppercase
   * one.
   */
  lookup(text: string, pos: number): number {
    this.found = 0;
    let s = pos;
    while (s > 0 && pos - s < KEY_REACH && isKeyChar(text.charCodeAt(s - 1))) s--;
    // A JVM system property (`-Dsonar.login=…`): the D is the flag's, not the key's.
    if (text.charCodeAt(s) === 45 && text.charCodeAt(s + 1) === 68) s += 2;
    let words = 0;
    let prev = 95; // (the key's first character begins a word)
    for (let i = s; i < pos; i++) {
      const c = text.charCodeAt(i);
      if (!isSeparator(c)) {
        const camel = c >= 65 && c <= 90 && ((prev >= 97 && prev <= 122) || (prev >= 48 && prev <= 57));
        // (a word whose first letter begins no name is not walked)
        if ((isSeparator(prev) || camel) && this.next[edge(c)]! !== 0) this.starts[words++] = i;
      }
      prev = c;
    }
    for (let w = 0; w < words; w++) {
      let node = 0;
      const start = this.starts[w]!;
      for (let i = start; i < pos; i++) {
        const c = text.charCodeAt(i);
        if (isSeparator(c)) continue;
        const e = edge(c);
        node = e < 0 ? 0 : this.next[node * 36 + e]!;
        if (node === 0) break;
        if (this.terminal[node] !== 1) continue;
        // the name ends at a word end: a separator, the credential word, or a camelCase boundary
        const after = text.charCodeAt(i + 1);
        const wordEnd = i + 1 === pos || isSeparator(after) || (after >= 65 && after <= 90 && !(c >= 65 && c <= 90));
        if (!wordEnd) continue;
        for (const r of this.rulesAt.get(node)!) {
          if (this.found * 2 + 2 > this.named.length) return this.found;
          this.named[this.found * 2] = r;
          this.named[this.found * 2 + 1] = start;
          this.found++;
        }
      }
    }
    return this.found;
  }
}
