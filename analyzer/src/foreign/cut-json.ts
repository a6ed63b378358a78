import { jsonStringEnd } from '../load/json-head-outline.js';

/**
 * What a JSON object or array cut off at an emitter's size limit still holds whole: the members
 * and elements before the cut, each complete, as the value they make with the containers the cut
 * left open closed; and where the first incomplete member starts (`restAt`), so that the rest is
 * read as one text that was cut. Undefined when the text is not a cut object or array (it parses
 * whole, opens otherwise, or does not parse up to its last complete member) or nothing in it is
 * complete.
 *
 * A number or `true` / `false` / `null` is complete only where a delimiter follows it (`12` may be
 * the start of `1234`); a string only with its closing quote; an object or array with its close.
 */
export function completePrefixOfCutJson(text: string): CutJson | undefined {
  const n = text.length;
  let i = skipSpace(text, 0);
  const first = text.charCodeAt(i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) return undefined;
  /** The open containers, innermost last, and where each opens. */
  const open: number[] = [];
  const opensAt: number[] = [];
  let openAt: number[] = [];
  /** In an object: the next string is a member's name, not its value. */
  let nameNext = false;
  let safeAt = -1;
  let closers = '';
  const completed = (end: number) => {
    safeAt = end;
    closers = '';
    for (let k = open.length - 1; k >= 0; k--) closers += open[k] === OPEN_OBJECT ? '}' : ']';
    openAt = opensAt.slice();
  };
  scan: while (i < n) {
    const c = text.charCodeAt(i);
    switch (c) {
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        open.push(c);
        opensAt.push(i);
        nameNext = c === OPEN_OBJECT;
        i++;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        open.pop();
        opensAt.pop();
        i++;
        // (closed whole: not cut off)
        if (open.length === 0) return undefined;
        nameNext = false;
        completed(i);
        break;
      case QUOTE: {
        const end = jsonStringEnd(text, i);
        if (end < 0) break scan;
        i = end + 1;
        if (nameNext && open[open.length - 1] === OPEN_OBJECT) nameNext = false;
        else completed(i);
        break;
      }
      case COMMA:
        nameNext = open[open.length - 1] === OPEN_OBJECT;
        i++;
        break;
      case COLON:
      case SPACE:
      case TAB:
      case LINE_FEED:
      case CARRIAGE_RETURN:
        i++;
        break;
      default: {
        let j = i;
        while (j < n && !DELIMITERS.has(text.charCodeAt(j))) j++;
        // (cut inside it, or not a JSON literal: what came before is what is whole)
        if (j >= n || !LITERAL.test(text.slice(i, j))) break scan;
        i = j;
        completed(i);
      }
    }
  }
  if (safeAt < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(0, safeAt) + closers);
  } catch {
    return undefined;
  }
  let restAt = safeAt;
  while (restAt < n && (text.charCodeAt(restAt) === COMMA || isSpace(text.charCodeAt(restAt)))) restAt++;
  return { value, restAt, openAt };
}

/**
 * The text of a JSON string value cut off before its closing quote, from its opening quote at
 * `quoteAt` (an escape the cut went through dropped); undefined where the string closes before the
 * end of `text`, or does not decode.
 */
export function textOfCutString(text: string, quoteAt: number): string | undefined {
  if (text.charCodeAt(quoteAt) !== QUOTE || jsonStringEnd(text, quoteAt) >= 0) return undefined;
  // (a cut escape: `\`'s odd backslash at the end, or a `\u` short of its four digits)
  const body = text.slice(quoteAt + 1).replace(/\\u[0-9a-fA-F]{0,3}$/, '');
  const trailing = /\\*$/.exec(body)![0].length;
  try {
    const value: unknown = JSON.parse(`"${trailing % 2 === 1 ? body.slice(0, -1) : body}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A cut-off JSON object or array, as far as it is whole: see {@link completePrefixOfCutJson}. */
export interface CutJson {
  /** The complete members and elements, with the containers the cut left open closed. */
  value: unknown;
  /** Where the first member or element the cut left incomplete starts. */
  restAt: number;
  /**
   * Where each container the cut left open opens in the text, outermost (the value itself) first.
   * Each is the last member or element of the one before it: in `value`, the last element of a
   * list (an object's last member too, unless a key like `"0"` sorts first).
   */
  openAt: number[];
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const DELIMITERS: ReadonlySet<number> = new Set([COMMA, CLOSE_OBJECT, CLOSE_ARRAY, COLON, SPACE, TAB, LINE_FEED, CARRIAGE_RETURN]);
const LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

const isSpace = (c: number) => c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}
