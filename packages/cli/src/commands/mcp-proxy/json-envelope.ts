/**
 * What the relay needs from a server message too large to hold whole (a big file read): its
 * id, method, error, `result.isError`, and the text a later call may copy values from, capped. The
 * proxy streams such a message to the client as its bytes arrive and runs them through
 * {@link JsonEnvelopeScanner} on the way, so its memory does not grow with the message.
 */
export interface StreamedEnvelope {
  id?: string | number;
  method?: string;
  hasResult: boolean;
  error?: { code?: number; message?: string };
  /** `result.isError`, when the result says. */
  isError?: boolean;
  /** `result.content[].text`, `result.content[].resource.text` and the strings and numbers of `result.structuredContent`, at most the cap in all. */
  texts: string[];
  /** False when the bytes were not one JSON object (the scanner stopped at the first fault). */
  wellFormed: boolean;
}

type Capture = 'id' | 'method' | 'error-code' | 'error-message' | 'is-error' | 'text' | undefined;

interface Frame {
  kind: 'object' | 'array';
  /** The current key (object) — the raw key bytes decoded when the key ends. */
  key: string | undefined;
  /** The current index (array). */
  index: number;
}

const enum State {
  /** Before the top-level value. */
  Start,
  /** A value is expected (after `:`, `[` or `,` in an array). */
  Value,
  /** In an object after `{` or `,`: a key or (after `{`) `}`. */
  Key,
  /** After a key: `:`. */
  Colon,
  /** After a value: `,` or the container's close. */
  After,
  /** Inside a string (a key when `inKey`). */
  String,
  /** Inside a number or `true`/`false`/`null`. */
  Literal,
  /** After the top-level value: only whitespace. */
  Done,
  /** Not JSON: everything after the fault is ignored. */
  Broken,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest key kept (longer keys never name a field the proxy reads). */
const MAX_KEY_BYTES = 64;
/** Longest id, method, error message or flag kept. */
const MAX_FIELD_BYTES = 1024;

/**
 * An incremental JSON scanner over the bytes of one JSON-RPC message. It keeps no more than the
 * fields above: the texts are cut at `maxTextBytes` (UTF-8 bytes, escapes included), everything else
 * is passed over. Byte-level: structure characters are ASCII, so UTF-8 text needs no decoding until a
 * captured string ends.
 */
export class JsonEnvelopeScanner {
  private state = State.Start;
  private readonly stack: Frame[] = [];
  private inKey = false;
  private escaped = false;
  private capture: Capture;
  /** Bytes of the string or literal being captured (still JSON-escaped). */
  private pieces: Uint8Array[] = [];
  private pieceBytes = 0;
  private pieceLimit = 0;
  private textBudget: number;
  private readonly out: StreamedEnvelope = { hasResult: false, texts: [], wellFormed: true };

  constructor(maxTextBytes: number) {
    this.textBudget = maxTextBytes;
  }

  /** Scan the next bytes of the message. */
  write(chunk: Uint8Array): void {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      switch (this.state) {
        case State.String: {
          const start = i;
          while (i < n) {
            const c = chunk[i]!;
            if (this.escaped) this.escaped = false;
            else if (c === BACKSLASH) this.escaped = true;
            else if (c === QUOTE) break;
            i++;
          }
          this.keep(chunk, start, i);
          if (i < n) {
            i++; // the closing quote
            this.endString();
          }
          break;
        }
        case State.Literal: {
          const start = i;
          while (i < n && !isDelimiter(chunk[i]!)) i++;
          this.keep(chunk, start, i);
          if (i < n) this.endLiteral(); // the delimiter is read by the next state
          break;
        }
        case State.Broken:
          return;
        default:
          this.structural(chunk[i]!);
          i++;
      }
    }
  }

  /** The envelope of everything written; call once, after the message's last byte. */
  finish(): StreamedEnvelope {
    if (this.state === State.Literal) this.endLiteral();
    if (this.state !== State.Done) this.out.wellFormed = false;
    return this.out;
  }

  private structural(c: number): void {
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return;
    switch (this.state) {
      case State.Start:
        if (c !== 0x7b) return this.fault(); // the message must be an object
        return this.open('object');
      case State.Value:
        return this.beginValue(c);
      case State.Key:
        if (c === QUOTE) return this.beginString(true);
        if (c === 0x7d && this.top()?.key === undefined) return this.close('object');
        return this.fault();
      case State.Colon:
        if (c !== 0x3a) return this.fault();
        this.state = State.Value;
        return;
      case State.After: {
        const frame = this.top();
        if (!frame) return this.fault();
        if (c === 0x2c) {
          if (frame.kind === 'object') {
            frame.key = '';
            this.state = State.Key;
          } else {
            frame.index += 1;
            this.state = State.Value;
          }
          return;
        }
        if (c === 0x7d && frame.kind === 'object') return this.close('object');
        if (c === 0x5d && frame.kind === 'array') return this.close('array');
        return this.fault();
      }
      case State.Done:
        return this.fault();
      default:
        return;
    }
  }

  private beginValue(c: number): void {
    const capture = this.captureHere();
    if (this.stack.length === 1) {
      const key = this.stack[0]!.key;
      if (key === 'result') this.out.hasResult = true;
      if (key === 'error') this.out.error ??= {};
    }
    if (c === 0x7b) return this.open('object');
    if (c === 0x5b) {
      // `[]` closes at once: the array frame expects a value or `]`.
      this.open('array');
      return;
    }
    if (c === 0x5d && this.top()?.kind === 'array' && this.top()!.index === 0) return this.close('array');
    if (c === QUOTE) {
      this.beginString(false, capture);
      return;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      this.startCapture(capture);
      this.state = State.Literal;
      this.keep(Uint8Array.of(c), 0, 1);
      return;
    }
    this.fault();
  }

  private open(kind: Frame['kind']): void {
    this.stack.push({ kind, key: undefined, index: 0 });
    this.state = kind === 'object' ? State.Key : State.Value;
  }

  private close(kind: Frame['kind']): void {
    const frame = this.stack.pop();
    if (!frame || frame.kind !== kind) return this.fault();
    this.state = this.stack.length === 0 ? State.Done : State.After;
  }

  private beginString(isKey: boolean, capture?: Capture): void {
    this.inKey = isKey;
    this.escaped = false;
    if (isKey) {
      this.capture = undefined;
      this.pieces = [];
      this.pieceBytes = 0;
      this.pieceLimit = MAX_KEY_BYTES;
    } else this.startCapture(capture);
    this.state = State.String;
  }

  private startCapture(capture: Capture): void {
    this.capture = capture;
    this.pieces = [];
    this.pieceBytes = 0;
    this.pieceLimit = capture === 'text' ? this.textBudget : capture === undefined ? 0 : MAX_FIELD_BYTES;
  }

  /** Keep bytes [start, end) of the chunk when a key or a captured value is being read. */
  private keep(chunk: Uint8Array, start: number, end: number): void {
    if (!this.inKey && this.capture === undefined) return;
    const room = this.pieceLimit - this.pieceBytes;
    if (room <= 0 || end <= start) return;
    const take = Math.min(room, end - start);
    // A copy: the chunk's buffer is not kept alive by a captured slice.
    this.pieces.push(chunk.slice(start, start + take));
    this.pieceBytes += take;
  }

  private endString(): void {
    const raw = this.joined();
    if (this.inKey) {
      this.inKey = false;
      this.top()!.key = decodeJsonString(raw);
      this.state = State.Colon;
      return;
    }
    const text = this.capture === undefined ? undefined : decodeJsonString(raw);
    this.store(text, true);
    this.state = State.After;
  }

  private endLiteral(): void {
    const raw = Buffer.from(this.joined()).toString('latin1');
    this.store(raw, false);
    this.state = State.After;
  }

  private store(text: string | undefined, isString: boolean): void {
    const capture = this.capture;
    this.capture = undefined;
    if (capture === undefined || text === undefined) return;
    switch (capture) {
      case 'id':
        if (isString) this.out.id = text;
        else if (/^-?\d+$/.test(text)) this.out.id = Number(text);
        return;
      case 'method':
        if (isString) this.out.method = text;
        return;
      case 'error-code':
        if (!isString && /^-?\d+$/.test(text)) (this.out.error ??= {}).code = Number(text);
        return;
      case 'error-message':
        if (isString) (this.out.error ??= {}).message = text;
        return;
      case 'is-error':
        if (text === 'true' || text === 'false') this.out.isError = text === 'true';
        return;
      case 'text':
        if (!isString && (text === 'true' || text === 'false' || text === 'null')) return;
        this.out.texts.push(text);
        this.textBudget -= this.pieceBytes;
        return;
    }
  }

  private joined(): Uint8Array {
    const pieces = this.pieces;
    this.pieces = [];
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  }

  /** What the value starting now is, from where it sits. */
  private captureHere(): Capture {
    const s = this.stack;
    const seg = (i: number): string | number | undefined => (s[i]!.kind === 'object' ? s[i]!.key : s[i]!.index);
    const d = s.length;
    if (d === 1) {
      const key = seg(0);
      return key === 'id' ? 'id' : key === 'method' ? 'method' : undefined;
    }
    const top = seg(0);
    if (top === 'error' && d === 2) return seg(1) === 'code' ? 'error-code' : seg(1) === 'message' ? 'error-message' : undefined;
    if (top !== 'result') return undefined;
    const second = seg(1);
    if (second === 'structuredContent') return this.textBudget > 0 ? 'text' : undefined;
    if (d === 2) return second === 'isError' ? 'is-error' : undefined;
    if (second !== 'content' || this.textBudget <= 0) return undefined;
    // result.content[i].text, result.content[i].resource.text
    if (d === 4 && seg(3) === 'text') return 'text';
    if (d === 5 && seg(3) === 'resource' && seg(4) === 'text') return 'text';
    return undefined;
  }

  private top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  private fault(): void {
    this.out.wellFormed = false;
    this.state = State.Broken;
  }
}

function isDelimiter(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * The text of a JSON string's raw (escaped) bytes. A string cut at a cap may end inside a UTF-8
 * sequence (decoded as U+FFFD) or an escape (dropped).
 */
export function decodeJsonString(raw: Uint8Array): string {
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  if (!text.includes('\\')) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    // Cut inside an escape: drop the unfinished escape at the end and try once more.
    const trimmed = text.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
    try {
      return JSON.parse(`"${trimmed}"`) as string;
    } catch {
      return '';
    }
  }
}
