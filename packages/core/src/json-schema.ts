/** Helpers that read what a tool's JSON schema (MCP `inputSchema`, function-tool parameters) declares. */

type Schema = { properties?: Record<string, Schema>; items?: Schema | Schema[]; default?: unknown } & Record<string, unknown>;

function asSchema(v: unknown): Schema | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined;
}

function walk(schema: unknown, prefix: string, visit: (path: string, s: Schema) => void, depth: number): void {
  const s = asSchema(schema);
  if (!s || depth > 32) return;
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const c = asSchema(child);
    if (!c) continue;
    visit(path, c);
    walk(c, path, visit, depth + 1);
    const items = Array.isArray(c.items) ? c.items : c.items ? [c.items] : [];
    for (const item of items) walk(item, path, visit, depth + 1);
  }
}

/** Dotted property paths a schema declares (`attendee`, `attendee.email`); array items share their array's path. */
export function publicKeysFromJsonSchema(schema: unknown): string[] {
  const keys: string[] = [];
  walk(schema, '', (path) => keys.push(path), 0);
  return keys;
}

/** Schema defaults by dotted path (`send_updates: "all"`), for provenance. */
export function defaultsFromJsonSchema(schema: unknown): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  walk(schema, '', (path, s) => {
    if ('default' in s) defaults[path] = s.default;
  }, 0);
  return defaults;
}

/**
 * What a remote hop may send: `args` without the keys the tool's public schema does not declare.
 * Returns the stripped copy and the dotted paths that were removed (never their values).
 */
export function stripToPublicSchema(args: unknown, publicKeys: readonly string[]): { args: unknown; stripped: string[] } {
  const declared = new Set(publicKeys);
  const hasChildren = new Set<string>();
  for (const k of publicKeys) {
    const parts = k.split('.');
    for (let i = 1; i < parts.length; i++) hasChildren.add(parts.slice(0, i).join('.'));
  }
  const stripped: string[] = [];
  const strip = (value: unknown, prefix: string, depth: number): unknown => {
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => strip(v, prefix, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const path = prefix === '' ? k : `${prefix}.${k}`;
      if (!declared.has(path)) {
        stripped.push(path);
        continue;
      }
      out[k] = hasChildren.has(path) ? strip(v, path, depth + 1) : v;
    }
    return out;
  };
  return { args: strip(args, '', 0), stripped };
}
