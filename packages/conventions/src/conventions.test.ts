import { describe, expect, it } from 'vitest';
import * as conventions from './index.js';

const ATTRIBUTE_GROUPS = [
  conventions.GenAiAttributes,
  conventions.OtelAttributes,
  conventions.CallAttributes,
  conventions.ArgAttributes,
  conventions.EventAttributes,
  conventions.McpAttributes,
  conventions.ResourceAttributes,
];

describe('conventions', () => {
  it('keeps every attribute key unique across groups', () => {
    const keys = ATTRIBUTE_GROUPS.flatMap((g) => Object.values(g));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('puts every argspan attribute under the argspan. namespace', () => {
    for (const g of [conventions.CallAttributes, conventions.ArgAttributes]) {
      for (const key of Object.values(g)) expect(key).toMatch(/^argspan\.[a-z_.]+$/);
    }
  });

  it('names spans as shared/DESIGN.md says', () => {
    expect(conventions.toolCallSpanName('calendar.create')).toBe('execute_tool calendar.create');
    expect(conventions.argumentSpanName('attendee.email')).toBe('tool_arg attendee.email');
    expect(conventions.hopSpanName('summarise')).toBe('hop summarise');
  });

  it('cuts a long tool name or key in a span name to MAX_SPAN_NAME_PART units, ending in …, never inside a surrogate pair', () => {
    const max = conventions.MAX_SPAN_NAME_PART;
    const key = 'k'.repeat(100_000);
    expect(conventions.argumentSpanName(key)).toBe(`tool_arg ${'k'.repeat(max - 1)}…`);
    expect(conventions.toolCallSpanName('t'.repeat(max))).toBe(`execute_tool ${'t'.repeat(max)}`);
    const emoji = 'x'.repeat(max - 3) + '😀'.repeat(10);
    const part = conventions.hopSpanName(emoji).slice('hop '.length);
    expect(part.length).toBeLessThanOrEqual(max);
    expect(part.endsWith('…')).toBe(true);
    expect(part.isWellFormed()).toBe(true);
  });

  it('ranks unknown above public labels so it is never outvoted', () => {
    const s = conventions.RESIDENCY_STRENGTH;
    expect(s.secret).toBeGreaterThan(s['dirty-tree']);
    expect(s['dirty-tree']).toBeGreaterThan(s.unknown);
    expect(s.unknown).toBeGreaterThan(s['bulky-public']);
    expect(s['bulky-public']).toBeGreaterThan(s['tiny-public']);
  });
});

describe('README span reference', () => {
  it('documents every attribute key and event name the code defines', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const missing = [...ATTRIBUTE_GROUPS, conventions.HopEvents].flatMap((g) => Object.values(g)).filter((key) => !readme.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });
});
