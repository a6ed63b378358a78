import { describe, expect, it } from 'vitest';
import { classification } from '../test-support/tracing.js';
import { argsHashInput, bytesAfterRedaction, selectArgSpans } from './span-attributes.js';

describe('selectArgSpans', () => {
  it('emits every leaf under the cap', () => {
    expect(selectArgSpans(classification('t', [{ key: 'a', text: '1' }]), 1)).toBeUndefined();
  });

  it('over the cap keeps the evidence leaves first, then fills in argument order', () => {
    const c = classification(
      't',
      [
        { key: 'a', text: '1' },
        { key: 'b', text: '2' },
        { key: 'c', text: '3' },
        { key: 'tz', text: 'x', provenance: 'model_inferred', denylisted: true },
        { key: 'e', text: '5' },
        { key: 'k', text: 'x', residency: 'secret' },
        { key: 'g', text: '7', provenance: 'context_retrieved' },
      ],
      { gate: { action: 'ask', hits: ['t.tz'] } },
    );
    expect(selectArgSpans(c, 4)).toEqual([0, 3, 5, 6]);
    expect(selectArgSpans(c, 2)).toEqual([3, 5]);
    expect(selectArgSpans(c, 0)).toEqual([]);
  });
});

describe('bytesAfterRedaction', () => {
  it('counts only what would leave: no secret or dirty-tree leaves, no stripped keys', () => {
    const c = classification(
      't',
      [
        { key: 'a', text: '12345' },
        { key: 'k', text: 'secret!', residency: 'secret' },
        { key: 'd', text: 'dirty', residency: 'dirty-tree' },
        { key: 'x', text: 'stripped' },
      ],
      { strippedKeys: ['x'] },
    );
    expect(bytesAfterRedaction(c)).toBe(5);
  });
});

describe('argsHashInput', () => {
  it('is unambiguous about where a key or value ends', () => {
    const one = classification('t', [{ key: 'a', text: 'bc' }]).flat;
    const two = classification('t', [{ key: 'ab', text: 'c' }]).flat;
    const split = classification('t', [
      { key: 'a', text: 'b' },
      { key: 'c', text: '' },
    ]).flat;
    const inputs = [argsHashInput(one), argsHashInput(two), argsHashInput(split)];
    expect(new Set(inputs).size).toBe(3);
  });
});
