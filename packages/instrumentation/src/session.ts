import { randomUUID } from 'node:crypto';
import type { SpanContext } from '@opentelemetry/api';
import { ProvenanceIndex } from '@argspan/core/internal';
import type { ClassifyContext, ContextEntry } from '@argspan/core';
import { Residency } from '@argspan/conventions';
import type { ToolSchema } from './types.js';

/** Options of a new {@link ArgspanSession}. */
export interface SessionOptions {
  /** argspan's run id, written as `argspan.run.id`. @default a random UUID */
  runId?: string;
  /**
   * The application's conversation (session, thread) id, written as `gen_ai.conversation.id` so
   * argspan's spans join the application's other GenAI spans. @default undefined (not written)
   */
  conversationId?: string;
  /** The user's text so far (this turn, and earlier turns if the agent keeps them). @default [] */
  userText?: string | readonly string[];
  /**
   * Context entries (tool results) kept for provenance: at least this many of the most recent; older
   * ones are forgotten in batches (when twice as many have piled up) so forgetting stays cheap.
   * Results passing on `secret` or `dirty-tree` are kept apart, under `MAX_SENSITIVE_ENTRIES`. @default 32
   */
  maxContextEntries?: number;
  /** Most recent call ids whose span context is kept for `context_retrieved` links. @default 1024 */
  maxLinkedCalls?: number;
}

/** Results passing on `secret` or `dirty-tree` kept (at least; twice as many at most), beside the `maxContextEntries` others. */
export const MAX_SENSITIVE_ENTRIES = 1024;

const isSensitiveEntry = (entry: ContextEntry): boolean => entry.residency === Residency.SECRET || entry.residency === Residency.DIRTY_TREE;

/**
 * One agent run: the user's text, the context (earlier tool results) later calls may copy values
 * from, and the span context of each earlier call so a `context_retrieved` argument can link to
 * the span whose result supplied it. Tool results are added automatically by the instrumented
 * dispatcher; call {@link addUserText} for each user turn.
 */
export class ArgspanSession {
  /** argspan's run id (`argspan.run.id`). */
  readonly runId: string;
  /** The application's conversation id (`gen_ai.conversation.id`), when it gave one. */
  readonly conversationId: string | undefined;
  private userTexts: readonly string[];
  private entries: readonly ContextEntry[] = [];
  /** Provenance index over the user text and entries, built incrementally (core's `ProvenanceIndex`). */
  private readonly index: ProvenanceIndex;
  private readonly spans = new Map<string, SpanContext>();
  /** Call ids whose arguments were secret or dirty-tree: their results are treated as sensitive too. */
  private readonly sensitive = new Set<string>();
  private readonly maxEntries: number;
  /** How many of `entries` pass on `secret` or `dirty-tree` (kept under their own bound). */
  private sensitiveEntries = 0;
  private readonly maxLinked: number;
  private seq = 0;

  constructor(options: SessionOptions = {}) {
    this.runId = options.runId ?? randomUUID();
    this.conversationId = options.conversationId;
    const text = options.userText ?? [];
    this.userTexts = typeof text === 'string' ? [text] : [...text];
    this.maxEntries = positiveInt(options.maxContextEntries ?? 32, 'maxContextEntries');
    this.maxLinked = positiveInt(options.maxLinkedCalls ?? 1024, 'maxLinkedCalls');
    this.index = ProvenanceIndex.from({ userText: this.userTexts });
  }

  /** Add the user's text for a turn. Values found in it are `user_explicit`. */
  addUserText(text: string): void {
    this.userTexts = [...this.userTexts, text];
    this.index.addUserText(text);
  }

  /**
   * Add context a later call may copy values from (tool results are added automatically; use this
   * for text the agent retrieved some other way). Values found in it are `context_retrieved`.
   */
  addContext(entry: ContextEntry): void {
    this.entries = [...this.entries, entry];
    this.index.addContext(entry);
    if (isSensitiveEntry(entry)) this.sensitiveEntries += 1;
    const plain = this.entries.length - this.sensitiveEntries;
    if (plain <= 2 * this.maxEntries && this.sensitiveEntries <= 2 * MAX_SENSITIVE_ENTRIES) return;
    // Forgotten in batches: once twice a bound is kept, the older half goes, without re-indexing the
    // rest. A result whose values pass on `secret` or `dirty-tree` is kept under a bound of its own:
    // forgotten with the others, a copy of its secret would run as a public value.
    const keep = new Array<boolean>(this.entries.length);
    let plainKept = 0;
    let sensitiveKept = 0;
    for (let i = this.entries.length - 1; i >= 0; i--) {
      keep[i] = isSensitiveEntry(this.entries[i]!) ? sensitiveKept++ < MAX_SENSITIVE_ENTRIES : plainKept++ < this.maxEntries;
    }
    this.entries = this.entries.filter((_, i) => keep[i]);
    this.sensitiveEntries = Math.min(sensitiveKept, MAX_SENSITIVE_ENTRIES);
    this.index.retainContext(keep);
  }

  /** The user's text so far. */
  get userText(): readonly string[] {
    return this.userTexts;
  }

  /** The context entries kept so far, oldest first. */
  get context(): readonly ContextEntry[] {
    return this.entries;
  }

  /** The span context of an earlier call, by call id. */
  spanContextOf(callId: string): SpanContext | undefined {
    return this.spans.get(callId);
  }

  /** @internal A fresh call id for a call the framework gave none. */
  nextCallId(): string {
    this.seq += 1;
    return `${this.runId}:${this.seq}`;
  }

  /**
   * True when the call `callId` had secret or dirty-tree arguments (reading `.env`, a dirty file):
   * a value copied from its result gets no excerpt, whatever its own label says.
   */
  isSensitiveSource(callId: string): boolean {
    return this.sensitive.has(callId);
  }

  /**
   * @internal Remember a finished call's span context (for links), whether its arguments were
   * sensitive, and its result (as context) with the residency it passes on to values copied from
   * it (`secret` for a read of `.env` or a secret-source tool, `dirty-tree` for a read of an
   * uncommitted file; see core's `resultResidency`).
   */
  recordCall(callId: string, spanContext: SpanContext, content: unknown, sensitive = false, residency?: Residency): void {
    this.spans.delete(callId);
    this.spans.set(callId, spanContext);
    if (sensitive) this.sensitive.add(callId);
    else this.sensitive.delete(callId);
    if (this.spans.size > this.maxLinked) {
      const oldest = this.spans.keys().next().value;
      if (oldest !== undefined) {
        this.spans.delete(oldest);
        this.sensitive.delete(oldest);
      }
    }
    if (content !== undefined) this.addContext(residency === undefined ? { callId, content } : { callId, content, residency });
  }

  /** @internal The call context classification sees for a call to a tool with `schema`. */
  callContext(schema: ToolSchema | undefined): ClassifyContext {
    const ctx: ClassifyContext = { userText: this.userTexts, context: this.entries, index: this.index };
    if (schema?.defaults) ctx.schemaDefaults = schema.defaults;
    if (schema?.safeDefaults) ctx.safeDefaults = schema.safeDefaults;
    if (schema?.publicKeys) ctx.publicSchemaKeys = schema.publicKeys;
    return ctx;
  }
}

function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`ArgspanSession: ${name} must be a positive integer, got ${n}`);
  return n;
}
