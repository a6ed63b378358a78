import { describe, expect, it } from 'vitest';
import { ArgspanSession } from './session.js';

const sc = (spanId: string) => ({ traceId: '0'.repeat(31) + '1', spanId, traceFlags: 1 });

describe('ArgspanSession', () => {
  it('keeps at least the most recent context entries (forgetting in batches) and call span contexts, within bounds', () => {
    const s = new ArgspanSession({ runId: 'r', maxContextEntries: 2, maxLinkedCalls: 2 });
    s.recordCall('a', sc('a'.repeat(16)), 'A');
    s.recordCall('b', sc('b'.repeat(16)), undefined);
    s.recordCall('c', sc('c'.repeat(16)), 'C');
    s.recordCall('d', sc('d'.repeat(16)), 'D');
    expect(s.context).toEqual([{ callId: 'a', content: 'A' }, { callId: 'c', content: 'C' }, { callId: 'd', content: 'D' }]);
    s.addContext({ content: 'retrieved' });
    expect(s.context).toHaveLength(4);
    s.addContext({ content: 'more' });
    expect(s.context).toEqual([{ content: 'retrieved' }, { content: 'more' }]);
    expect(s.spanContextOf('a')).toBeUndefined();
    expect(s.spanContextOf('b')).toBeUndefined();
    expect(s.spanContextOf('c')?.spanId).toBe('c'.repeat(16));
    expect(s.spanContextOf('d')?.spanId).toBe('d'.repeat(16));
  });

  it('generates call ids under its run id and replaces (never mutates) what classification saw', () => {
    const s = new ArgspanSession({ runId: 'run-9', userText: 'hello' });
    expect([s.nextCallId(), s.nextCallId()]).toEqual(['run-9:1', 'run-9:2']);
    const before = s.callContext({ publicKeys: ['q'] });
    s.addUserText('again');
    expect(before.userText).toEqual(['hello']);
    const { index, ...rest } = s.callContext(undefined);
    expect(rest).toEqual({ userText: ['hello', 'again'], context: [] });
    expect(index?.find('again')).toEqual({ source: 'user' });
  });

  it('keeps a result that passes on secret or dirty-tree past the others, and its values inherit the label', () => {
    const s = new ArgspanSession({ maxContextEntries: 2 });
    s.addContext({ callId: 'vault', content: 'DB_PASSWORD=correct-horse-battery-staple', residency: 'secret' });
    s.addContext({ callId: 'diff', content: 'uncommitted line 42', residency: 'dirty-tree' });
    for (let i = 0; i < 70; i++) s.addContext({ callId: `ls${i}`, content: `listing ${i}` });
    expect(s.context.map((e) => e.callId).slice(0, 2)).toEqual(['vault', 'diff']);
    expect(s.context.length).toBeLessThanOrEqual(2 + 2 * 2);
    expect(s.context.map((e) => e.callId)).not.toContain('ls0');
    const found = s.callContext(undefined).index!.find('correct-horse-battery-staple', { find: () => undefined, findAll: () => [] } as never);
    expect(found).toEqual({ source: 'context', callId: 'vault', inherited: 'secret' });
  });

  it('rejects bad bounds, naming the option', () => {
    expect(() => new ArgspanSession({ maxContextEntries: 0 })).toThrow(/maxContextEntries/);
  });
});

describe('ArgspanSession provenance index', () => {
  it('finds values in user text and in kept results only, with the supplying call id', () => {
    const s = new ArgspanSession({ userText: 'invite Kenji', maxContextEntries: 1 });
    s.recordCall('c1', sc('1'.repeat(16)), { email: 'old@example.com' });
    s.recordCall('c2', sc('2'.repeat(16)), { email: 'kenji@example.jp' });
    const index = () => s.callContext(undefined).index!;
    expect(index().find('Kenji')).toEqual({ source: 'user' });
    expect(index().find('kenji@example.jp')).toEqual({ source: 'context', callId: 'c2' });
    expect(index().find('old@example.com')).toEqual({ source: 'context', callId: 'c1' });
    s.recordCall('c3', sc('3'.repeat(16)), 'nothing');
    expect(index().find('old@example.com')).toBeUndefined();
    expect(index().find('Kenji')).toEqual({ source: 'user' });
  });
});
