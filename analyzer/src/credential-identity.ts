import type { SecretDetector, SecretFinding, ValueHasher } from '@argspan/core';
import { decodeBase64Text, decodeHexText, decodeHiddenCharacters, spelledText } from '@argspan/core/internal';

/** How many layers of JSON string escapes a credential's text is read through at most (a JSON string inside a JSON string inside …). */
const MAX_UNESCAPE_DEPTH = 4;

/** How many encodings (base64 or hex of text, one inside another) a credential's text is read through at most. */
const MAX_DECODE_DEPTH = 2;

/** A C-style `\xNN` byte escape (not JSON's) whose backslash is not itself escaped; read as JSON's `\u00NN`. */
const BYTE_ESCAPE = /(?<!\\)((?:\\\\)*)\\x([0-9A-Fa-f]{2})/g;
/** C's three-digit octal byte escape `\NNN` (a byte: `\000`–`\377`), as the detector reads it (`decodeJsonEscapes`). */
const OCTAL_ESCAPE = /(?<!\\)((?:\\\\)*)\\([0-3][0-7]{2})/g;

/** A whole text of hex digits (`0x` before them allowed; a wrapped dump's line breaks between them), or of base64. */
const HEX_RUN = /^(?:0[xX])?[0-9A-Fa-f]+(?:\r?\n[0-9A-Fa-f]+)*$/;
const BASE64_RUN = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The texts a credential is known by, whichever text it was found in: its span as found, with JSON
 * string escapes (and `\xNN` byte escapes, which the detector reads too: `printf '\x67\x68…'`)
 * undone while it holds a backslash and reads as the body of a JSON string. The
 * detector finds a credential in a JSON blob as the raw, escaped span (`\u0067hp_…`, `a\/b`, a
 * JSON string inside a JSON string escaped twice), and in the decoded argument value as its plain
 * text: both come to the same text. Undoing escapes is a function of the text alone, so a value
 * that itself holds a backslash (`ab\cd`, `ab\ncd`) reaches the same end from both sides.
 *
 * With `detector`, a span that is wholly an encoded run the detector decodes (base64 or hex of
 * text: a `.env` sent as base64, dumped by `xxd -p`) is known by the credentials inside it — each
 * the detector finds there of `ruleId` (of any rule without one), so a dump of two GitHub tokens is
 * two credentials — and the same token plain in one place and encoded in another is one. Also a
 * function of the text (and detector).
 *
 * Hidden characters are read as the detector reads them (removed, stand-ins as the ASCII they
 * show; see `decodeHiddenCharacters`): a token split by zero-width spaces or spelled in tag
 * characters is the same credential as its plain copy (with `detector`, the tokens of `ruleId` in
 * what they spell, which may be a whole `.env`). So are characters spelled out (see
 * `spelledText`): a token written as character references, a list of codes, `chr()` calls or
 * joined string literals is its plain copy.
 */
export function credentialTexts(span: string, detector?: SecretDetector, ruleId?: string): string[] {
  return knownBy(unescaped(span), detector, ruleId, 0);
}

/** {@link credentialTexts} of an unescaped text, `depth` encodings down. */
function knownBy(text: string, detector: SecretDetector | undefined, ruleId: string | undefined, depth: number): string[] {
  // (hidden or spelled-out characters first: what they spell holds none, so this is read once, at no depth)
  const shown = decodeHiddenCharacters(text)?.text ?? spelledText(text);
  const encoded = shown === undefined && depth < MAX_DECODE_DEPTH && detector !== undefined;
  const decoded = shown ?? (encoded ? encodedText(text) : undefined);
  if (decoded === undefined) return [text];
  const inner = detector === undefined || depth >= MAX_DECODE_DEPTH ? [] : detector.findAll(decoded).filter((f) => ruleId === undefined || f.ruleId === ruleId);
  if (inner.length === 0) return [decoded === shown ? shown : text];
  return inner.flatMap((f) => knownBy(unescaped(decoded.slice(f.start, f.end)), detector, ruleId, shown === undefined ? depth + 1 : depth));
}

/** JSON string escapes (and `\xNN` byte escapes) undone, layer by layer (see {@link credentialTexts}). */
function unescaped(span: string): string {
  let text = span;
  for (let depth = 0; depth < MAX_UNESCAPE_DEPTH && text.includes('\\'); depth++) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(`"${text.replace(BYTE_ESCAPE, '$1\\u00$2').replace(OCTAL_ESCAPE, (_, before: string, octal: string) => `${before}\\u00${parseInt(octal, 8).toString(16).padStart(2, '0')}`)}"`);
    } catch {
      break;
    }
    if (typeof decoded !== 'string' || decoded === text) break;
    text = decoded;
  }
  return text;
}

/** The text a whole run of hex or base64 encodes, as the detector decodes it; undefined when it is not one. */
function encodedText(text: string): string | undefined {
  if (HEX_RUN.test(text)) {
    const hex = decodeHexText(text, 0);
    if (hex !== undefined && hex.length === text.length) return hex.text;
  }
  return BASE64_RUN.test(text) ? decodeBase64Text(text) : undefined;
}

/** A credential found in a text: its rule, and the keyed hash of one of its {@link credentialTexts} (never the text itself). */
export interface CredentialHit {
  ruleId: string;
  hash: string;
}

/**
 * The distinct credentials of `findings` (`detector`'s, in `text`), in the order found, each by
 * its rule and keyed hash: the same credential twice in one text is one hit.
 */
export function credentialHits(text: string, findings: readonly SecretFinding[], hasher: ValueHasher, detector: SecretDetector): CredentialHit[] {
  const hits: CredentialHit[] = [];
  const seen = new Set<string>();
  for (const f of findings) {
    for (const known of credentialTexts(text.slice(f.start, f.end), detector, f.ruleId)) {
      const hash = hasher.hash(known);
      if (seen.has(hash)) continue;
      seen.add(hash);
      hits.push({ ruleId: f.ruleId, hash });
    }
  }
  return hits;
}

/**
 * The texts a secret argument's value `text` is known by as a credential: each credential the
 * detector finds in it, and the whole value (an argument labelled secret by its key, `password`,
 * holds nothing the detector finds alone, but a blob's `"password": "…"` does: the value).
 */
export function argumentCredentialTexts(text: string, detector: SecretDetector): string[] {
  const texts = new Set<string>(credentialTexts(text, detector));
  for (const f of detector.findAll(text)) for (const known of credentialTexts(text.slice(f.start, f.end), detector, f.ruleId)) texts.add(known);
  return [...texts];
}
