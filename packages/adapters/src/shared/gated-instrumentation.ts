import { RESIDENCY_ORDER } from '@argspan/conventions';
import type { Residency } from '@argspan/conventions';
import { classifyCall, defaultsFromJsonSchema, publicKeysFromJsonSchema } from '@argspan/core';
import { ArgspanInstrumentation } from '@argspan/instrumentation';
import type { ToolSchema } from '@argspan/instrumentation';
import { DEFAULT_REFUSE_RESIDENCIES, keepLocalClassifier } from './keep-local-classifier.js';
import type { AdapterOptions } from './types.js';

/** An instrumentation whose tool schemas can still be learned after it was built. */
export interface GatedInstrumentation {
  instrumentation: ArgspanInstrumentation;
  /** Record a tool's JSON schema (unless the user configured a schema for that tool). */
  learnJsonSchema(tool: string, jsonSchema: unknown): void;
  /** Whether a schema (configured or learned) is known for `tool`. */
  hasSchema(tool: string): boolean;
}

/** What argspan reads from a JSON schema: declared keys (public-schema stripping) and defaults. */
export function toolSchemaFromJsonSchema(jsonSchema: unknown): ToolSchema {
  return { publicKeys: publicKeysFromJsonSchema(jsonSchema), defaults: defaultsFromJsonSchema(jsonSchema) };
}

/**
 * Build the instrumentation an adapter dispatches through: the user's configuration, a schema
 * table that learning adds to, and the keep-local classifier wrapper.
 */
export function gatedInstrumentation(options: AdapterOptions = {}): GatedInstrumentation {
  const { refuseResidencies, schemas: configured = {}, classifier, ...config } = options;
  // One live table: configured schemas win over learned ones; the instrumentation reads it per call.
  const schemas: Record<string, ToolSchema> = { ...configured };
  const learned = (tool: string): ToolSchema | undefined => (Object.hasOwn(schemas, tool) ? schemas[tool] : undefined);
  const instrumentation = new ArgspanInstrumentation({
    ...config,
    schemas,
    classifier: keepLocalClassifier(classifier ?? classifyCall, checkResidencies(refuseResidencies ?? DEFAULT_REFUSE_RESIDENCIES), learned),
  });
  return {
    instrumentation,
    learnJsonSchema(tool, jsonSchema) {
      if (Object.hasOwn(configured, tool)) return;
      schemas[tool] = toolSchemaFromJsonSchema(jsonSchema);
    },
    hasSchema: (tool) => Object.hasOwn(schemas, tool),
  };
}

/** Reject a misspelt residency: a typo there would silently let secrets through. */
function checkResidencies(list: readonly Residency[]): readonly Residency[] {
  if (!Array.isArray(list)) throw new TypeError('argspan adapters: refuseResidencies must be an array of residency labels');
  for (const r of list) {
    if (!(RESIDENCY_ORDER as readonly string[]).includes(r)) {
      throw new RangeError(`argspan adapters: refuseResidencies has ${JSON.stringify(r)}; expected one of ${RESIDENCY_ORDER.join(', ')}`);
    }
  }
  return list;
}
