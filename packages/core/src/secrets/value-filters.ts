/**
 * Shared checks on a candidate secret value: entropy, identifiers and code, well-known
 * non-secret shapes (UUIDs, hex digests). Placeholders are judged in placeholders.ts.
 */

/**
 * Character counts for shannonEntropy, reused: a fresh typed array this size lives outside the
 * heap and costs more to allocate than the whole computation. Zeroed again after every use.
 */
const asciiCounts = new Uint32Array(128);
/** The distinct characters of the value being counted, in order of first occurrence. */
const asciiDistinct = new Uint8Array(128);
/** k * log2(k) for the counts short values have. */
const K_LOG_K = Float64Array.from({ length: 257 }, (_, k) => (k === 0 ? 0 : k * Math.log2(k)));
/** k log2 k, the term of a character seen k times in shannonEntropy's sum. */
export const kLogK = (k: number): number => (k < K_LOG_K.length ? K_LOG_K[k]! : k * Math.log2(k));

/** Shannon entropy in bits per character: log2(n) - sum(k log2 k) / n over character counts k. */
export function shannonEntropy(value: string): number {
  const n = value.length;
  if (n === 0) return 0;
  // Counted by the low seven bits, which is exact for ASCII; any other character (seen in
  // `high`) sends the value to the general count below, after the table is cleared.
  const counts = asciiCounts;
  const distinct = asciiDistinct;
  let high = 0;
  let nd = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    high |= c;
    if (counts[c & 127]!++ === 0) distinct[nd++] = c & 127;
  }
  let sum = 0;
  // Each distinct character once: read its count, then clear it so the next call starts at zero.
  for (let j = 0; j < nd; j++) {
    const c = distinct[j]!;
    sum += kLogK(counts[c]!);
    counts[c] = 0;
  }
  if (high >= 128) {
    const all = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      all.set(c, (all.get(c) ?? 0) + 1);
    }
    sum = 0;
    for (const k of all.values()) sum += kLogK(k);
  }
  return entropyFromSum(n, sum);
}

/** Shannon entropy of `n` characters from the sum of k log2 k over their counts k. */
export function entropyFromSum(n: number, sum: number): number {
  return Math.max(0, Math.log2(n) - sum / n);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$/i;

/** A UUID, in any case. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A git SHA or hex digest (MD5, SHA-1, SHA-256, SHA-512): only hex, digest length. */
export function isHexDigest(value: string): boolean {
  const n = value.length;
  return (n === 32 || n === 40 || n === 64 || n === 96 || n === 128) && HEX.test(value);
}

// Shapes of code and identifiers (looksLikeCode), with the characters each one needs.
const DOT = 1;
const COLON = 2;
const NAME_SEPARATOR = 4; // _ : . / @ -
const OPERATOR_CHAR = 8; // | & = ? ! + - ) .
const OTHER = 16;
const CODE_PUNCT = new Uint8Array(128);
for (const ch of '_:./@-') CODE_PUNCT[ch.charCodeAt(0)]! |= NAME_SEPARATOR;
for (const ch of '|&=?!+-).') CODE_PUNCT[ch.charCodeAt(0)]! |= OPERATOR_CHAR;
CODE_PUNCT[46]! |= DOT;
CODE_PUNCT[58]! |= COLON;
for (let c = 0; c < 128; c++) if (CODE_PUNCT[c] === 0 && !/[A-Za-z0-9]/.test(String.fromCharCode(c))) CODE_PUNCT[c] = OTHER;
/** First characters of this, self, new, await, typeof, void. */
const STARTS_EXPRESSION_WORD = new Set([...'tsnav'].map((ch) => ch.charCodeAt(0)));
/**
 * A name of code: a letter after any `_` or `$` (`token`, `_id`, `$el`), or `_` or `$` alone
 * (lodash, jQuery). `_7` is none: a password holds `._` and a digit by chance (`LTEjwufmt2ily._7`).
 */
const NAME = String.raw`(?:[_$]*[A-Za-z][\w$]*|[_$])`;
const MEMBER_EXPRESSION = new RegExp(String.raw`^${NAME}(?:\.${NAME})+$`);
const SEPARATED_NAME = /^[A-Za-z]+(?:[_:./@-][A-Za-z]+)+$/; // snake/kebab/CONSTANT names, a:b.c
/** The same with digits closing its words (`SOCKS5_NO_AUTH`, `sha256-digest`, `v2.api`). */
const SEPARATED_NAME_DIGITS = /^[A-Za-z]+\d{0,4}(?:[_:./@-][A-Za-z]+\d{0,4})+$/;
/** A negated name, member or call (`!password`, `!this.token`, `!!cfg.key(`), not a password that begins with `!`. */
const EXPRESSION = new RegExp(String.raw`^!{1,2}${NAME}(?:\.${NAME})*(?:\(|$)|^(?:this|self|new|await|typeof|void)\b|\bthis\.`);
const WORD_OR_CAMEL = /^[a-z]+$|^[A-Z]+$|^[A-Z]?[a-z]+(?:[A-Z][a-z]*)*$/;
/** camelCase after an acronym, or with one inside (`HTTPPasswordMgr`, `XMLHttpRequest`, `getURLFor`). */
const ACRONYM_CAMEL = /^[a-z]*(?:[A-Z]{1,6}[a-z]+)+[A-Z]{0,6}$/;
const LITERAL_WORD = /^(?:true|false|null|none|nil|undefined|required|optional|string|number|boolean)$/i;
/** camelCase or PascalCase words of two or more characters, digits among a word's small letters (`k8s`, `oauth2`, `utf8`). */
const CAMEL_WITH_DIGITS = /^(?:[a-z][a-z0-9]+|[A-Z][a-z0-9]+)(?:[A-Z][a-z0-9]+)+$/;
/** The share of a value's letters that are vowels (1 without letters, which no word rules out). */
function vowelShare(value: string): number {
  let letters = 0;
  let vowels = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i) | 32;
    if (c < 97 || c > 122) continue;
    letters++;
    if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) vowels++;
  }
  return letters === 0 ? 1 : vowels / letters;
}
/** Letters with the vowels of words (a name's run about two in five; random letters one in five). */
function namesVowels(value: string): boolean {
  return vowelShare(value) * 10 >= 3;
}
const NUMBER_LIKE = /^[\d.:+-]+$/; // numbers, versions, times
const PATH = /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)/;
/**
 * What a password holds and a path seldom does: `!`, `*`, `^`, `#`, a `~` past the first
 * character, `@` or `++` inside a word (not `/@scope`, `c++/`), or one segment alone that mixes
 * small letters, capitals and digits (`/D8mywB.I-jnQpNyk4`, not `/Users` or `/v1`).
 */
const PASSWORD_MARK = /[!*^#]|.~|[A-Za-z0-9]@|[A-Za-z0-9]\+\+[A-Za-z0-9]|^\/(?=[^/\\]*[a-z])(?=[^/\\]*[A-Z])(?=[^/\\]*\d)[^/\\]*$/;
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i; // URLs (the URL rule handles those)
// `--` only next to something that is not a letter or digit (i--, --i): inside a random token
// (abc--XYZ) it is not an operator.
const OPERATOR = /\|\||&&|=>|\?\.|!==|===|(?<![A-Za-z0-9])(?:--|\+\+)|(?:--|\+\+)(?![A-Za-z0-9])|\)\./;

/** An operand `!=` compares in code: a literal, a member chain, or a name made of words (`null`, `e.password`, `confirmPassword`). */
const NOT_EQUAL_LITERAL = /^(?:null|undefined|nil|None|NULL|true|false|True|False|\d+|''|"")$/;
/**
 * `a!=b` (not `!==`, an operator of code alone) is code when both sides are code's operands
 * (`password!=null`, `e.token!=t.token`): a password holds `!=` between random characters
 * (`EJA0!=7av4041`, `MclCpd!=WNdg`), whose sides are no names.
 */
function notEqualsIsCode(value: string): boolean {
  const parts = value.split('!=');
  return parts.length === 2 && parts.every(notEqualOperand);
}

/** One side of `!=` as code compares: a literal, a member chain, or a name with a vowel in five letters at least (words have more, `MclCpd` and `WNdg` none). */
function notEqualOperand(part: string): boolean {
  const operand = part.replace(/^[!(]+/, '').replace(/\)+$/, '');
  if (NOT_EQUAL_LITERAL.test(operand) || MEMBER_EXPRESSION.test(operand)) return true;
  return (WORD_OR_CAMEL.test(operand) || SEPARATED_NAME.test(operand)) && vowelShare(operand) * 5 >= 1;
}

/**
 * True when a value assigned to a secret-sounding key is code or an identifier, not a
 * credential: `getAccessToken`, `this.token`, `process.env.API_KEY`, `ACCESS_TOKEN_KEY`,
 * `e.password||""` (operators between names: operatorExpression), a path, a URL, a number, a
 * word. `operatorsAreCode`: false where operators are a password's characters, after a flag or a
 * keyword that says a password follows (isPasswordArgument): there `-pjmmo?.ujdow4` is a password,
 * though both sides of its `?.` are names (of 120,000 random values holding operators after `-p`,
 * `--password=` or `redis-cli -a`, 5,340 more are found with it false; in the generic rules, which
 * judge operators by their sides, findings are the same either way).
 */
export function looksLikeCode(value: string, operatorsAreCode = true): boolean {
  // A leading `_` or `$` marks a private or framework name (`_authKey`, `$password`): judged without it.
  let from = 0;
  while (from < value.length - 1 && (value.charCodeAt(from) === 95 || value.charCodeAt(from) === 36)) from++;
  if (from > 0) value = value.slice(from);
  // One pass over the characters decides which shapes are possible at all: a random credential
  // (letters and digits mixed) rules out nearly every one without running its regex.
  let letters = 0;
  let digits = 0;
  let punct = 0; // bits of CODE_PUNCT
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) letters++;
    else if (c >= 48 && c <= 57) digits++;
    else if (c < 128) punct |= CODE_PUNCT[c]!;
    else punct |= OTHER;
  }
  const onlyLetters = letters === value.length;
  const c0 = value.charCodeAt(0);
  // (scrambled case and digits, judged once and only for a value of a code shape)
  let mixed = -1;
  const random = (): boolean => (mixed < 0 ? (mixed = scrambled(value) ? 1 : 0) : mixed) === 1;
  // (TypeScript's non-null assertion ends a member expression: `process.env.API_KEY!`)
  if (punct & DOT && MEMBER_EXPRESSION.test(value.endsWith('!') ? value.slice(0, -1) : value) && !hasRandomSegment(value) && !random() && !hasRandomWords(value)) return true;
  if (punct & NAME_SEPARATOR && (digits === 0 ? SEPARATED_NAME : SEPARATED_NAME_DIGITS).test(value) && !hasUnpronounceablePart(value) && !random() && !hasRandomWords(value) && !humpBesideAt(value)) return true;
  if ((c0 === 33 || STARTS_EXPRESSION_WORD.has(c0) || punct & DOT) && EXPRESSION.test(value) && !random() && !hasRandomWords(value)) return true;
  if (onlyLetters && (WORD_OR_CAMEL.test(value) || ACRONYM_CAMEL.test(value) || LITERAL_WORD.test(value)) && !randomLetters(value) && !random()) return true;
  // a camelCase name whose words carry digits as names do (`k8sServiceAccountTokenProvider`, `oauth2ClientSecret`, `s3BucketName`)
  if (punct === 0 && digits > 0 && digits * 5 <= value.length && CAMEL_WITH_DIGITS.test(value) && namesVowels(value) && !hasRandomSegment(value) && !random()) return true;
  if (letters === 0 && NUMBER_LIKE.test(value)) return true;
  if (c0 === 47 && value.charCodeAt(1) === 94) return true; // a regular expression literal: /^Unexpected
  if ((c0 === 46 || c0 === 47 || c0 === 126 || value.charCodeAt(1) === 58) && PATH.test(value) && !PASSWORD_MARK.test(value) && !random()) return true;
  if (punct & COLON && URL_START.test(value)) return true;
  // (operators by their operands: names, numbers, short strings; a random password holds `++` before `~G.NV%U0`, or between random words)
  if (operatorsAreCode && punct & OPERATOR_CHAR && OPERATOR.test(value) && !hasRandomSegment(value) && operatorExpression(value)) return true;
  if (operatorsAreCode && punct & OPERATOR_CHAR && value.includes('!=') && notEqualsIsCode(value) && !random()) return true;
  return false;
}

/**
 * Letters and digits mixed the way random characters mix them, not the way names do: in a name
 * a capital begins a word of small letters, capitals run together only in an acronym
 * (`HTTPPasswordMgr`), and digits close a word (`sha256`, `utf8String`). Counted over every run
 * of letters and digits: a small letter alone beside other letters or digits, a digit run followed
 * by a letter, a run of two or more capitals beside small letters or digits (not a CONSTANT word). Three or more, and one per eight letters and digits:
 * `LYjrlN9gdUPfT`, `giiP7EXcZw`, `izIhfEcikVIUaelkn…`, not `IPv4Address` or `getAValue`.
 */
export function scrambled(value: string): boolean {
  const marks = scrambleMarks(value);
  if (marks < 3) return false;
  let alnum = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) alnum++;
  }
  return marks * 8 >= alnum;
}

/** The marks of randomness {@link scrambled} counts in `value`. */
export function scrambleMarks(value: string): number {
  let marks = 0;
  let run = 0; // 1 small, 2 capital, 3 digit, 0 none
  let runLength = 0;
  let prevRun = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 0;
    const kind = c >= 97 && c <= 122 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 48 && c <= 57 ? 3 : 0;
    if (kind === run) {
      runLength++;
      continue;
    }
    // a run ends
    if (run === 1 && runLength === 1 && (prevRun !== 0 || kind !== 0)) marks++;
    else if (run === 2 && runLength >= 2 && (prevRun !== 0 || kind !== 0)) marks++;
    else if (run === 3 && kind !== 0 && kind !== 3) marks++;
    prevRun = run;
    run = kind;
    runLength = 1;
  }
  return marks;
}

/** The runs of letters and digits either side of an `@`. */
const AT_SIDES = /([A-Za-z0-9]*)@([A-Za-z0-9]*)/g;
/** A camelCase hump: a capital after a small letter, or a capital before a capital and a small letter (`doYhvf`, `IkofCSdH`). */
const HUMP = /[a-z][A-Z]|[A-Z]{2}[a-z]/;
/**
 * A camelCase hump beside an `@`: an address or a version (`user@example.com`, `tjw@cs.Stanford.EDU`,
 * `kubelet@v0`) has none, a random password with an `@` nearly always one (`doYhvf@vaisAdgP5`). Of
 * 135,490 names of code read out of node_modules, one (`functionName@https`, a stack frame's text) has one.
 */
function humpBesideAt(value: string): boolean {
  if (!value.includes('@')) return false;
  for (const m of value.matchAll(AT_SIDES)) if (HUMP.test(m[1]!) || HUMP.test(m[2]!)) return true;
  return false;
}

/**
 * A run of letters and digits that reads as random rather than as a name: 16 or more
 * characters with digits in three or more separate places. Names carry digits in one run at
 * most (`sha256`, `apiV2`, `utf8`); base64 and random tokens scatter them. A Discord bot token
 * (`MTA5ODc2….GaBcDe.k7Qx…`) has the shape of a member expression, and a random token can
 * hold `--`, but their parts are of this kind.
 */
function hasRandomSegment(value: string): boolean {
  let length = 0;
  let digitRuns = 0;
  let prevDigit = false;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 46;
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) {
      if (length >= 16 && digitRuns >= 3) return true;
      length = 0;
      digitRuns = 0;
      prevDigit = false;
      continue;
    }
    length++;
    const digit = c >= 48 && c <= 57;
    if (digit && !prevDigit) digitRuns++;
    prevDigit = digit;
  }
  return false;
}

// Code's expressions, shared by looksLikeCode and the quoted generic rule.
/** A call's arguments or an index's items: names, numbers, strings, `k=v`, `*args`, a slice `1:`, a symbol `:db`, `i%n`. */
export const ARGUMENTS = String.raw`(?:\*{0,2}(?:[\w$.:'"%+-][\w$.:'"%=+-]*)?(?:,\*{0,2}(?:[\w$.:'"%+-][\w$.:'"%=+-]*)?)*)`;
/**
 * A call's arguments or an index, innermost, after a callee and not before a word (`f(x)`,
 * `a[1:]`, `g(*args)`, `h(k=v)`; not `Pass(word)123`), or an object literal among arguments
 * (`string({trim:true})`).
 */
const INNER_BRACKETS = new RegExp(String.raw`(?<=[\w$)\]])(?:\(${ARGUMENTS}\)|\[${ARGUMENTS}\])(?![\w$])|(?<=[(,])\{[\w$.,:'"-]*\}(?=[),])`, 'g');
/**
 * Names and member accesses (`a.b`, `a?.b`, `$this->pw`, `Cls::f`), a name maybe followed by Rust's
 * `?` or a non-null `!`.
 */
export const NAMES = String.raw`${NAME}[?!]?(?:(?:\??\.|->|::)${NAME}[?!]?)*`;
/** A value with its calls' arguments and indexes taken away, innermost first (`a.b(c(d[1])).e` → `a.b.e`). */
export function withoutCalls(value: string): string {
  let v = value;
  for (let i = 0; i < 8; i++) {
    const next = v.replace(INNER_BRACKETS, '');
    if (next === v) break;
    v = next;
  }
  return v;
}

/** The operators of code (OPERATOR's, wherever they stand), and `==` and `!=`. */
export const OPERATORS = /\|\||&&|=>|\?\.|!==?|===?|--|\+\+|\)\./;
/** Operands at even indexes, operators at odd ones. */
const OPERATORS_SPLIT = new RegExp(`(${OPERATORS.source})`, 'g');
/** An operand: a name or member chain (maybe negated or in parentheses), a number, a short string, nothing (`i++`). */
const OPERAND = new RegExp(String.raw`^[!(]*(?:${NAMES}|\d+|''|""|'[\w.-]*'|"[\w.-]*")?\)*$`);

/**
 * Code joined by operators (`opts.apiKey||env.API_KEY`, `state=>state.token`, `user?.token`,
 * `a.b().c`): each operand a name, a number or a short string, once calls are taken away, and
 * either side of `!=` one that code compares (notEqualOperand: `hbqr!=tkwz` is no comparison). A
 * random password holds `||`, `=>`, `++` or `--` between random characters.
 */
export function operatorExpression(value: string): boolean {
  const parts = withoutCalls(value).split(OPERATORS_SPLIT);
  for (let i = 0; i < parts.length; i += 2) {
    if (!OPERAND.test(parts[i]!)) return false;
    // (`++` stands after its operand or before it, never between two: `x++_y`, `x++!y` are no code in any C-like language)
    if (parts[i + 1] === '++' && parts[i] !== '' && parts[i + 2] !== '') return false;
    if ((parts[i - 1] === '!=' || parts[i + 1] === '!=') && !notEqualOperand(parts[i]!)) return false;
  }
  return !scrambled(value) && !hasRandomWords(value);
}

/** The words of a name: a capital and small letters, a run of capitals, digits. */
const NAME_WORDS = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;
const NOT_ALNUM = /[^A-Za-z0-9]+/;
const VOWEL_Y = /[aeiouy]/i;

/**
 * Parts of a name's shape (`a.b`, `a@b`, `a-b_c`, `!a.b`) whose words read as random letters:
 * inside a part that mixes cases, words of small letters with no vowel (`Hm`, `vk`, `Rvk`) and a
 * digit before a small letter (`akN9rq`), counted. Three or more, or two with the vowels of random
 * letters (under one in five), or next to no vowels over twelve letters or more: `dtMKxx.D6stfll3`,
 * `ctZzjF@kyRQBSUef3`; not `DuckDBTypeId.STRUCT`, `fs.statSync`, `this.httpRequestFn`,
 * `d3Dsv.csvParse`, whose abbreviations are one or two.
 */
function hasRandomWords(value: string): boolean {
  let marks = 0;
  let mixedPart = false;
  for (const part of value.split(NOT_ALNUM)) {
    if (part.length < 2 || part.toLowerCase() === part || part.toUpperCase() === part) continue;
    mixedPart = true;
    for (let i = 1; i < part.length; i++) {
      const c = part.charCodeAt(i);
      const p = part.charCodeAt(i - 1);
      if (c >= 97 && c <= 122 && p >= 48 && p <= 57) marks++;
    }
    for (const m of part.matchAll(NAME_WORDS)) {
      const w = m[0];
      if (w.length >= 2 && w.charCodeAt(w.length - 1) >= 97 && !VOWEL_Y.test(w)) marks++;
    }
  }
  if (!mixedPart) return false;
  const vowels = vowelShare(value);
  return marks >= 3 || (marks >= 2 && vowels < 0.2) || (vowels < 0.1 && value.replace(/[^A-Za-z]/g, '').length >= 12);
}

/**
 * The jwt.io documentation token (and any JWT whose payload names "John Doe", its sample user):
 * every JWT tutorial carries it. `value` may be any credential; only JWT-shaped ones can match.
 */
export function isDocumentationJwt(value: string): boolean {
  if (!value.startsWith('eyJ')) return false;
  const payload = value.split('.')[1];
  if (payload === undefined) return false;
  return /"name"\s*:\s*"John Doe"/.test(Buffer.from(payload, 'base64url').toString('latin1'));
}

/**
 * A run of 12 or more letters in mixed case with fewer than one vowel in six, or of 16 or more
 * with the vowels and both cases of random letters (randomLetters): names are made of words (about two
 * letters in five are vowels, `ACCESS_TOKEN_KEY`, `getAccessToken`), random letters have one in
 * five or fewer and switch case all the time (`GOtbPFrKTNtjzcmTzlpntu_hd`, `Tr_XyVJWKawsrvZTEbIJU-Q…`).
 */
function hasUnpronounceablePart(value: string): boolean {
  let length = 0;
  let vowels = 0;
  let lower = false;
  let upper = false;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) | 0 : 0;
    const isUpper = c >= 65 && c <= 90;
    const isLower = c >= 97 && c <= 122;
    if (!isUpper && !isLower) {
      if (length >= 12 && lower && upper && (vowels * 6 < length || randomLetters(value.slice(i - length, i)))) return true;
      length = 0;
      vowels = 0;
      lower = upper = false;
      continue;
    }
    length++;
    lower ||= isLower;
    upper ||= isUpper;
    if (VOWEL[c | 32] === 1) vowels++;
  }
  return false;
}
/**
 * Letters that read as random, not as a camelCase name: 16 or more, fewer than three vowels
 * (a e i o u) in ten (names run about two in five: `getAccessTokenForUser`), and both cases at
 * three in ten or more (a name capitalises one letter of each word: `HttpChatTransportOptions`).
 * A random token of letters alone (one in a hundred random 27-character tokens has no digit)
 * matches WORD_OR_CAMEL, whose words may be one letter long.
 */
function randomLetters(value: string): boolean {
  if (value.length < 16) return false;
  let vowels = 0;
  let upper = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const lower = c | 32;
    if (lower === 97 || lower === 101 || lower === 105 || lower === 111 || lower === 117) vowels++;
    if (c <= 90) upper++;
  }
  const n = value.length;
  return vowels * 10 < n * 3 && upper * 10 >= n * 3 && (n - upper) * 10 >= n * 3;
}
const VOWEL = new Uint8Array(128);
for (const ch of 'aeiouy') VOWEL[ch.charCodeAt(0)] = 1;

/** Character classes present: lower, upper, digit, other. */
export function classCount(value: string): number {
  let mask = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) mask |= 1;
    else if (c >= 65 && c <= 90) mask |= 2;
    else if (c >= 48 && c <= 57) mask |= 4;
    else mask |= 8;
  }
  return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1);
}

/**
 * The check generic rules (keyword assignments, headers) apply to a candidate value: long
 * enough, random enough, not a placeholder, not code, not a UUID, and not a hex digest unless
 * `hexCounts` (the key names a secret: `openssl rand -hex 32` and `secrets.token_hex()` make
 * secrets of digest length).
 */
export function isCredentialLike(value: string, minLength = 8, minEntropy = 3, hexCounts = false, operatorsAreCode = true): boolean {
  if (value.length < minLength) return false;
  if (classCount(value) < 2) return false;
  // Short values cannot reach a fixed entropy bar; scale it with the length.
  const bar = Math.min(minEntropy, Math.log2(value.length) - 0.3);
  if (shannonEntropy(value) < bar) return false;
  return !isUuid(value) && (hexCounts || !isHexDigest(value)) && !looksLikeCode(value, operatorsAreCode);
}
