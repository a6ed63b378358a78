import { describe, expect, it } from 'vitest';
import { parseTraceSpans, type NonTextKeys, type SpanJson } from './span-json.js';

const spanText = (k: string[], v: (string | null)[]): string => JSON.stringify({ s: 's1', p: null, n: 'chat', b: '1', e: '2', c: null, f: 1, k, v, a: [] } satisfies SpanJson);
const NONE: NonTextKeys = { keys: new Set() };

describe('parseTraceSpans: a repeated attribute key', () => {
  const ARGS = 'gen_ai.tool.call.arguments';

  it('reads the last value, and keeps the earlier ones that differ from it as shadowed', () => {
    const [span] = parseTraceSpans('t1', [spanText([ARGS, 'other', ARGS, ARGS], ['{"path":"/app/.env"}', 'x', '{"path":"notes.txt"}', '{"path":"b.txt"}'])], [], NONE);
    expect(span!.attrs.get(ARGS)).toBe('{"path":"b.txt"}');
    expect(span!.shadowed).toEqual(new Map([[ARGS, ['{"path":"/app/.env"}', '{"path":"notes.txt"}']]]));
  });

  it('shadows nothing when the copies are equal, or a copy is not a string', () => {
    const [span] = parseTraceSpans('t1', [spanText([ARGS, ARGS, ARGS], ['{"city":"Paris"}', null, '{"city":"Paris"}'])], [], NONE);
    expect(span!.attrs.get(ARGS)).toBe('{"city":"Paris"}');
    expect(span!.shadowed).toBeUndefined();
  });
});

describe('parseTraceSpans: an event attribute key written twice', () => {
  const CONTENT = 'gen_ai.event.content';

  it('reads the last value, and keeps the earlier ones that differ from it as the event\'s shadowed', () => {
    const text = JSON.stringify({ ...(JSON.parse(spanText([], [])) as SpanJson), x: [{ n: 'gen_ai.choice', k: [CONTENT, CONTENT], v: ['{"a":1}', '{"a":2}'] }, { n: 'gen_ai.choice', k: [CONTENT, CONTENT], v: ['{"a":1}', '{"a":1}'] }] });
    const [span] = parseTraceSpans('t1', [text], [], NONE);
    expect(span!.events!.map((e) => [e.attrs.get(CONTENT), e.shadowed])).toEqual([['{"a":2}', new Map([[CONTENT, ['{"a":1}']]])], ['{"a":1}', undefined]]);
  });
});

describe('parseTraceSpans: an argument attribute of another type than a string', () => {
  const ARGS = 'gen_ai.tool.call.arguments';
  const ARGUMENT_KEYS: ReadonlySet<string> = new Set([ARGS]);

  it('is named in `nonText` (`v` holds strings only), not among the string attributes; another key of no string is not', () => {
    const [span] = parseTraceSpans('t1', [spanText([ARGS, 'gen_ai.usage.input_tokens'], [null, null])], [], { keys: ARGUMENT_KEYS });
    expect([span!.attrs.has(ARGS), span!.nonText, span!.shadowed]).toEqual([false, new Set([ARGS]), undefined]);
    expect(parseTraceSpans('t1', [spanText([ARGS], ['{}'])], [], { keys: ARGUMENT_KEYS })[0]!.nonText).toBeUndefined();
  });

  it('written again as a string, the string is read with an earlier copy of no text (shadowed), so the copies disagree', () => {
    for (const values of [['{"path":"notes.txt"}', null], [null, '{"path":"notes.txt"}']]) {
      const [span] = parseTraceSpans('t1', [spanText([ARGS, ARGS], values)], [], { keys: ARGUMENT_KEYS });
      expect([span!.attrs.get(ARGS), span!.nonText, span!.shadowed]).toEqual(['{"path":"notes.txt"}', undefined, new Map([[ARGS, ['']]])]);
    }
  });
});

describe('parseTraceSpans: a flattened key of another type than a string', () => {
  it('is named in `nonText` where `flattened` says so, and only there', () => {
    const content = 'llm.input_messages.0.message.content';
    const keys: NonTextKeys = { keys: new Set(), flattened: (key) => key.endsWith('.content') };
    const [span] = parseTraceSpans('t1', [spanText([content, 'llm.token_count.prompt'], [null, null])], [], keys);
    expect(span!.nonText).toEqual(new Set([content]));
  });
});
