/** Whether a value is an async iterable (a streamed result: the AI SDK's `async function*` tools). */
export function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';
}
