import type { Emitter } from '@argspan/conventions';

/** Rule ids of argument leaves the analyzer could not read from a foreign trace. */
export const ForeignArgumentRule = {
  /** The emitter did not record the arguments (capture is opt-in in most libraries). */
  NOT_RECORDED: 'arguments-not-recorded',
  /** The blob is not JSON. */
  NOT_JSON: 'arguments-not-json',
  /**
   * The attribute holding the arguments, or the model output holding the call, is not text (OTLP
   * lets an attribute be an int, a double, a bool, bytes, an array or empty): not the JSON a tool
   * takes or a model writes, and not read.
   */
  NOT_TEXT: 'arguments-not-text',
  /** The blob was cut off by the emitter (an attribute length limit). */
  TRUNCATED: 'arguments-truncated',
  /** The leaves past the flattening limit (100,000), read as one leaf of the whole blob; the leaves before it are the call's others. */
  PAST_LEAF_LIMIT: 'arguments-past-leaf-limit',
  /** The blob's JSON names a key twice in one object: read as the last copy (as most parsers do), the whole text one more leaf. */
  REPEATED_KEY: 'arguments-repeated-key',
  /** The span writes the attribute holding the arguments more than once, with different values: all copies are read as one text. */
  REPEATED_ATTRIBUTE: 'arguments-attribute-repeated',
  /** A model output that parses but in a shape no reader knows, holding what may be calls: read as one text. */
  OUTPUT_SHAPE_UNKNOWN: 'output-shape-unknown',
} as const;

/** An emitter of foreign tool calls: every emitter but argspan itself. */
export type ForeignEmitter = Exclude<Emitter, 'argspan'>;

/** A span as the foreign-call readers see it: ids, timing, scope and its string (and string-array) attributes. */
export interface ForeignSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startNs: bigint;
  /** The end, or the start when the span has no end. */
  endNs: bigint;
  /** The end as recorded (null when the span has none). */
  recordedEndNs: bigint | null;
  scope: string | null;
  /** The file it was read from (`files.file_id`). */
  fileId: number | null;
  attrs: ReadonlyMap<string, string | readonly string[]>;
  /** Earlier values of a string attribute the span writes again with another value (OTLP forbids it), by key; absent when none. */
  shadowed?: ReadonlyMap<string, readonly string[]>;
  /**
   * The keys of `ARGUMENT_KEYS` and `OUTPUT_KEYS` (a call's arguments, a model's output) the span
   * holds as another type than a string (an int, a double, a bool, bytes, an array or an empty
   * value; the value itself is not carried); absent when none.
   */
  nonText?: ReadonlySet<string>;
  /** Its span events the evidence reads (messages, see `event-evidence.ts`; Claude Code's tool output), with their string attributes; absent when it has none. */
  events?: readonly ForeignEvent[];
}

/** A span event as the evidence readers see it: its name and string attributes. */
export interface ForeignEvent {
  name: string;
  attrs: ReadonlyMap<string, string>;
  /** As a span's `shadowed`: the earlier values of a key the event writes again with another value. */
  shadowed?: ReadonlyMap<string, readonly string[]>;
  /** As a span's `nonText`: the keys of `EVENT_OUTPUT_KEYS` (a model's output) it holds as another type than a string. */
  nonText?: ReadonlySet<string>;
}

/**
 * The arguments of a call as recorded in the attribute `attribute`: a JSON blob, or a value already
 * decoded from a larger document (a tool-call part of a model's output messages).
 */
export type RecordedArguments =
  | { kind: 'blob'; attribute: string; text: string | undefined; decode: ArgumentDecoding }
  | {
      kind: 'value';
      attribute: string;
      value: unknown;
      /**
       * The emitter wrote that the call had no arguments (Agent Framework's `None`), which may not be
       * what the model asked: the model's proposal under the call's id, when the trace holds it
       * whole, is read instead (its arguments are in the trace whether or not the tool took them).
       */
      writtenAsNone?: true;
      /**
       * The span's attributes holding the arguments one each (google-genai's
       * `code.function.parameters.{name}.value`), `attribute` the first: each a copy of the arguments
       * for the findings, as a blob is.
       */
      parts?: readonly string[];
    };

/** How an emitter's argument blob is read. */
export interface ArgumentDecoding {
  /** A blob that is not JSON is itself the one argument (Langfuse stores strings raw). @default false */
  rawStringIsValue?: boolean;
  /**
   * With `rawStringIsValue`: a blob that opens as a JSON object or array but does not parse is cut
   * off (or not JSON), not a raw string: the emitter writes structured input as JSON and only
   * strings raw (Langfuse). @default false
   */
  openedJsonIsCut?: boolean;
  /**
   * The blob is one text, unreadable for this reason (a `ForeignArgumentRule`), whether or not it
   * parses: a model output in a shape no reader knows, copies of an event attribute that disagree.
   */
  unreadable?: string;
  /**
   * The blob is a model's output that did not parse (in it the calls, not one call's arguments):
   * cut off, it is read whole, none of its parts as arguments. @default false
   */
  modelOutput?: boolean;
  /**
   * Turn the decoded blob into the arguments (OpenLLMetry's `{"args","kwargs"}`, LangSmith's
   * `{"input"}`); with `rawStringIsValue`, a raw string too (Codex CLI's freeform input, read as
   * `{"input"}`). Of a blob cut off, the part of it that is whole is unwrapped too: undefined
   * there says it holds none of the arguments.
   */
  unwrap?: (decoded: unknown) => unknown;
}

/** One tool call found in a trace, from a tool-execution span or from a model span's output. */
export interface ForeignCall {
  emitter: ForeignEmitter;
  /** The span holding the call: the tool-execution span, or the model span that proposed it. */
  spanId: string;
  parentSpanId: string | null;
  tool: string;
  callId?: string;
  args: RecordedArguments;
  /** The tool's result as recorded (context for later calls). */
  result?: string;
  /** When the call happened (a tool span's start, a proposing model span's end). */
  atNs: bigint;
  /** Whether the trace shows the tool ran (a tool-execution span) or only that the model asked for it. */
  source: 'tool-span' | 'model-output';
  /** Position of a proposed call in its model output (for calls without an id). */
  position?: number;
}

/** A tool-execution span reader for one emitter. */
export interface ToolSpanRecognizer {
  emitter: ForeignEmitter;
  /** Attribute keys this emitter's tool spans always carry one of (the load-time pre-filter keeps spans with any). */
  keys: readonly string[];
  /** Attribute keys this emitter reads a call's arguments from (read as unreadable when not text: see `ForeignSpan.nonText`). */
  argumentKeys: readonly string[];
  /** Span names this emitter's tool spans have where no attribute key tells them (the pre-filter keeps spans with any). */
  spanNames?: readonly string[];
  /**
   * The call this span executes, or undefined when it is not one of this emitter's tool spans;
   * `source` `model-output` where the span records a call refused before it ran (the model's
   * request, no run of it).
   */
  toolCall(span: ForeignSpan): (Omit<ForeignCall, 'emitter' | 'spanId' | 'parentSpanId' | 'atNs' | 'source'> & { source?: ForeignCall['source'] }) | undefined;
}
