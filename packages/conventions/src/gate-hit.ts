/**
 * The writer/reader contract for gate hits: the gate names a flagged leaf by its tool and its key
 * with list indices removed (one guessed recipient flags the list `email.send.to`, once), and every
 * analyzer rule that joins hits to argument spans removes them the same way.
 */

/** A list index in a flattened key (`to[1]`, `files[2].path`), as a regular expression source (JavaScript and DuckDB alike). */
export const LIST_INDEX_PATTERN = '\\[[0-9]+\\]';

const LIST_INDEX = new RegExp(LIST_INDEX_PATTERN, 'g');

/** A flattened key without its list indices: `to[1]` → `to`, `files[2].path` → `files.path`. */
export function keyWithoutIndices(key: string): string {
  return key.includes('[') ? key.replace(LIST_INDEX, '') : key;
}

/** The gate-hit key of a leaf: `{tool}.{key without list indices}` (`email.send.to`). */
export function gateHitKey(tool: string, key: string): string {
  return `${tool}.${keyWithoutIndices(key)}`;
}
