import { describe, expect, it } from 'vitest';
import { ArgspanSession } from './session.js';

const sc = (spanId: string) => ({ traceId: '0'.repeat(31) + '1', spanId, traceFlags: 1 });

describe('ArgspanSession', () => {
  it('keeps the most recent context entries and call span contexts, within bounds', () => {
    const s = new ArgspanSession({ runId: 'r', maxContextEntries: 2, maxLinkedCalls: 2 });
    s.recordCall('a', sc('a'.repeat(16)), 'A');
    s.recordCall('b', sc('b'.repeat(16)), undefined);
    s.recordCall('c', sc('c'.repeat(16)), 'C');
    s.addContext({ content: 'retrieved' });
    expect(s.context).toEqual([{ callId: 'c', content: 'C' }, { content: 'retrieved' }]);
    expect(s.spanContextOf('a')).toBeUndefined();
    expect(s.spanContextOf('c')?.spanId).toBe('c'.repeat(16));
  });

  it('generates call ids under its run id and replaces (never mutates) what classification saw', () => {
    const s = new ArgspanSession({ runId: 'run-9', userText: 'hello' });
    expect([s.nextCallId(), s.nextCallId()]).toEqual(['run-9:1', 'run-9:2']);
    const before = s.callContext({ publicKeys: ['q'] });
    s.addUserText('again');
    expect(before.userText).toEqual(['hello']);
    expect(s.callContext(undefined)).toEqual({ userText: ['hello', 'again'], context: [] });
  });

  it('rejects bad bounds, naming the option', () => {
    expect(() => new ArgspanSession({ maxContextEntries: 0 })).toThrow(/maxContextEntries/);
  });
});
