/**
 * A Python literal as Python's `repr` writes a dict or list: what LangChain records as a tool
 * run's input (`str(tool_input)`, `{'city': 'Tokyo', 'units': None}`), which OpenInference's
 * LangChain instrumentation and LangSmith's LangChain tracer pass on as the tool's input. Read as
 * the value it writes — strings (single, double or triple quoted, with `repr`'s escapes), numbers,
 * `True`, `False`, `None`, dicts (keys as text), lists, tuples and sets — or undefined when the text
 * is not one such literal whole (a cut-off repr, an object repr such as `datetime.date(…)`).
 */
export function parsePythonLiteral(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('[') || t.startsWith('('))) return undefined;
  const parser = new LiteralParser(t);
  try {
    const value = parser.value(0);
    parser.space();
    return parser.done() ? value : undefined;
  } catch (e) {
    if (e instanceof NotALiteral) return undefined;
    throw e;
  }
}

class NotALiteral extends Error {}

/** Deeper than this, a literal is not read (a hostile repr must not exhaust the stack). */
const MAX_DEPTH = 256;

const CLOSING: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0', '\n': '' };

class LiteralParser {
  private at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at === this.text.length;
  }

  space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new NotALiteral();
    this.space();
    const c = this.text[this.at];
    if (c === undefined) throw new NotALiteral();
    if (c === '{' || c === '[' || c === '(') return this.container(c, depth);
    if (c === "'" || c === '"') return this.string();
    if ((c === 'b' || c === 'u' || c === 'r' || c === 'B' || c === 'U' || c === 'R') && (this.text[this.at + 1] === "'" || this.text[this.at + 1] === '"')) {
      this.at++;
      return this.string(c === 'r' || c === 'R');
    }
    const word = /^(?:True|False|None|-?inf|nan)\b|^-?(?:\d[\d_]*)?(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 64))?.[0];
    if (!word) throw new NotALiteral();
    this.at += word.length;
    if (word === 'True') return true;
    if (word === 'False') return false;
    if (word === 'None') return null;
    if (word.endsWith('inf') || word === 'nan') return word;
    const n = Number(word.replaceAll('_', ''));
    if (!Number.isFinite(n)) throw new NotALiteral();
    return n;
  }

  private container(open: string, depth: number): unknown {
    const close = CLOSING[open]!;
    this.at++;
    const items: unknown[] = [];
    const entries: [string, unknown][] = [];
    let isDict = open === '{';
    let first = true;
    for (;;) {
      this.space();
      if (this.text[this.at] === close) {
        this.at++;
        break;
      }
      if (!first) {
        if (this.text[this.at] !== ',') throw new NotALiteral();
        this.at++;
        this.space();
        if (this.text[this.at] === close) {
          this.at++;
          break;
        }
      }
      const item = this.value(depth + 1);
      this.space();
      if (open === '{' && this.text[this.at] === ':') {
        if (!isDict) throw new NotALiteral();
        this.at++;
        entries.push([typeof item === 'string' ? item : JSON.stringify(item) ?? String(item), this.value(depth + 1)]);
      } else {
        // `{a, b}` is a set: a list of its members.
        if (open === '{' && entries.length > 0) throw new NotALiteral();
        if (open === '{') isDict = false;
        items.push(item);
      }
      first = false;
    }
    if (open === '{' && isDict) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries) out[k] = v;
      return out;
    }
    return items;
  }

  private string(raw = false): string {
    const quote = this.text[this.at]!;
    const triple = this.text.startsWith(quote.repeat(3), this.at);
    const end = triple ? quote.repeat(3) : quote;
    this.at += end.length;
    let out = '';
    for (;;) {
      if (this.at >= this.text.length) throw new NotALiteral();
      if (this.text.startsWith(end, this.at)) {
        this.at += end.length;
        return out;
      }
      const c = this.text[this.at]!;
      if (c === '\n' && !triple) throw new NotALiteral();
      if (c !== '\\') {
        out += c;
        this.at++;
        continue;
      }
      const e = this.text[this.at + 1];
      if (e === undefined) throw new NotALiteral();
      if (raw) {
        out += c + e;
        this.at += 2;
        continue;
      }
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        this.at += 2;
        continue;
      }
      const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      const hex = this.text.slice(this.at + 2, this.at + 2 + width);
      if (width === 0 || !new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) {
        // An unknown escape is kept as written, as Python keeps it.
        out += c;
        this.at++;
        continue;
      }
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw new NotALiteral();
      out += String.fromCodePoint(code);
      this.at += 2 + width;
    }
  }
}
