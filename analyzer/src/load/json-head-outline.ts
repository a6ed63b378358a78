/**
 * The field names the head of a JSON document shows, as far as the head goes: the document's own
 * (in the order written) and, for each of its fields that holds a list, those of the list's
 * first element. Never a value. An API answer's page can be larger than the head and may write
 * its small fields (`meta`, `cursors`) after its list, so a reader is recognised by what its
 * first record looks like, which the head holds.
 */
export interface JsonHeadOutline {
  /** Field names of the top-level object (none for a list). */
  keys: string[];
  /** Field names of the first element of each list, by the field holding it (`''` for a document that is a list); absent when that element is not an object. */
  firstRecord: Map<string, string[]>;
  /**
   * The list (by the field holding it, `''` for a document that is a list) whose first record was
   * still open where the text ended: its field names so far may lack those written after a large
   * field, and a longer head would show them. Undefined when no first record was cut off.
   */
  cutRecord?: string;
}

/** Outline of the first JSON value in `text`, which may stop anywhere (a head cut mid-value). */
export function outlineJsonHead(text: string): JsonHeadOutline {
  const keys: string[] = [];
  const firstRecord = new Map<string, string[]>();
  /** Open containers, outermost first: `{` or `[`. */
  const stack: string[] = [];
  /** Inside an object: the next string is a field name. */
  let keyNext = false;
  /** The top-level field whose value is being read. */
  let topKey = '';
  /** The list whose first element comes next (set on its `[`, cleared by that element). */
  let listAwaitingFirst: string | undefined;
  /** The first-record field list being filled, and the depth of that record's object. */
  let record: string[] | undefined;
  let recordDepth = -1;
  let recordHolder = '';
  /** The text ended before the outline did (not a closed document, not a broken one). */
  let cut = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (listAwaitingFirst !== undefined && c !== ']') {
      if (c === '{') {
        record = [];
        recordDepth = stack.length + 1;
        recordHolder = listAwaitingFirst;
        firstRecord.set(listAwaitingFirst, record);
      }
      listAwaitingFirst = undefined;
    }
    if (c === '"') {
      const end = jsonStringEnd(text, i);
      if (end < 0) break;
      if (keyNext) {
        const name = jsonString(text.slice(i, end + 1));
        // Not JSON here: the outline ends, and the file's reader names what is wrong.
        if (name === undefined) {
          cut = false;
          break;
        }
        if (stack.length === 1) {
          keys.push(name);
          topKey = name;
        } else if (stack.length === recordDepth) record!.push(name);
        keyNext = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      stack.push(c);
      keyNext = c === '{';
      if (c === '[') {
        const holder = stack.length === 1 ? '' : stack.length === 2 && stack[0] === '{' ? topKey : undefined;
        if (holder !== undefined && !firstRecord.has(holder)) listAwaitingFirst = holder;
      }
    } else if (c === '}' || c === ']') {
      if (stack.length === recordDepth) recordDepth = -1;
      stack.pop();
      keyNext = false;
      if (stack.length === 0) {
        cut = false;
        break;
      }
    } else if (c === ',') keyNext = stack[stack.length - 1] === '{';
  }
  return { keys, firstRecord, ...(cut && recordDepth !== -1 && stack.length >= recordDepth ? { cutRecord: recordHolder } : {}) };
}

function jsonString(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

/** Index of the quote closing the JSON string that opens at `start` (its escapes skipped), or -1 when the text ends first. */
export function jsonStringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
  }
  return -1;
}
