/** Helpers that read what a tool's JSON schema (MCP `inputSchema`, function-tool parameters) declares. */

type Schema = { properties?: Record<string, Schema>; items?: Schema | Schema[]; default?: unknown } & Record<string, unknown>;

function asSchema(v: unknown): Schema | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined;
}

/**
 * A schema with a local `$ref` (`#/$defs/Slot`, as Pydantic and zod write sub-models) read through
 * it, its own keywords (a `default` beside the `$ref`) kept over the target's.
 */
function resolve(s: Schema, root: Schema, depth: number): Schema {
  const ref = s.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 32) return s;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) target = asSchema(target)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  const t = asSchema(target);
  if (!t) return s;
  const { $ref: _, ...own } = s;
  return { ...resolve(t, root, depth + 1), ...own };
}

/** The schemas a field may take besides its own (`allOf` / `anyOf` / `oneOf`: an optional sub-model is `anyOf: [{$ref}, {type: null}]`). */
function alternatives(s: Schema): Schema[] {
  const out: Schema[] = [];
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list)) for (const x of list) { const a = asSchema(x); if (a) out.push(a); }
  }
  return out;
}

function walk(schema: unknown, prefix: string, visit: (path: string, s: Schema) => void, depth: number, root: Schema | undefined = asSchema(schema)): void {
  const given = asSchema(schema);
  if (!given || !root || depth > 32) return;
  const s = resolve(given, root, depth);
  for (const alt of alternatives(s)) walk(alt, prefix, visit, depth + 1, root);
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const raw = asSchema(child);
    if (!raw) continue;
    const c = resolve(raw, root, depth + 1);
    visit(path, c);
    walk(c, path, visit, depth + 1, root);
    const items = Array.isArray(c.items) ? c.items : c.items ? [c.items] : [];
    for (const item of items) walk(item, path, visit, depth + 1, root);
  }
}

/** Dotted property paths a schema declares (`attendee`, `attendee.email`); array items share their array's path. */
export function publicKeysFromJsonSchema(schema: unknown): string[] {
  const keys: string[] = [];
  walk(schema, '', (path) => keys.push(path), 0);
  return keys;
}

/**
 * Values the schema asserts, by dotted path, for provenance: a `default` (`send_updates: "all"`),
 * or the only value it allows (`const`, a one-value `enum`: a `Literal["USD"]`), which the model
 * could not have chosen. The first a path declares wins (a field's own over an alternative's).
 */
export function defaultsFromJsonSchema(schema: unknown): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  walk(schema, '', (path, s) => {
    if (path in defaults) return;
    if ('default' in s) defaults[path] = s.default;
    else if ('const' in s) defaults[path] = s.const;
    else if (Array.isArray(s.enum) && s.enum.length === 1) defaults[path] = s.enum[0];
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
