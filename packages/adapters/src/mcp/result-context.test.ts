import { describe, expect, it } from 'vitest';
import { mcpResultContext } from './result-context.js';

describe('mcpResultContext', () => {
  it('keeps text items, embedded text resources and structured content; drops base64 media', () => {
    expect(
      mcpResultContext({
        content: [
          { type: 'text', text: 'see docs/notes.md' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a', text: 'ticket TCK-1' } },
        ],
        structuredContent: { id: 42 },
      }),
    ).toEqual({ text: ['see docs/notes.md', 'ticket TCK-1'], structured: { id: 42 } });
  });

  it('returns the texts alone without structured content, and nothing for a media-only result', () => {
    expect(mcpResultContext({ content: [{ type: 'text', text: 'a' }] })).toEqual(['a']);
    expect(mcpResultContext({ content: [{ type: 'audio', data: 'AAAA' }] })).toBeUndefined();
    expect(mcpResultContext('plain')).toBe('plain');
  });
});
