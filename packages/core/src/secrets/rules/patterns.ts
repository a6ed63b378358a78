/** Regex fragments shared by the built-in rules (as source strings). */
import { isKeyChar, keyStart, propertiesLine, setByCli } from '../key-names.js';

/** Left boundary of a token: no word character before. */
export const L = '(?<![A-Za-z0-9_])';
/**
 * After a JSON escape that ends in a letter or digit (`\n`, `\t`, `\b`, `\u000a`, also escaped
 * twice): for a rule that reads back from its keyword to a word before it, that word's start in a
 * JSON string's text.
 */
export const AFTER_JSON_ESCAPE = String.raw`(?<=\\(?:[nrtbf]|u[0-9A-Fa-f]{4}))`;

/**
 * One character of a command line: not a line break, nor `;`, `|` or `&`, which start another
 * command (`mysql … | grep -P x`), nor the start of a line break escaped in JSON text (`\n`, `\r`,
 * `\u000a`, after any escaped backslashes: an odd count of them), the next line of a script
 * (`"mysql -h db\nls -p…"`). An even count is escaped backslashes before a letter, a Windows path
 * (`C:\repos\run.sql` is `C:\\repos\\run.sql` in JSON text): the command goes on over it, so a
 * password after it is still found. A line break of JSON escaped twice reads the same (`\\n`) and
 * goes on too: more is read, not less. `extra`: more characters that end it. (The look ahead fails
 * at the first character that is not a backslash: a plain class's speed.)
 */
export function commandChar(extra = ''): string {
  return String.raw`(?:(?!\\(?<!\\\\)(?:\\\\)*(?:[nr]|u000[aAdD]))[^\r\n;|&${extra}])`;
}

/** The rest of one command after its program name, up to the flag (see {@link commandChar}). */
export const SAME_COMMAND = String.raw`(?:[ \t]${commandChar()}{0,240}?)?[ \t]`;

/**
 * Program names begin a word of a command line (`/usr/bin/mysql`, `sudo mysql`), not one of a
 * name (`my-mysql`, `run.mysql`); or a line after a JSON escape (`"A=1\nredis-cli …"`), which the
 * detector's decoding windows open only right before a keyword, and a name read back lies before it.
 */
export const PROGRAM_START = `(?:${AFTER_JSON_ESCAPE}|(?<![\\w.-]))`;
/** Right boundary of a token: no word character after. */
export const R = '(?![A-Za-z0-9_])';
/** Right boundary of a token whose body may hold `-`. */
export const RD = '(?![A-Za-z0-9_-])';
/** {@link R} letting a `_` follow: for a token glued on its right (`AKIA…_prod`), which only the detector tries, where R fails. */
export const R_GLUED = '(?![A-Za-z0-9])';
/** {@link RD} letting a `_` follow. */
export const RD_GLUED = '(?![A-Za-z0-9-])';

/** Case-insensitive literal, for patterns that are otherwise case-sensitive. */
export function ci(word: string): string {
  let out = '';
  for (const ch of word) {
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    out += lo === up ? ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&') : `[${lo}${up}]`;
  }
  return out;
}

/** Assignment operators: = : := ::= :::= ?= += .= ||= ??= => <- (Makefile, Go, PHP, Ruby, R, ...). */
const OPERATOR = String.raw`(?::{1,3}=|[?+.]=|\|\|=|\?\?=|=>|<-|=|:)`;
/** A type between a name and its `=`: `: string`, `: &'static str`, `: Option<String>`, Go's ` string`. */
const TYPE = String.raw`&?(?:'[a-z]{1,12}[ \t]{1,2})?(?:mut[ \t])?[\w.:<>\[\]*?&]{1,40}`;
/** A call that makes a string of a literal, between an assignment and its value: `String::from(`, `Some(`, `SecretStr(`, `JSON.stringify(`. */
const WRAPPER = String.raw`(?:String::from|Some|String\.valueOf|SecretString::(?:new|from)|SecretStr|JSON\.stringify)`;
/** An HCL variable's block up to its default's `=`, after the name's closing quote: `variable "db_password" {⏎  type = string⏎  default =`. */
export const HCL_DEFAULT = String.raw`[ \t]{0,4}\{\s{0,40}(?:(?:type|description|sensitive|nullable)[ \t]{0,12}=[ \t]{0,4}[^\n]{1,80}\n\s{0,40}){0,3}default[ \t]{0,12}=`;
/** Whitespace between XML elements, also as JSON escapes (XML in a JSON string). */
const ELEMENT_GAP = String.raw`(?:\s|\\{1,3}[nrt]){0,40}`;
/** The quote closing a quoted key, escaped up to three times (JSON inside JSON inside JSON). */
const KEY_QUOTE = String.raw`\\{0,3}["'\x60]`;
/**
 * The opening of a quoted value: a quote, escaped up to three times, maybe after a string prefix
 * (Python's r b u f, C#'s @ and $, Rust's r#).
 */
export const OPEN_QUOTE = String.raw`(?:(?:[rRbBuUfF]{1,2}#?|@|\$)?\\{0,3}["'\x60])`;

/** A quote opening a quoted value, and after it an escaped quote (`"\"v\""`, a string in a string). */
const DOUBLE_OPEN = String.raw`\\{0,3}"\\{1,7}"`;

/**
 * From the end of a key name to the start of its value, in the assignment syntax of the
 * languages and config formats agents touch. Space and tab only, never a line break, around an
 * operator: an empty `.env` value (`A_KEY=⏎B_KEY=`) must not take the next line as its value.
 * - `key = v`, `key: v` (YAML's `key: !!str v` too), `key := v`, Makefile `::=` `:::=` `?=` `+=`, PHP `.=`, `=>`, R `<-`;
 * - a quoted key (`"key": "v"`, `'key' => 'v'`, `ENV["KEY"] = "v"`, `\"key\":\"v\"`);
 * - a type between name and `=` (`val key: String = "v"`, `const KEY: &str = "v"`,
 *   `var key string = "v"`);
 * - a quoted key, a comma and a quoted value: call arguments (`System.setProperty("X_TOKEN", "v")`,
 *   `os.Setenv`, `define('KEY', 'v')`, Gradle's `buildConfigField("String", "KEY", "\"v\"")`),
 *   XML attributes (`key="Secret" value="v"`) and a JSON name/value pair
 *   (`{"name": "DB_PASSWORD", "value": "v"}`);
 * - a quoted value on the next line (pretty-printed JSON, YAML);
 * - an XML element, the value on the same line or its own (`<key>⏎  v⏎</key>`), and Hadoop's
 *   name and value elements (`<name>fs.s3a.secret.key</name>⏎<value>v</value>`);
 * - a YAML block scalar (`key: |⏎  v`, `key: >-⏎  v`), a Kubernetes env entry
 *   (`- name: DB_PASSWORD⏎  value: "v"`), a TOML multi-line string (`key = """⏎v"""`);
 * - an HCL variable's default (`variable "db_password" {⏎  type = string⏎  default = "v"`);
 * - code: a setter or builder call (`setApiKey("v")`, `.apiKey("v")`), Kotlin's `"key" to "v"`,
 *   a C# auto-property (`ApiKey { get; set; } = "v"`), Rust's `= String::from("v")`, a default
 *   after an environment read (`ENV.fetch('KEY') { 'v' }`, `option_env!("KEY").unwrap_or("v")`,
 *   `process.env.KEY || "v"`, `?? 'v'`, `getenv('KEY') ?: 'v'`, `os.getenv("KEY") or "v"`);
 * - `gh secret set KEY --body "v"`.
 */
/**
 * Where the forms of {@link ASSIGN_TAIL} that read letters, a line break, a brace or a call begin,
 * right after a key: ASSIGN_TAIL tries those forms only where this holds, and generic-tries.ts
 * lets the regex run there.
 */
const TAIL_OF_WORDS_SOURCE = String.raw`(?:\\{0,3}["'\x60])?\)?[ \t]{0,4}(?:\r?\n|<\/|\{|\(|\.unwrap|to[ \t]|--body|serializeAs=|=[ \t]{0,4}(?:"""|'''|String|Some|SecretString)|:[ \t]{0,4}[|>]|,[ \t]{0,4}\\{0,3}"(?:\\|value))`;

export const ASSIGN_TAIL =
  // (the first character decides most tries at once: after a key, code goes on with other characters)
  String.raw`(?=[ \t"'\x60\\\[\]=:,>?+.|<\r\n(])(?:` +
  [
    // (a shell parameter's default, `${DB_PASSWORD:-v}`, `${API_KEY:=v}`: before the plain
    // operator, which would take the `-` into the value)
    String.raw`(?=:[-=])(?<=\$\{\w{1,64}):[-=]`,
    // (before the plain operator, which would take `String::from` for the value)
    // (`=` in code, `:` in a Rust struct literal: `Config { api_key: String::from("v") }`)
    // (with a type before the `=`: `let token: String = String::from("v")`, pydantic's `api_key: SecretStr = SecretStr("v")`;
    // a bundler's define, `'process.env.API_KEY': JSON.stringify('v')`)
    String.raw`(?:${KEY_QUOTE})?(?:[ \t]{0,4}:[ \t]{0,4}${TYPE}[ \t]{0,4}=|[ \t]{0,4}[:=])[ \t]{0,4}${WRAPPER}\([ \t]{0,4}${OPEN_QUOTE}`,
    // (a YAML value may carry the string tag: `password: !!str v`, `password: !!str "v"`)
    // (C's array of chars: `char api_key[] = "v"`, `constexpr char API_KEY[33] = "v"`)
    String.raw`(?:${KEY_QUOTE})?(?:\]|\[\d{0,5}\])?[ \t]{0,4}${OPERATOR}[ \t]{0,4}(?:!!str[ \t]{1,4})?${OPEN_QUOTE}?`,
    String.raw`${KEY_QUOTE}\]?[ \t]{0,4}(?:,|[ \t][vV]alue[ \t]{0,2}=)[ \t]{0,4}${OPEN_QUOTE}`,
    // (Ruby's setting of a symbol, Capistrano's and Sinatra's: `set :api_key, 'v'`)
    // (the comma first: the lookbehind reads the key back, which no try need do where no comma follows)
    String.raw`(?=,)(?<=(?:(?<![\w$.:-])|\\{1,3}(?:[nrtbf]|u[0-9A-Fa-f]{4}))set[ \t]{1,4}:\w{1,64}),[ \t]{0,4}${OPEN_QUOTE}`,
    // (a literal default after an environment read: `process.env.DB_PASSWORD || "v"`, `?? 'v'`,
    // `process.env["API_KEY"] || "v"`, PHP's `getenv('DB_PASS') ?: 'v'`, Python's `os.getenv("K") or "v"`)
    String.raw`(?:${KEY_QUOTE})?[\])]?[ \t]{0,4}(?:\|\||\?\?|\?:|(?<=[\])])[ \t]{1,4}or[ \t])[ \t]{0,4}${OPEN_QUOTE}`,
    String.raw`(?:${KEY_QUOTE})?(?:[ \t]{0,4}:[ \t]{0,4}${TYPE}|[ \t]{1,4}${TYPE})[ \t]{0,4}=[ \t]{0,4}${OPEN_QUOTE}?`,
    String.raw`(?:${KEY_QUOTE})?[ \t]{0,4}[:=][ \t]{0,4}\r?\n\s{0,40}${OPEN_QUOTE}`,
    // (an XML element's content, maybe in a CDATA section: `<password><![CDATA[v]]></password>`)
    String.raw`(?:${KEY_QUOTE})?>\s{0,40}(?:<!\[CDATA\[)?`,
    // (the forms that read letters, a line break, a brace or a call, where they can begin: one
    // test, where most keys go on otherwise; last, so that a form above wins wherever it holds)
    String.raw`(?=${TAIL_OF_WORDS_SOURCE})(?:` +
      [
        String.raw`${KEY_QUOTE}[ \t]{0,4},[ \t]{0,4}(?:${DOUBLE_OPEN}|\\{0,3}"value\\{0,3}"[ \t]{0,4}:[ \t]{0,4}${OPEN_QUOTE})`,
        // (Hadoop's `<name>k</name><value>v</value>`, a servlet's `<param-name>k</param-name><param-value>v</param-value>`,
        // .NET's settings, `<setting name="ApiKey" serializeAs="String"><value>v</value>`)
        String.raw`<\/(?:param-)?name>${ELEMENT_GAP}<(?:param-)?value>${ELEMENT_GAP}`,
        String.raw`${KEY_QUOTE}[ \t]{1,4}serializeAs=${KEY_QUOTE}[A-Za-z]{1,16}${KEY_QUOTE}>${ELEMENT_GAP}<value>${ELEMENT_GAP}`,
        String.raw`(?:${KEY_QUOTE})?[ \t]{0,4}:[ \t]{0,4}[|>][+-]?[1-9]?[ \t]{0,4}\r?\n[ \t]{0,40}`,
        String.raw`(?:${KEY_QUOTE})?[ \t]{0,4}\r?\n[ \t]{0,40}value[ \t]{0,4}:[ \t]{0,4}${OPEN_QUOTE}?`,
        String.raw`(?:${KEY_QUOTE})?[ \t]{0,4}=[ \t]{0,4}(?:"""|''')\\?\r?\n?`,
        String.raw`${KEY_QUOTE}${HCL_DEFAULT}[ \t]{0,4}${OPEN_QUOTE}?`,
        String.raw`\([ \t]{0,4}${OPEN_QUOTE}`,
        String.raw`${KEY_QUOTE}[ \t]{1,4}to[ \t]{1,4}${OPEN_QUOTE}`,
        String.raw`[ \t]{0,4}\{[ \t]{0,4}get;[ \t]{0,4}(?:(?:private|protected|internal)?[ \t]{0,4}(?:set|init);[ \t]{0,4})?\}[ \t]{0,4}=[ \t]{0,4}${OPEN_QUOTE}`,
        String.raw`${KEY_QUOTE}\)(?:[ \t]{0,4}\{[ \t]{0,4}|\.unwrap_or\([ \t]{0,4})${OPEN_QUOTE}`,
        String.raw`[ \t]{1,4}--body(?:[ \t]{1,4}|=)${OPEN_QUOTE}?`,
      ].join('|') +
      ')',
  ].join('|') +
  ')';
/** {@link TAIL_OF_WORDS_SOURCE}, sticky, tried at a key's end. */
export const TAIL_OF_WORDS = new RegExp(TAIL_OF_WORDS_SOURCE, 'y');

/** The whole key a match starts in (`DB_PASSWORD`, `--api-key`), read back from `index` (at most 64 characters): its start and text. */
export function keyAround(input: string, index: number, matched: string): { start: number; key: string } {
  const s = keyStart(input, index);
  let e = 0;
  while (e < matched.length && isKeyChar(matched.charCodeAt(e))) e++;
  return { start: s, key: input.slice(s, index) + matched.slice(0, e) };
}

/**
 * A value after a space and no operator (`ENV API_KEY v`, `--token v`, `setx DB_PASSWORD "v"`)
 * is an assignment only after a CONSTANT_NAME or a command-line flag, a one-word capital name
 * after a Dockerfile's `ENV`, Windows' `setx`, csh's `setenv`, fish's `set -gx` or C's `#define`
 * (`ENV PASSWORD v`, `#define PASSWORD "v"`), a variable Emacs Lisp sets
 * (`(setq smtpmail-password "v")`), or any key a CLI's setter
 * sets (`aws configure set aws_secret_access_key v`).
 */
export function spacedAssignment(input: string, index: number, matched: string): boolean {
  const { start, key } = keyAround(input, index, matched);
  // (a CONSTANT_NAME after `=` or `$` is a value or a variable, not a key: in `-e API_KEY=YOUR_API_KEY_HERE
  // image:tag` and `-e API_KEY=$SECRET_VALUE image:tag` the image is no value of theirs)
  const before = input.charCodeAt(start - 1);
  if (before === 61 || before === 36) return false;
  // (a quoted key before the space: only a CLI's setter takes a value so, `user-secrets set "Key" "v"`)
  const q = matched.charCodeAt(start + key.length - index);
  if (q === 34 || q === 39 || q === 92) return setByCli(input, start);
  if (key.startsWith('-') || /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(key)) return true;
  // (a config file of `key value` lines, msmtprc's and fetchmailrc's: `password v` alone on its line)
  if ((key === 'password' || key === 'passwd') && lineAlone(input, start, index + matched.length)) return true;
  // (a Java .properties line, whose separator may be a space: `db.password v`, `spring.datasource.password v`,
  // a dotted key alone on its line with its value: in prose a key is seldom a line's first word, its value never its last)
  if (propertiesLine(input, start, key, index + matched.length)) return true;
  if (/^[A-Z][A-Z0-9]+$/.test(key) && /(?:^|[\n;&|\\"/]|\\{1,3}(?:[nrtbf]|u[0-9A-Fa-f]{4}))[ \t]*(?:ENV|setx|setenv|set[ \t]{1,4}-[gxUlu]{1,3}|#[ \t]{0,4}define)[ \t]{1,4}$/i.test(input.slice(Math.max(0, start - 24), start))) return true;
  // (Emacs Lisp sets a variable so: `(setq smtpmail-password "v")`, `(defvar my-api-token "v")`)
  if (/\((?:setq(?:-default|-local)?|defvar|defconst|defcustom)[ \t]{1,4}$/.test(input.slice(Math.max(0, start - 16), start))) return true;
  return setByCli(input, start);
}
/** [start, end) is a whole line but for indentation: a line break (or the text's edge) before and after. */
function lineAlone(input: string, start: number, end: number): boolean {
  let s = start;
  while (s > 0 && (input.charCodeAt(s - 1) === 32 || input.charCodeAt(s - 1) === 9)) s--;
  const before = s === 0 ? 10 : input.charCodeAt(s - 1);
  const after = end >= input.length ? 10 : input.charCodeAt(end);
  return (before === 10 || before === 13) && (after === 10 || after === 13);
}

/**
 * {@link ASSIGN_TAIL}, or a space alone before the value (group `ws`, for {@link spacedAssignment}
 * to judge): once in a pattern.
 */
export const TAIL_OR_SPACE = String.raw`(?:${ASSIGN_TAIL}|(?:\\{0,3}["'])?(?<ws>[ \t]{1,4})(?:\\{0,3}["'])?)`;
/** {@link TAIL_OR_SPACE} after up to 24 more key characters. */
export const ASSIGN_OR_SPACE = String.raw`[\w.-]{0,24}?` + TAIL_OR_SPACE;
/** {@link ASSIGN_TAIL} after up to 24 more key characters. */
export const ASSIGN = String.raw`[\w.-]{0,24}?` + ASSIGN_TAIL;


/** Build a global rule pattern from source fragments. */
export function re(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'g');
}

/**
 * A password as a shell argument or a config value: in double quotes (group `secret`), in
 * single quotes (`secret2`) or bare (`secret3`: up to a space, quote, backslash (an escaped
 * quote's, in JSON), `;`, `|`, `&`, a redirection or a bracket, and not beginning with `-`, which is the next flag, or with `[` or
 * `{`, which is usage text: `-p[password]`, `-p{Password}`).
 */
export const PASSWORD_VALUE = String.raw`(?:"(?<secret>[^"\r\n]{1,256})"|'(?<secret2>[^'\r\n]{1,256})'|(?<secret3>[^\s"'\x60;|&<>()\[\]{}\\-][^\s"'\x60;|&<>()\\]{0,255}))`;
