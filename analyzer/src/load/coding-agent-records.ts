import { createHash } from 'node:crypto';
import { CLAUDE_CODE_EVENTS_SCOPE, CLAUDE_CODE_PREFIX, CODING_AGENT_EVENT_NAMES, CodingAgentIds } from '../foreign/coding-agent-events.js';

const READ_AS_SPANS: ReadonlySet<string> = new Set(CODING_AGENT_EVENT_NAMES);

/**
 * Coding agents that record their tool calls as OpenTelemetry log records, not spans: Claude Code
 * (`claude_code.tool_result`, `claude_code.tool_decision`, `claude_code.user_prompt`; its events scope
 * `com.anthropic.claude_code.events`, the body the event's full name, the `event.name` attribute
 * without the `claude_code.` prefix), Gemini CLI (`gemini_cli.tool_call`,
 * `gemini_cli.user_prompt` in `event.name`; the body a sentence) and Codex CLI (`codex.tool_result`,
 * `codex.user_prompt` in `event.name`, OTLP's event name Rust's `event {file}:{line}`; its session
 * in `conversation.id`, no prompt id). By default none writes a
 * trace or span id on a record (Claude Code does with its beta tracing on, or a caller's
 * `TRACEPARENT`), so no span joins them: each such record is read as a span of its own, its
 * attributes as the span's, in a trace per prompt (`prompt.id`, `prompt_id`) of a session
 * (`session.id`, which links a session's prompts as one run).
 *
 * The ids are made from the record (a hash, never its values): a record exported twice gets the
 * same span, read once. A record that carries a trace id (Claude Code's beta tracing puts several
 * in its interaction span) keeps it; its span is its own. The ClickHouse engine names them alike
 * (`clickhouse/log-records.ts`).
 */

/** The attribute a record's body is kept under on its span: the key the credential scan of log records reports a body by. */
export const RECORD_BODY_ATTRIBUTE = 'log.body';

/**
 * The full event name of a coding agent's record that is read as a span (one of
 * {@link CodingAgentEvents}), else undefined. `name` is the record's event name as OTLP gives it
 * (`eventName`, else the `event.name` attribute).
 */
export function codingAgentEvent(record: Record<string, unknown>, name: string | undefined, scopeName: unknown): string | undefined {
  let full = name;
  const body = stringOf(record.body);
  // Claude Code: `event.name` without its prefix, the body (or the scope) saying whose it is; without `event.name`, the body names it.
  if (name !== undefined && name !== '' && !name.includes('.')) {
    if (body === CLAUDE_CODE_PREFIX + name || scopeName === CLAUDE_CODE_EVENTS_SCOPE) full = CLAUDE_CODE_PREFIX + name;
  } else if ((name === undefined || name === '') && body?.startsWith(CLAUDE_CODE_PREFIX)) full = body;
  return full !== undefined && READ_AS_SPANS.has(full) ? full : undefined;
}

/**
 * One record as an OTLP/JSON span (`scopeSpans[].spans[]`), named `event`; attributes kept as
 * written. `ownTrace` is the record's valid trace id, when it has one.
 */
export function recordSpan(record: Record<string, unknown>, event: string, time: string | undefined, ownTrace: string | undefined): Record<string, unknown> {
  const attributes = Array.isArray(record.attributes) ? record.attributes : [];
  const text = (key: string) => attributeText(attributes, key) ?? '';
  const traceId = ownTrace ?? codingAgentTraceId(event, text(CodingAgentIds.SESSION) || text(CodingAgentIds.CONVERSATION), CodingAgentIds.PROMPT.map(text).find((p) => p !== '') ?? '');
  const spanId = codingAgentSpanId(traceId, event, time ?? '', CodingAgentIds.IDENTITY.map(text));
  const body = record.body;
  return {
    traceId,
    spanId,
    name: event,
    kind: 1,
    ...(time === undefined ? {} : { startTimeUnixNano: time, endTimeUnixNano: time }),
    // (a body that only repeats the event's name says nothing; any other, a sentence, is kept for the credential scan)
    attributes: !isObject(body) || stringOf(body) === event ? attributes : [...attributes, { key: RECORD_BODY_ATTRIBUTE, value: body }],
  };
}

/** Whether a record names its session (`session.id`, as text): a GenAI record without ids is then read as a coding agent's is. */
export function hasSession(record: Record<string, unknown>): boolean {
  return (attributeText(Array.isArray(record.attributes) ? record.attributes : [], CodingAgentIds.SESSION) ?? '') !== '';
}

/** The trace of a coding agent's record without one: a hash of its agent (the event's prefix), session and prompt ids. */
export function codingAgentTraceId(event: string, session: string, prompt: string): string {
  return digest(['trace', event.slice(0, event.indexOf('.')), session, prompt], 32);
}

/** The span of a coding agent's record: a hash of its trace, event, time (ns, decimal; '' for none) and identity texts ({@link CodingAgentIds}). */
export function codingAgentSpanId(traceId: string, event: string, time: string, identity: readonly string[]): string {
  return digest(['span', traceId, event, time, ...identity], 16);
}

/**
 * The text of attribute `key` in a record's OTLP attribute list (either spelling of OTLP JSON), as
 * the ClickHouse exporter's map holds it: a string as it is, an int, a double or a flag as its
 * digits or `true` / `false`; undefined when absent or of another type.
 */
function attributeText(attributes: readonly unknown[], key: string): string | undefined {
  // The last of a key written twice, as the ClickHouse exporter's map keeps it, so the ids agree.
  for (let i = attributes.length - 1; i >= 0; i--) {
    const a = attributes[i];
    if (!isObject(a) || a.key !== key || !isObject(a.value)) continue;
    const v = a.value;
    const s = v.stringValue ?? v.string_value ?? v.intValue ?? v.int_value ?? v.doubleValue ?? v.double_value ?? v.boolValue ?? v.bool_value;
    return typeof s === 'string' || typeof s === 'number' || typeof s === 'boolean' ? String(s) : undefined;
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
