/** The text of every `role: 'user'` message (string content, or its `text` parts), in order. */
export function userTextsOf(messages: readonly unknown[] | undefined): string[] {
  const out: string[] = [];
  if (!Array.isArray(messages)) return out;
  for (const m of messages as unknown[]) {
    if (m === null || typeof m !== 'object') continue;
    const { role, content } = m as { role?: unknown; content?: unknown };
    if (role !== 'user') continue;
    if (typeof content === 'string') {
      if (content !== '') out.push(content);
    } else if (Array.isArray(content)) {
      for (const part of content as unknown[]) {
        const p = part as { type?: unknown; text?: unknown } | null;
        if (p && p.type === 'text' && typeof p.text === 'string' && p.text !== '') out.push(p.text);
      }
    }
  }
  return out;
}
