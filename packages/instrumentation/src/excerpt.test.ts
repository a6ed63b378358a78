import { describe, expect, it } from 'vitest';
import { classification } from '../test-support/tracing.js';
import { leafExcerpt } from './excerpt.js';

function one(text: string, over: Parameters<typeof classification>[1][number] extends infer L ? Partial<L> : never = {}) {
  const c = classification('t', [{ key: 'v', text, ...over }]);
  return { label: c.leaves[0]!, leaf: c.flat[0]! };
}

describe('leafExcerpt', () => {
  it('cuts to at most 80 chars (never more, whatever is asked)', () => {
    const { label, leaf } = one('y'.repeat(300));
    expect(leafExcerpt(label, leaf)).toBe('y'.repeat(80));
    expect(leafExcerpt(label, leaf, 1000)).toHaveLength(80);
    expect(leafExcerpt(label, leaf, 10)).toBe('y'.repeat(10));
    expect(leafExcerpt(label, leaf, 0)).toBeUndefined();
  });

  it('never excerpts secret or dirty-tree leaves, or a value seen only in part', () => {
    for (const residency of ['secret', 'dirty-tree'] as const) {
      const { label, leaf } = one('harmless looking', { residency });
      expect(leafExcerpt(label, leaf)).toBeUndefined();
    }
    const { label, leaf } = one('abc');
    expect(leafExcerpt(label, { ...leaf, truncated: true })).toBeUndefined();
  });

  it('redacts over the whole value before cutting, so a credential starting inside the window does not leak', () => {
    const key = 'AKIAZZCANARYEXCERPTZ';
    const { label, leaf } = one(`${'p'.repeat(69)} ${key} trailing`);
    const e = leafExcerpt(label, leaf)!;
    expect(e.length).toBeLessThanOrEqual(80);
    expect(e).not.toContain('AKIA');
    expect(e.startsWith('p'.repeat(69) + ' [REDACTED')).toBe(true);
  });

  it('does not split a surrogate pair', () => {
    const { label, leaf } = one('x'.repeat(79) + '😀' + 'z');
    expect(leafExcerpt(label, leaf)).toBe('x'.repeat(79));
  });
});
