import { MESSAGE_EVENT_NAMES, MessageEventAttributes } from '../foreign/message-events.js';
import { plainAnyValue, WrongTypedAnyValue } from './any-value.js';
import { DOCUMENT_NOT_JSON, type InputProblem } from './input-error.js';
import { LINE_TOO_LONG } from './lines.js';
import { LogRecordScope, type LogRecordText } from '../log-record-credentials.js';
import { POSITIONS_NAMED } from './malformed-span-positions.js';
import { codingAgentEvent, hasSession, recordSpan } from './coding-agent-records.js';
import { RUST_TRACING_EVENT_NAME } from '../foreign/coding-agent-events.js';

/**
 * OpenTelemetry log records that carry a GenAI message event, read from an OTLP logs export
 * (`{"resourceLogs": …}`: the collector's file exporter in a logs pipeline, an SDK's OTLP JSON).
 *
 * The official instrumentations (Python `opentelemetry-instrumentation-openai-v2` and its
 * siblings, the Java OpenAI instrumentation, OpenLLMetry JS with its log events) record a model
 * call's messages as log records, not on the span: `gen_ai.user.message`, `gen_ai.tool.message`,
 * `gen_ai.choice` (with the model's `tool_calls`) with the message in the record's body, or
 * `gen_ai.client.inference.operation.details` with the messages in its attributes. Each carries
 * the trace id and span id of the model call's span. argspan reads them as that span's events
 * (`gen_ai.event.content` holds the body as JSON text, as Semantic Kernel writes it on span
 * events), so the evidence readers need nothing of their own. Other log records (an
 * application's logs) are counted, for the report to say they were not read as tool calls, and
 * given to the reader's `onOtherRecord` (the credential scan of their texts: {@link otherRecordTexts}).
 * The resource and instrumentation scope of every record read, GenAI or not, go to `onSharedTexts`
 * (their credential scan: {@link sharedRecordTexts}): a logs export's resource need not be its
 * traces'.
 */

/** The span-event attribute a log record's body is read into: the one the per-message event readers read. */
export const LOG_BODY_ATTRIBUTE = MessageEventAttributes.CONTENT;

/** The attribute that named a log-based event before OTLP had `eventName`. */
const EVENT_NAME_ATTRIBUTE = 'event.name';

const GENAI_EVENTS: ReadonlySet<string> = new Set(MESSAGE_EVENT_NAMES);

/** An OTLP/JSON `KeyValue` as staged: scalars as OTLP writes them, maps and nested arrays as their JSON text in `stringValue`. */
export interface PlainKeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string; doubleValue?: number | string; boolValue?: boolean; arrayValue?: { values: PlainKeyValue['value'][] } };
}

/** One GenAI log record, as the span event it becomes. */
export interface LogEventRow {
  traceId: string;
  spanId: string;
  /** Its time (else its observed time), ns as decimal text; absent when it has neither. */
  timeUnixNano?: string;
  name: string;
  attributes: PlainKeyValue[];
  resource: PlainKeyValue[];
  scopeName?: string;
  scopeVersion?: string;
}

/** What reading a logs export found; each GenAI record goes to the reader's `onEvent` as it is read. */
export interface LogRecordsRead {
  /** GenAI records read (each given to `onEvent`). */
  events: number;
  /** Log records read, GenAI or not. */
  records: number;
  /** Of those, the records that are no GenAI message event (an application's own logs): counted, not read as tool calls. */
  others: number;
  /** Of those, coding agents' records read as spans of their own (see `coding-agent-records.ts`). */
  agentRecords: number;
  problems: InputProblem[];
  onEvent: (row: LogEventRow) => void;
  /** Given each of the others as parsed (any shape: {@link otherRecordTexts} reads it). */
  onOtherRecord?: (record: unknown) => void;
  /**
   * Given, once per message, the coding agents' records it holds as spans: an OTLP/JSON traces
   * message (`{"resourceSpans": …}`), read as a traces line is.
   */
  onRecordSpans?: (message: string) => void;
  /**
   * Given each record read — one of the others, or a GenAI record given to `onEvent` — with its
   * time (ns as decimal text; null when it has none) and the texts of the resource and scope its
   * block shares ({@link sharedRecordTexts}: the same array for every record of the block).
   */
  onSharedTexts?: (timeUnixNano: string | null, shared: readonly LogRecordText[]) => void;
}

/** Why a GenAI log record cannot be read; the record's place and event name go before it. */
export const LOG_RECORD_PROBLEMS = {
  ids: 'no valid trace id and span id (hex, 32 and 16 digits, not all zero), so not joined to its model call\'s span (a record carries them when it is written inside the span)',
  time: 'a time that is not a non-negative 64-bit integer',
  value: 'a value of the wrong type for its field',
} as const;

/** Records named per problem (and line) at most; the rest are counted, as malformed spans are. */
const RECORDS_NAMED = POSITIONS_NAMED;

/**
 * The GenAI log records of one OTLP logs export message (a parsed JSON line or document). `line`,
 * when the message is a line of the file, goes into each problem; problems name the record by its
 * place (`resourceLogs[0].scopeLogs[1].logRecords[2]`) and event name, never by a value.
 */
export function readLogsMessage(message: unknown, file: string, line: number | undefined, into: LogRecordsRead): void {
  const problem = (reason: string): void => void into.problems.push(line === undefined ? { file, reason } : { file, line, reason });
  /** The unreadable records, by kind (GenAI, a coding agent's) and problem: how many, and the places of the first few. */
  const unreadable = new Map<string, { kind: RecordKind; reason: string; n: number; at: string[] }>();
  const refuse: Refuse = (reason, at, kind = 'GenAI') => {
    const seen = unreadable.get(`${kind}\u0000${reason}`) ?? { kind, reason, n: 0, at: [] };
    seen.n++;
    if (seen.at.length < RECORDS_NAMED) seen.at.push(at);
    unreadable.set(`${kind}\u0000${reason}`, seen);
  };
  const spans = readRecords(message, into, problem, refuse);
  if (spans.length > 0) into.onRecordSpans?.(JSON.stringify({ resourceSpans: spans }));
  for (const { kind, reason, n, at } of unreadable.values()) {
    problem(n === 1 ? `${at[0]}: unreadable ${kind} log record: ${reason}` : `${n} unreadable ${kind} log records (${n > at.length ? 'first at' : 'at'} ${at.join(', ')}): ${reason}`);
  }
}

/** The kinds of log records read (a coding agent's: see `coding-agent-records.ts`), as problems name them. */
type RecordKind = 'GenAI' | 'coding-agent';
/** Count a record of `kind` not read for `reason`, at its place `at`. */
type Refuse = (reason: string, at: string, kind?: RecordKind) => void;

/** The message's GenAI records to `into`, its problems to `problem` and `refuse`; returned, its coding agents' records as `resourceSpans`. */
function readRecords(message: unknown, into: LogRecordsRead, problem: (reason: string) => void, refuse: Refuse): unknown[] {
  const recordSpans: unknown[] = [];
  const resourceLogs = isObject(message) ? message.resourceLogs : undefined;
  if (!Array.isArray(resourceLogs)) {
    problem('JSON of another shape: no "resourceLogs" array');
    return recordSpans;
  }
  const spans = (message as Record<string, unknown>).resourceSpans;
  if (Array.isArray(spans) && spans.length > 0) {
    problem('JSON of another shape: one message holds "resourceLogs" and "resourceSpans" (exporters write each signal as its own message)');
    return recordSpans;
  }
  resourceLogs.forEach((rl, r) => {
    let scopeSpans: unknown[] | undefined;
    const scopeLogs = isObject(rl) ? rl.scopeLogs : undefined;
    if (scopeLogs == null) return;
    if (!Array.isArray(scopeLogs)) return problem(`JSON of another shape: resourceLogs[${r}].scopeLogs is not a list`);
    let resource: PlainKeyValue[] | undefined;
    scopeLogs.forEach((sl, s) => {
      const records = isObject(sl) ? sl.logRecords : undefined;
      if (records == null) return;
      const at = `resourceLogs[${r}].scopeLogs[${s}]`;
      if (!Array.isArray(records)) return problem(`JSON of another shape: ${at}.logRecords is not a list`);
      const scope = isObject(sl) && isObject(sl.scope) ? sl.scope : {};
      let shared: LogRecordText[] | undefined;
      const sharedTexts = (time: string | null) => into.onSharedTexts?.(time, (shared ??= sharedRecordTexts(isObject(rl) ? rl.resource : undefined, isObject(sl) ? sl.scope : undefined)));
      let agentSpans: unknown[] | undefined;
      records.forEach((record, i) => {
        into.records++;
        const name = eventName(record);
        let agentEvent = isObject(record) ? codingAgentEvent(record, name, scope.name) : undefined;
        // A GenAI record written outside any span (no trace or span id) in a session (`session.id`:
        // Gemini CLI's model-call details) is read as a coding agent's record: a span of its own, in the session's trace.
        if (agentEvent === undefined && name !== undefined && GENAI_EVENTS.has(name) && isObject(record) && hasSession(record)) {
          if (hexId(record.traceId ?? record.trace_id, 32) === undefined || hexId(record.spanId ?? record.span_id, 16) === undefined) agentEvent = name;
        }
        if (agentEvent !== undefined) {
          const rec = record as Record<string, unknown>;
          const [written, observed] = recordTimes(rec);
          const place = `${at}.logRecords[${i}] (${agentEvent})`;
          if (written === null || observed === null) return refuse(LOG_RECORD_PROBLEMS.time, place, 'coding-agent');
          // (its attributes become the span's: one of the wrong type is named here, by the record's place, not the span's)
          try {
            plainAttributes(rec.attributes);
          } catch (err) {
            if (!(err instanceof WrongTypedAnyValue)) throw err;
            return refuse(LOG_RECORD_PROBLEMS.value, place, 'coding-agent');
          }
          into.agentRecords++;
          if (into.onSharedTexts) sharedTexts(written ?? observed ?? null);
          if (agentSpans === undefined) {
            agentSpans = [];
            (scopeSpans ??= []).push({ scope, spans: agentSpans });
          }
          agentSpans.push(recordSpan(rec, agentEvent, written ?? observed, hexId(rec.traceId ?? rec.trace_id, 32)));
          return;
        }
        if (name === undefined || !GENAI_EVENTS.has(name)) {
          into.others++;
          into.onOtherRecord?.(record);
          if (into.onSharedTexts) sharedTexts(isObject(record) ? recordTime(record) : null);
          return;
        }
        const rec = record as Record<string, unknown>;
        const where = `${at}.logRecords[${i}] (${name})`;
        const traceId = hexId(rec.traceId ?? rec.trace_id, 32);
        const spanId = hexId(rec.spanId ?? rec.span_id, 16);
        if (traceId === undefined || spanId === undefined) return refuse(LOG_RECORD_PROBLEMS.ids, where);
        const [written, observed] = recordTimes(rec);
        if (written === null || observed === null) return refuse(LOG_RECORD_PROBLEMS.time, where);
        const time = written ?? observed;
        try {
          resource ??= plainAttributes(isObject(rl) && isObject(rl.resource) ? rl.resource.attributes : undefined);
          const attributes = plainAttributes(rec.attributes);
          if (rec.body != null) attributes.push({ key: LOG_BODY_ATTRIBUTE, value: { stringValue: bodyText(rec.body) } });
          into.events++;
          if (into.onSharedTexts) sharedTexts(time ?? null);
          into.onEvent({
            traceId,
            spanId,
            ...(time === undefined ? {} : { timeUnixNano: time }),
            name,
            attributes,
            resource,
            ...(typeof scope.name === 'string' ? { scopeName: scope.name } : {}),
            ...(typeof scope.version === 'string' ? { scopeVersion: scope.version } : {}),
          });
        } catch (err) {
          if (!(err instanceof WrongTypedAnyValue)) throw err;
          refuse(LOG_RECORD_PROBLEMS.value, where);
        }
      });
    });
    if (scopeSpans) recordSpans.push({ ...(isObject(rl) && rl.resource != null ? { resource: rl.resource } : {}), scopeSpans });
  });
  return recordSpans;
}

/** Where a logs export's lines that are not logs messages go, and which lines the byte scan refused. */
export interface LogsLineOptions {
  /**
   * A line that is not a logs message — a traces message, when one exporter writes both signals
   * to one file — is left for the trace reader: it gets the line (its bytes valid during the
   * call only) and its number.
   */
  onOtherLine?: (raw: Buffer, line: number) => void;
  /** The lines the byte scan refused (too deep, not UTF-8), with why: a logs line among them is a problem, not read. */
  unreadable?: ReadonlyMap<number, string>;
  /** Given each log record that is no GenAI message event (see {@link LogRecordsRead.onOtherRecord}). */
  onOtherRecord?: (record: unknown) => void;
  /** Given each record read with its resource's and scope's texts (see {@link LogRecordsRead.onSharedTexts}). */
  onSharedTexts?: (timeUnixNano: string | null, shared: readonly LogRecordText[]) => void;
  /** Given the coding agents' records of each line (or of the document: line 1) as a traces message (see {@link LogRecordsRead.onRecordSpans}). */
  onRecordSpans?: (message: string, line: number) => void;
}

/**
 * Reads an OTLP logs export in JSON lines (the collector's file exporter) a line at a time, giving
 * each GenAI record to `onEvent` as it is read: a large export is never held, as text or as
 * records.
 */
export class LogsLineReader {
  private readonly into: LogRecordsRead;
  /** The line being read (1 for a document): where its records' spans are written. */
  private line0 = 1;

  constructor(
    private readonly file: string,
    onEvent: (row: LogEventRow) => void,
    private readonly options: LogsLineOptions = {},
  ) {
    const { onOtherRecord, onSharedTexts, onRecordSpans } = options;
    this.into = {
      events: 0,
      records: 0,
      others: 0,
      agentRecords: 0,
      problems: [],
      onEvent,
      ...(onOtherRecord ? { onOtherRecord } : {}),
      ...(onSharedTexts ? { onSharedTexts } : {}),
      ...(onRecordSpans ? { onRecordSpans: (message: string) => onRecordSpans(message, this.line0) } : {}),
    };
  }

  /** One line (1-based; the file's first without its byte order mark). */
  line(raw: Buffer, line: number): void {
    const head = raw.toString('latin1', 0, 64);
    if (head.trim() === '' && (raw.length <= 64 || raw.toString('utf8').trim() === '')) return;
    const refused = this.options.unreadable?.get(line);
    if (!isLogsLine(head)) this.options.onOtherLine?.(raw, line);
    else if (refused !== undefined) this.into.problems.push({ file: this.file, line, reason: refused });
    else {
      const message = parseOrUndefined(raw.toString('utf8'));
      if (message === undefined) this.into.problems.push({ file: this.file, line, reason: 'not valid JSON (a truncated or corrupt line)' });
      else {
        this.line0 = line;
        readLogsMessage(message, this.file, line, this.into);
      }
    }
  }

  /** A line longer than the reader holds (`MAX_HELD_LINE_BYTES`): named, not read. */
  tooLong(line: number): void {
    this.into.problems.push({ file: this.file, line, reason: LINE_TOO_LONG });
  }

  /** A whole export that is one document (not JSON lines): read at once. */
  document(text: string): void {
    const whole = parseOrUndefined(text);
    if (whole === undefined) this.into.problems.push({ file: this.file, line: 1, reason: DOCUMENT_NOT_JSON });
    else {
      this.line0 = 1;
      readLogsMessage(whole, this.file, undefined, this.into);
    }
  }

  /** What was read so far. */
  result(): Omit<LogRecordsRead, 'onEvent'> {
    return { events: this.into.events, records: this.into.records, others: this.into.others, agentRecords: this.into.agentRecords, problems: this.into.problems };
  }
}

/** Whether a line is a JSON value of its own (a file whose first line is one is JSON lines). */
export function isJsonLine(text: string): boolean {
  return parseOrUndefined(text) !== undefined;
}

/** A line that opens as an OTLP logs message (`{"resourceLogs"` first, as exporters write it). */
const LOGS_LINE = /^\s*\{\s*"resource_?[lL]ogs"/;

/** Whether a line (its first bytes suffice) opens as an OTLP logs message. */
export function isLogsLine(head: string): boolean {
  return LOGS_LINE.test(head);
}

/** A log record's event name: OTLP's `eventName` (since 1.5), else its `event.name` attribute. */
function eventName(record: unknown): string | undefined {
  if (!isObject(record)) return undefined;
  const field = record.eventName ?? record.event_name;
  const named = typeof field === 'string' && field !== '' ? field : undefined;
  // (Rust's `tracing` default name, `event {file}:{line}`, names no event: Codex CLI's is in the attribute)
  if (named !== undefined && !RUST_TRACING_EVENT_NAME.test(named)) return named;
  const attributes = record.attributes;
  if (!Array.isArray(attributes)) return named;
  for (const a of attributes) {
    if (isObject(a) && a.key === EVENT_NAME_ATTRIBUTE && isObject(a.value)) {
      const v = a.value.stringValue ?? a.value.string_value;
      if (typeof v === 'string') return v;
    }
  }
  return named;
}

/** The texts of an application's log record that the credential scan reads, with where the record is. */
export interface OtherRecordTexts {
  /** Its trace id and span id, when valid (else null: written outside any span). */
  traceId: string | null;
  spanId: string | null;
  /** Its time (else its observed time), ns as decimal text; null when it has neither. */
  timeUnixNano: string | null;
  /** The body under {@link LOG_RECORD_BODY_KEY}, then each attribute that holds text, and each attribute's key. */
  texts: LogRecordText[];
}

/**
 * The key a credential in a log record's body is reported under (an attribute's, under its own
 * key): `log.body`, after the log data model's `Body` field, a name no attribute of the semantic
 * conventions uses (`rules/credential_in_log_record.sql` spells it too).
 */
export const LOG_RECORD_BODY_KEY = 'log.body';

/**
 * A log record's or attribute's value as the credential scan reads it: a string or bytes (base64,
 * as the span scan reads bytes) as it is, a map or an array as its plain JSON; numbers and booleans
 * hold no credential. A value of the wrong type is read as its JSON text, never left: fail closed.
 */
function scannedText(v: unknown): string | undefined {
  if (!isObject(v)) return v == null ? undefined : JSON.stringify(v);
  const s = v.stringValue ?? v.string_value ?? v.bytesValue ?? v.bytes_value;
  if (typeof s === 'string') return s;
  if (v.kvlistValue == null && v.kvlist_value == null && v.arrayValue == null && v.array_value == null) return undefined;
  try {
    return plainAnyValue(v);
  } catch {
    return JSON.stringify(v);
  }
}

/** Each attribute's value (where it holds text) under `valueScope`, and each key under `keyScope`. */
function attributeTexts(attributes: unknown, valueScope: LogRecordScope, keyScope: LogRecordScope, into: LogRecordText[]): void {
  if (!Array.isArray(attributes)) return;
  for (const a of attributes) {
    if (!isObject(a) || typeof a.key !== 'string') continue;
    const text = scannedText(a.value);
    if (text !== undefined) into.push([valueScope, a.key, text]);
    into.push([keyScope, a.key, a.key]);
  }
}

/**
 * What the credential scan reads of a log record that is no GenAI message event: its body, each
 * attribute holding text (see {@link scannedText}) and each attribute's key.
 */
export function otherRecordTexts(record: unknown): OtherRecordTexts | undefined {
  if (!isObject(record)) return undefined;
  const texts: LogRecordText[] = [];
  const body = scannedText(record.body);
  if (body !== undefined) texts.push([LogRecordScope.RECORD, LOG_RECORD_BODY_KEY, body]);
  attributeTexts(record.attributes, LogRecordScope.RECORD, LogRecordScope.ATTRIBUTE_KEY, texts);
  return {
    traceId: hexId(record.traceId ?? record.trace_id, 32) ?? null,
    spanId: hexId(record.spanId ?? record.span_id, 16) ?? null,
    timeUnixNano: recordTime(record),
    texts,
  };
}

/** A record's time and observed time (see {@link timeOf}), in either spelling of OTLP JSON. */
function recordTimes(record: Record<string, unknown>): [written: string | undefined | null, observed: string | undefined | null] {
  return [timeOf(record.timeUnixNano ?? record.time_unix_nano), timeOf(record.observedTimeUnixNano ?? record.observed_time_unix_nano)];
}

/** A record's time, else its observed time; null when it has neither (or neither is readable). */
function recordTime(record: Record<string, unknown>): string | null {
  const [written, observed] = recordTimes(record);
  return written ?? observed ?? null;
}

/**
 * What the credential scan reads of the resource and the instrumentation scope a block of log
 * records shares (`resourceLogs[i].resource`, `scopeLogs[j].scope`): the resource's attributes and
 * keys, the scope's name, version, attributes and keys.
 */
export function sharedRecordTexts(resource: unknown, scope: unknown): LogRecordText[] {
  const texts: LogRecordText[] = [];
  if (isObject(resource)) attributeTexts(resource.attributes, LogRecordScope.RESOURCE, LogRecordScope.RESOURCE_ATTRIBUTE_KEY, texts);
  if (isObject(scope)) {
    if (typeof scope.name === 'string' && scope.name !== '') texts.push([LogRecordScope.SCOPE_NAME, null, scope.name]);
    if (typeof scope.version === 'string' && scope.version !== '') texts.push([LogRecordScope.SCOPE_VERSION, null, scope.version]);
    attributeTexts(scope.attributes, LogRecordScope.SCOPE, LogRecordScope.SCOPE_ATTRIBUTE_KEY, texts);
  }
  return texts;
}

/** Lower-case hex id of `digits` digits, not all zero; undefined for anything else (OTLP/JSON writes ids as hex strings). */
function hexId(v: unknown, digits: number): string | undefined {
  if (typeof v !== 'string' || v.length !== digits || !/^[0-9a-fA-F]+$/.test(v) || /^0+$/.test(v)) return undefined;
  return v.toLowerCase();
}

/** A 64-bit time as decimal text: undefined when absent or zero (OTLP's "unknown"), null when not a non-negative integer. */
function timeOf(v: unknown): string | undefined | null {
  if (v == null) return undefined;
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !/^\d{1,19}$/.test(s) || BigInt(s) > 9223372036854775807n) return null;
  return /^0+$/.test(s) ? undefined : s;
}

/** A body as the text the message readers parse: a string as it is, anything else its plain JSON. */
function bodyText(body: unknown): string {
  if (isObject(body) && typeof (body.stringValue ?? body.string_value) === 'string' && Object.keys(body).length === 1) return (body.stringValue ?? body.string_value) as string;
  return plainAnyValue(body);
}

/** An OTLP attribute list with every map or nested array made its JSON text; scalars kept in their OTLP form. */
function plainAttributes(list: unknown): PlainKeyValue[] {
  if (list == null) return [];
  if (!Array.isArray(list)) throw new WrongTypedAnyValue();
  const out: PlainKeyValue[] = [];
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== 'string') throw new WrongTypedAnyValue();
    out.push({ key: kv.key, value: scalarOrText(kv.value) });
  }
  return out;
}

function scalarOrText(v: unknown): PlainKeyValue['value'] {
  if (v == null) return {};
  const text = plainAnyValue(v); // throws for a value of the wrong type
  const set = Object.entries(v as Record<string, unknown>).filter(([, x]) => x != null).map(([k]) => k.replace(/_v/, 'V'));
  const parsed: unknown = JSON.parse(text);
  if (set.length === 1) {
    if (set[0] === 'stringValue' || set[0] === 'bytesValue') return { stringValue: parsed as string };
    if (set[0] === 'boolValue') return { boolValue: parsed as boolean };
    if (set[0] === 'intValue') return { intValue: text };
    if (set[0] === 'doubleValue') return { doubleValue: parsed as number | string };
  }
  // An array of strings stays an array (the readers take `gen_ai.*` lists as arrays); anything else, its JSON text.
  if (Array.isArray(parsed) && set[0] === 'arrayValue' && set.length === 1 && parsed.every((x) => typeof x === 'string')) return { arrayValue: { values: parsed.map((x: string) => ({ stringValue: x })) } };
  return { stringValue: text };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
