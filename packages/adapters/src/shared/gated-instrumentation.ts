import type { ClassifyContext } from '@argspan/core';
import { classifySnapshot } from '@argspan/core/internal';
import { defaultsFromJsonSchema, publicKeysFromJsonSchema } from '@argspan/core';
import { ArgspanInstrumentation } from '@argspan/instrumentation';
import type { Classifier, ToolSchema } from '@argspan/instrumentation';
import type { AdapterOptions } from './types.js';

/** What a framework tells about one of its tools. */
export interface LearnedTool {
  jsonSchema?: unknown;
  /** `gen_ai.tool.type`: `function` for code the agent runs, `extension` for an MCP server's tool. */
  type: 'function' | 'extension';
  description?: unknown;
}

/** An instrumentation whose tool schemas can still be learned after it was built. */
export interface GatedInstrumentation {
  instrumentation: ArgspanInstrumentation;
  /**
   * Record what the framework says about a tool — its JSON input schema, its GenAI tool type and
   * description — unless the user configured a schema for that tool.
   */
  learnTool(tool: string, about: LearnedTool): void;
  /** Whether a schema (configured or learned) is known for `tool`. */
  hasSchema(tool: string): boolean;
}

/** What argspan reads from a JSON schema: declared keys (public-schema stripping) and defaults. */
export function toolSchemaFromJsonSchema(jsonSchema: unknown): ToolSchema {
  return { publicKeys: publicKeysFromJsonSchema(jsonSchema), defaults: defaultsFromJsonSchema(jsonSchema) };
}

/**
 * Build the instrumentation an adapter dispatches through: the user's configuration (its policy
 * decides verdict and enforcement exactly as for `instrumentDispatch`) and a schema table that
 * the framework's tool listings add to.
 */
export function gatedInstrumentation(options: AdapterOptions = {}): GatedInstrumentation {
  const { schemas: configured = {}, classifier, ...config } = options;
  // One live table: configured schemas win over learned ones; the instrumentation reads it per call.
  const schemas: Record<string, ToolSchema> = { ...configured };
  const learned = (tool: string): ToolSchema | undefined => (Object.hasOwn(schemas, tool) ? schemas[tool] : undefined);
  const instrumentation = new ArgspanInstrumentation({
    ...config,
    schemas,
    classifier: withLearnedSchema(classifier ?? classifySnapshot, learned),
  });
  return {
    instrumentation,
    learnTool(tool, about) {
      if (Object.hasOwn(configured, tool)) return;
      schemas[tool] = {
        ...schemas[tool],
        ...(about.jsonSchema !== undefined ? toolSchemaFromJsonSchema(about.jsonSchema) : {}),
        type: about.type,
        ...(typeof about.description === 'string' && about.description !== '' ? { description: about.description } : {}),
      };
    },
    hasSchema: (tool) => Object.hasOwn(schemas, tool),
  };
}

/**
 * Wrap a classifier so that schemas the adapter learned at run time (MCP `listTools`, a tool's
 * input schema) reach classification even when the instrumentation was built before they were
 * known. A throw in `base` propagates, so the instrumentation fails closed.
 */
function withLearnedSchema(base: Classifier, learned: (tool: string) => ToolSchema | undefined): Classifier {
  return (call, ctx, options) => base(call, withSchema(ctx, learned(call.tool)), options);
}

/** `ctx` with the learned schema's fields filled in where the instrumentation supplied none. */
function withSchema(ctx: ClassifyContext, schema: ToolSchema | undefined): ClassifyContext {
  if (!schema) return ctx;
  const out: ClassifyContext = { ...ctx };
  if (out.schemaDefaults === undefined && schema.defaults) out.schemaDefaults = schema.defaults;
  if (out.safeDefaults === undefined && schema.safeDefaults) out.safeDefaults = schema.safeDefaults;
  if (out.publicSchemaKeys === undefined && schema.publicKeys) out.publicSchemaKeys = schema.publicKeys;
  return out;
}
