/** Split a key into lower-case words: `x-api-key` → [x, api, key]; `clientSecret` → [client, secret]. */
export function keyWords(key: string): string[] {
  const cached = memo.get(key);
  if (cached) return cached;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
  // Tool schemas repeat the same few keys on every call; a small bounded memo keeps this off the hot path.
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, words);
  return words;
}

const MEMO_LIMIT = 4096;
const memo = new Map<string, string[]>();
