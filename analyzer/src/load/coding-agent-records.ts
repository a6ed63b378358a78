import { createHash } from 'node:crypto';
import { CodingAgentEvents } from '../foreign/coding-agent-events.js';

/**
 * Coding agents that record their tool calls as OpenTelemetry log records, not spans: Claude Code
 * (`claude_code.tool_result`, `claude_code.user_prompt`; its events scope
 * `com.anthropic.claude_code.events`, the body the event's full name, the `event.name` attribute
 * without the `claude_code.` prefix) and Gemini CLI (`gemini_cli.tool_call`,
 * `gemini_cli.user_prompt` in `event.name`; the body a sentence). By default neither writes a
 * trace or span id on a record (Claude Code does with its beta tracing on, or a caller's
 * `TRACEPARENT`), so no span joins them: each such record is read as a span of its own, its
 * attributes as the span's, in a trace per prompt (`prompt.id`, `prompt_id`) of a session
 * (`session.id`, which links a session's prompts as one run).
 *
 * The ids are made from the record (a hash, never its values): a record exported twice gets the
 * same span, read once. A record that carries a trace id keeps it, its span id the made span's
 * parent (the interaction span of Claude Code's beta tracing holds several records).
 */

/** Claude Code's log records' instrumentation scope. */
const CLAUDE_CODE_EVENTS_SCOPE = 'com.anthropic.claude_code.events';
const CLAUDE_CODE_PREFIX = 'claude_code.';

/** The records read as spans, by their full event name. */
const READ_AS_SPANS: ReadonlySet<string> = new Set(Object.values(CodingAgentEvents));

/** Record attributes that name a record's session and prompt (Claude Code's, then Gemini CLI's spelling). */
const SESSION_KEYS = ['session.id'] as const;
const PROMPT_KEYS = ['prompt.id', 'prompt_id'] as const;

/** The attribute a record's body is kept under on its span: the key the credential scan of log records reports a body by. */
export const RECORD_BODY_ATTRIBUTE = 'log.body';

/**
 * The full event name of a coding agent's record that is read as a span (one of
 * {@link CodingAgentEvents}), else undefined. `name` is the record's event name as OTLP gives it
 * (`eventName`, else the `event.name` attribute).
 */
export function codingAgentEvent(record: Record<string, unknown>, name: string | undefined, scopeName: unknown): string | undefined {
  let full = name;
  if (name !== undefined && !name.includes('.')) {
    // Claude Code: `event.name` without its prefix, the body (or the scope) saying whose it is.
    const body = stringOf(record.body);
    if (body === CLAUDE_CODE_PREFIX + name || scopeName === CLAUDE_CODE_EVENTS_SCOPE) full = CLAUDE_CODE_PREFIX + name;
  }
  return full !== undefined && READ_AS_SPANS.has(full) ? full : undefined;
}

/**
 * One record as an OTLP/JSON span (`scopeSpans[].spans[]`), named `event`; attributes kept as
 * written. `ownTrace` and `ownSpan` are the record's valid ids, when it has them.
 */
export function recordSpan(record: Record<string, unknown>, event: string, time: string | undefined, ownTrace: string | undefined, ownSpan: string | undefined): Record<string, unknown> {
  const attributes = Array.isArray(record.attributes) ? record.attributes : [];
  const agent = event.slice(0, event.indexOf('.'));
  const traceId = ownTrace ?? digest(['trace', agent, attributeText(attributes, SESSION_KEYS) ?? '', attributeText(attributes, PROMPT_KEYS) ?? ''], 32);
  const spanId = digest(['span', traceId, event, time ?? '', JSON.stringify(attributes), JSON.stringify(record.body ?? null)], 16);
  const body = record.body;
  return {
    traceId,
    spanId,
    ...(ownTrace !== undefined && ownSpan !== undefined ? { parentSpanId: ownSpan } : {}),
    name: event,
    kind: 1,
    ...(time === undefined ? {} : { startTimeUnixNano: time, endTimeUnixNano: time }),
    // (a body that only repeats the event's name says nothing; any other, a sentence, is kept for the credential scan)
    attributes: !isObject(body) || stringOf(body) === event ? attributes : [...attributes, { key: RECORD_BODY_ATTRIBUTE, value: body }],
  };
}

/** The first of `keys` a record's OTLP attribute list holds as a string (either spelling of OTLP JSON). */
function attributeText(attributes: readonly unknown[], keys: readonly string[]): string | undefined {
  for (const key of keys) {
    for (const a of attributes) {
      if (isObject(a) && a.key === key && isObject(a.value)) {
        const v = a.value.stringValue ?? a.value.string_value;
        if (typeof v === 'string' && v !== '') return v;
      }
    }
  }
  return undefined;
}

function stringOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (!isObject(v)) return undefined;
  const s = v.stringValue ?? v.string_value;
  return typeof s === 'string' ? s : undefined;
}

function digest(parts: readonly string[], digits: number): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, digits);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
