import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultsFromJsonSchema } from '@argspan/core';
import { describe, expect, it } from 'vitest';
import { zodDefaultsAsJsonSchema } from './voltagent.js';

/** The `tool.parameters` VoltAgent 2.10 recorded for the supervisor run's getWeather (Zod 4's object as JSON). */
function recordedParameters(): unknown {
  const doc = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../fixtures/traces/foreign/voltagent-2.10-supervisor-weather-subagent.json', import.meta.url)), 'utf8'));
  const spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] = doc.resourceSpans[0].scopeSpans[0].spans;
  const tool = spans.find((s) => s.name === 'tool.execution:getWeather')!;
  return JSON.parse(tool.attributes.find((a) => a.key === 'tool.parameters')!.value.stringValue!);
}

const field = (type: string, extra: Record<string, unknown> = {}) => ({ def: { type, ...extra }, type });

describe('zodDefaultsAsJsonSchema: the defaults of a Zod 4 object recorded as JSON', () => {
  it('reads the recorded schema\'s default (units), and nothing for the fields without one', () => {
    expect(defaultsFromJsonSchema(zodDefaultsAsJsonSchema(recordedParameters()))).toEqual({ units: 'metric' });
  });

  it('looks through optional, nullable and read-only wrappers, and into nested objects', () => {
    const schema = field('object', {
      shape: {
        a: field('optional', { innerType: field('default', { defaultValue: 3, innerType: field('number') }) }),
        b: field('object', { shape: { c: field('nullable', { innerType: field('default', { defaultValue: 'x', innerType: field('string') }) }) } }),
        d: field('readonly', { innerType: field('string') }),
      },
    });
    expect(defaultsFromJsonSchema(zodDefaultsAsJsonSchema(schema))).toEqual({ a: 3, 'b.c': 'x' });
  });

  it('another shape (JSON Schema, Zod 3\'s `_def`, not an object) is no Zod 4 object', () => {
    expect(zodDefaultsAsJsonSchema({ type: 'object', properties: { a: { default: 1 } } })).toBeUndefined();
    expect(zodDefaultsAsJsonSchema({ _def: { typeName: 'ZodObject' } })).toBeUndefined();
    expect(zodDefaultsAsJsonSchema('text')).toBeUndefined();
    // (a schema nested past any real one's depth is read no further)
    let deep: unknown = field('string');
    for (let i = 0; i < 100; i++) deep = field('optional', { innerType: deep });
    expect(zodDefaultsAsJsonSchema(deep)).toBeUndefined();
  });
});
