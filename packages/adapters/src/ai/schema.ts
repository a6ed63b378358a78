/**
 * The JSON schema of an AI SDK tool's `inputSchema`, without importing `ai`: an AI SDK `Schema`
 * (`jsonSchema(...)`, `zodSchema(...)`, `lazySchema(...)`; its `jsonSchema` may be a promise), a Standard Schema with
 * JSON Schema support (zod 4, …), or a plain JSON schema object. Resolves to `undefined` when none
 * can be read (zod 3, a schema whose conversion throws): then no default is known and nothing is stripped.
 */
export async function jsonSchemaOf(inputSchema: unknown): Promise<unknown> {
  try {
    // `lazySchema(() => schema)` is a function returning the schema, as the AI SDK's `asSchema` reads it.
    const resolved = typeof inputSchema === 'function' ? (inputSchema as () => unknown)() : inputSchema;
    if (resolved === null || typeof resolved !== 'object') return undefined;
    const s = resolved as Record<string, unknown>;
    if ('jsonSchema' in s && s.jsonSchema !== undefined) return await (s.jsonSchema as unknown);
    const standard = s['~standard'] as { jsonSchema?: { input?: (o: { target: string }) => unknown } } | undefined;
    if (typeof standard?.jsonSchema?.input === 'function') return standard.jsonSchema.input({ target: 'draft-07' });
    if ('properties' in s || s.type === 'object') return s;
  } catch {
    // fall through: schema unknown
  }
  return undefined;
}
