import { jsonSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from './schema.js';

describe('jsonSchemaOf', () => {
  it('reads zod 4 (Standard JSON Schema), the AI SDK jsonSchema() wrapper and plain JSON schema', async () => {
    const zod = (await jsonSchemaOf(z.object({ units: z.enum(['c', 'f']).default('c') }))) as { properties: { units: { default: string } } };
    expect(zod.properties.units.default).toBe('c');
    const plain = { type: 'object', properties: { q: { type: 'string', default: 'x' } } };
    expect(await jsonSchemaOf(jsonSchema(plain))).toEqual(plain);
    expect(await jsonSchemaOf(plain)).toBe(plain);
    // lazySchema(() => schema) from @ai-sdk/provider-utils is a plain function returning the schema.
    expect(await jsonSchemaOf(() => jsonSchema(plain))).toEqual(plain);
  });

  it('gives undefined (schema unknown) for what it cannot read, including a conversion that throws', async () => {
    expect(await jsonSchemaOf(undefined)).toBeUndefined();
    expect(await jsonSchemaOf({ parse: () => 1 })).toBeUndefined();
    expect(await jsonSchemaOf({ '~standard': { jsonSchema: { input: () => { throw new Error('no'); } } } })).toBeUndefined();
    expect(await jsonSchemaOf({ jsonSchema: Promise.reject(new Error('no')) })).toBeUndefined();
  });
});
