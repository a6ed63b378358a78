import { describe, expect, it } from 'vitest';
import { collectEvidence, TraceEvidence } from './evidence.js';
import type { ForeignEvent, ForeignSpan } from './types.js';

// The message events' other shapes than the Semantic Kernel .NET fixtures': SK Python before
// January 2025 (`json.dumps([m.to_dict() …])`: arguments as a JSON string, plugin-qualified names,
// tool results with their call id), a text completion's prompt, and per-message events whose
// content names no role (Azure AI Inference).
const event = (name: string, attrs: Record<string, string>): ForeignEvent => ({ name, attrs: new Map(Object.entries(attrs)) });
const span = (events: ForeignEvent[]): ForeignSpan => ({
  traceId: 't', spanId: 's1', parentSpanId: null, name: 'chat.completions gpt-4o', startNs: 10n, endNs: 20n, recordedEndNs: 20n, scope: 'semantic_kernel', fileId: 1, attrs: new Map(), events,
});
const evidenceOf = (events: ForeignEvent[]) => {
  const into = new TraceEvidence();
  collectEvidence(span(events), into);
  return into;
};

describe('message events as evidence', () => {
  it('reads SK Python\'s gen_ai.content.prompt / .completion: user and system text, tool results by call id, proposed calls with string arguments', () => {
    const prompt = [
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Boston?' },
      { role: 'assistant', tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'MyPlugin-GetTime', arguments: '{}' } }] },
      { role: 'tool', content: '09:00', tool_call_id: 'call_0' },
    ];
    const completion = [{ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'MyPlugin-GetCurrentWeather', arguments: '{"location": "Boston, MA"}' } }] }];
    const e = evidenceOf([
      event('gen_ai.content.prompt', { 'gen_ai.prompt': JSON.stringify(prompt) }),
      event('gen_ai.content.completion', { 'gen_ai.completion': JSON.stringify(completion) }),
    ]);
    expect([...e.assertedTexts]).toEqual(['You are a weather bot.', 'Weather in Boston?']);
    expect(e.sawUserText).toBe(true);
    expect(e.results).toEqual([{ callId: 'call_0', content: '09:00', atNs: 10n }]);
    // Only the completion's call is proposed; the history's is the model's earlier turn.
    expect(e.proposed.map((p) => [p.tool, p.callId, p.args, p.source])).toEqual([
      ['MyPlugin-GetCurrentWeather', 'call_1', { kind: 'blob', attribute: 'gen_ai.completion', text: '{"location": "Boston, MA"}', decode: {} }, 'model-output'],
    ]);
  });

  it('reads a text completion\'s prompt (plain text) as the user\'s words', () => {
    expect([...evidenceOf([event('gen_ai.content.prompt', { 'gen_ai.prompt': 'Summarise the incident in Boston.' })]).assertedTexts]).toEqual(['Summarise the incident in Boston.']);
  });

  it('takes the role from the event\'s name when the content names none, and a choice\'s calls from beside its message', () => {
    const e = evidenceOf([
      event('gen_ai.system.message', { 'gen_ai.event.content': JSON.stringify({ content: 'Be brief.' }) }),
      event('gen_ai.user.message', { 'gen_ai.event.content': JSON.stringify({ content: 'Book a table in Paris.' }) }),
      event('gen_ai.tool.message', { 'gen_ai.event.content': JSON.stringify({ content: 'ok', id: 'call_7' }) }),
      event('gen_ai.assistant.message', { 'gen_ai.event.content': JSON.stringify({ content: 'Which day?' }) }),
      event('gen_ai.choice', { 'gen_ai.event.content': JSON.stringify({ index: 0, finish_reason: 'tool_calls', message: { content: '' }, tool_calls: [{ id: 'call_8', type: 'function', function: { name: 'book', arguments: { city: 'Paris', time: '19:00' } } }] }) }),
    ]);
    expect([...e.assertedTexts]).toEqual(['Be brief.', 'Book a table in Paris.']);
    expect(e.results.map((r) => [r.callId, r.content])).toEqual([['call_7', 'ok']]);
    expect(e.proposed.map((p) => [p.tool, p.callId, p.args])).toEqual([['book', 'call_8', { kind: 'value', attribute: 'gen_ai.event.content', value: { city: 'Paris', time: '19:00' } }]]);
  });

  it('reads nothing from other events, or from content that is not JSON', () => {
    const e = evidenceOf([event('exception', { 'exception.message': 'Weather in Boston?' }), event('gen_ai.user.message', { 'gen_ai.event.content': 'not json' })]);
    expect([e.assertedTexts.size, e.results.length, e.proposed.length]).toEqual([0, 0, 0]);
  });
});
