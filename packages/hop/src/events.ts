import type { HopEventName } from '@argspan/conventions';

/** Attribute values on a hop event (what an OpenTelemetry span event accepts). */
export type HopEventAttributeValue = string | number | boolean | string[];
export type HopEventAttributes = Record<string, HopEventAttributeValue>;

/**
 * Where hop events go. An `@opentelemetry/api` `Span` satisfies this interface as it is, so the
 * instrumentation passes its tool-call span (or a `hop {tool}` child); anything else with an
 * `addEvent(name, attributes)` method works too (a logger, a test recorder).
 */
export interface HopEventSink {
  addEvent(name: string, attributes?: HopEventAttributes): unknown;
}

/**
 * Record one event. Spans are evidence, never the control path: a sink that throws is ignored,
 * so a broken exporter never changes what the protocol does.
 */
export function emitEvent(sink: HopEventSink | undefined, name: HopEventName, attributes: HopEventAttributes): void {
  if (!sink) return;
  try {
    sink.addEvent(name, attributes);
  } catch {
    // evidence only: the protocol's safety does not depend on the sink
  }
}

/** Fan one event out to several sinks. */
export function combineSinks(...sinks: (HopEventSink | undefined)[]): HopEventSink | undefined {
  const live = sinks.filter((s): s is HopEventSink => s !== undefined);
  if (live.length === 0) return undefined;
  if (live.length === 1) return live[0];
  return {
    addEvent: (name, attributes) => {
      for (const s of live) {
        try {
          s.addEvent(name, attributes);
        } catch {
          // one broken sink does not starve the others
        }
      }
    },
  };
}
