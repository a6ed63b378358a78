/** The longest value we look for path names in; longer values are content, not references. */
export const MAX_PATH_SCAN_LENGTH = 4096;

const SPLIT = /[\s"'`,;|()<>{}[\]=]+/;

/**
 * Path-like tokens in a value: `cat ./src/config.py` → [cat, ./src/config.py]. A `:line[:col]`
 * suffix (grep output) is dropped. Values longer than {@link MAX_PATH_SCAN_LENGTH} yield nothing.
 */
export function pathTokens(text: string): string[] {
  if (text.length === 0 || text.length > MAX_PATH_SCAN_LENGTH) return [];
  const out: string[] = [];
  for (const raw of text.split(SPLIT)) {
    if (raw.length === 0) continue;
    out.push(raw.replace(/(?::\d+){1,2}:?$/, ''));
  }
  return out;
}

/** Basename of a `/` or `\` separated path. */
export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? path : path.slice(i + 1);
}
