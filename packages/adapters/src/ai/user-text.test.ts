import { describe, expect, it } from 'vitest';
import { userTextsOf } from './user-text.js';

describe('userTextsOf', () => {
  it('collects user string content and text parts, skipping other roles and parts', () => {
    expect(
      userTextsOf([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'Book a follow-up with Priya' },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: [{ type: 'text', text: 'at 9' }, { type: 'image', image: 'x' }] },
        null,
      ]),
    ).toEqual(['Book a follow-up with Priya', 'at 9']);
    expect(userTextsOf(undefined)).toEqual([]);
  });
});
