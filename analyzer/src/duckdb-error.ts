/**
 * DuckDB's error messages quote the data they choke on: a whole CSV line, a JSON fragment, a
 * value that did not cast. None of that text may reach a user, so a DuckDB error is never
 * printed as it is: {@link describeDuckDbError} names its kind from a fixed list of phrases,
 * built only from words this file holds (and DuckDB's type names), never from the message.
 */

/** DuckDB's error classes, as the first words of its messages ("Invalid Input Error: …"). */
const DUCKDB_ERROR_CLASS = /^(Invalid Input|Conversion|IO|Out of Memory|Binder|Parser|Catalog|Constraint|Invalid Type|Not Implemented|Internal|Permission|Serialization|Transaction|Out of Range|Interrupt|Dependency|Syntax|Fatal|INTERNAL) Error\b/;

/** JSON type names that DuckDB's transform errors name ("Expected OBJECT, but got ARRAY"). */
const JSON_TYPE = /^(OBJECT|ARRAY|STRING|NULL|BOOLEAN|NUMBER|VARCHAR|BIGINT|UBIGINT|DOUBLE|INTEGER)$/;

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** True for an error DuckDB raised (its message starts with one of its error classes). */
export function isDuckDbError(err: unknown): boolean {
  return DUCKDB_ERROR_CLASS.test(messageOf(err));
}

/** True when DuckDB ran out of memory (under the memory limit). */
export function isOutOfMemory(err: unknown): boolean {
  return /^Out of Memory Error\b/.test(messageOf(err));
}

/** {@link describeDuckDbError}'s words for JSON DuckDB could not parse. */
export const NOT_JSON = 'not valid JSON';

/** What went wrong, in fixed words: safe to print whatever the input held. */
export function describeDuckDbError(err: unknown): string {
  const msg = messageOf(err);
  if (/invalid UTF-8|Invalid unicode/i.test(msg)) return 'invalid UTF-8';
  if (/^Out of Memory Error\b/.test(msg)) return 'DuckDB ran out of memory';
  if (/maximum_object_size|maximum object size/i.test(msg)) return 'a JSON record larger than the maximum object size';
  if (/Malformed JSON|unexpected end of data|unexpected character/i.test(msg)) return NOT_JSON;
  const transform = /JSON transform error[^\n]*?Expected ([A-Z]+), but got ([A-Z]+)/.exec(msg);
  if (transform && JSON_TYPE.test(transform[1]!) && JSON_TYPE.test(transform[2]!)) return `JSON of another shape (expected ${transform[1]}, got ${transform[2]})`;
  if (/JSON transform error/.test(msg)) return 'JSON of another shape';
  // Raised by argspan's own any-value function (its whole message: no data follows).
  if (/^Conversion Error\b|Could not convert|^Invalid Input Error: a value of the wrong type for its field$/.test(msg)) return 'a value of the wrong type';
  if (/Data corruption|ZSTD|zstd/.test(msg)) return 'zstd data is corrupt';
  if (/gzip|GZIP/.test(msg)) return 'gzip data is corrupt';
  const cls = DUCKDB_ERROR_CLASS.exec(msg)?.[1];
  return cls ? `DuckDB ${cls} Error (its message is withheld: it may quote the input)` : 'an error (its message is withheld: it may quote the input)';
}

/**
 * An error message of unknown origin, made safe to print: its first line only, cut at the first
 * quote or backtick. JSON.parse, DuckDB and Node put the offending text after one, and it may
 * hold quotes of its own, so no attempt is made to find where the quoted text ends.
 */
export function redactErrorMessage(err: unknown): string {
  if (isDuckDbError(err)) return describeDuckDbError(err);
  const name = err instanceof Error ? err.name : 'Error';
  const first = messageOf(err).split('\n', 1)[0] ?? '';
  const cut = first.search(/["'`]/);
  return `${name}: ${(cut < 0 ? first : `${first.slice(0, cut)}…`).slice(0, 200)}`;
}
