import { anyValue, genkitAttributes, isObject, nanos, type Json } from './genkit-trace.js';

/**
 * The log records Genkit's telemetry server keeps for its Developer UI (`.genkit/logs/logs-<date>-<hour>.jsonl`,
 * written when the app runs with `GENKIT_OTEL_ENABLE_LOGS=true`: what Genkit's `logger` and any other
 * OpenTelemetry logger of the process emit), one genkit-tools `LogRecordData` a line: `{"logId",
 * "traceId", "spanId", "timestamp", "severityNumber", "severityText", "body", "attributes",
 * "instrumentationLibrary"}`. Each line is read as the OTLP logs line its record came from:
 *
 * - `timestamp` (milliseconds since the epoch) as the time, `traceId` and `spanId` as the ids;
 * - `severityNumber`, `severityText` as they are; `body` and `attributes` typed (text, numbers,
 *   flags, lists; an object as its JSON text);
 * - `instrumentationLibrary` as the scope; any field but `logId` (an id the server made) as the
 *   attribute `genkit.<field>` (its JSON), so the credential scan reads it.
 */

/** Fields of every record of Genkit's log store. */
export const GENKIT_LOG_FIELDS = ['logId', 'timestamp'];

/** Fields of a record of Genkit's log index (`.genkit/logs_idx/idx_*.jsonl`: where each record is in the store). */
export const GENKIT_LOG_INDEX_FIELDS = ['file', 'offset', 'length', 'timestamp'];

/** Fields read as what they are, where they are of their type (else carried as any other field is). */
const KNOWN: Record<string, (v: unknown) => boolean> = {
  logId: (v) => typeof v === 'string',
  traceId: (v) => typeof v === 'string',
  spanId: (v) => typeof v === 'string',
  timestamp: (v) => typeof v === 'number',
  severityNumber: (v) => typeof v === 'number',
  severityText: (v) => typeof v === 'string',
  body: () => true,
  attributes: isObject,
  instrumentationLibrary: isObject,
};

/**
 * A line of Genkit's log store as an OTLP logs line; the line as it is where it is not a JSON object
 * in UTF-8 (the logs reader then names it as it names any line it cannot read).
 */
export function genkitLogLine(raw: Buffer): Buffer | string {
  let record: unknown;
  try {
    record = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return raw;
  }
  if (!isObject(record)) return raw;
  const attributes = genkitAttributes(record, (field, v) => Object.hasOwn(KNOWN, field) && KNOWN[field]!(v));
  const library = isObject(record.instrumentationLibrary) ? record.instrumentationLibrary : undefined;
  const scope: Json = {};
  if (typeof library?.name === 'string') scope.name = library.name;
  if (typeof library?.version === 'string' && library.version !== '') scope.version = library.version;
  const logRecord: Json = {
    // (left as it is where it is not a time: the reader names the record's time as malformed)
    timeUnixNano: nanos(record.timestamp) ?? record.timestamp ?? 'absent',
    ...(typeof record.severityNumber === 'number' ? { severityNumber: record.severityNumber } : {}),
    ...(typeof record.severityText === 'string' ? { severityText: record.severityText } : {}),
    ...(record.body !== undefined && record.body !== null ? { body: anyValue(record.body) } : {}),
    attributes,
    ...(typeof record.traceId === 'string' && record.traceId !== '' ? { traceId: record.traceId } : {}),
    ...(typeof record.spanId === 'string' && record.spanId !== '' ? { spanId: record.spanId } : {}),
  };
  return JSON.stringify({ resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ ...(Object.keys(scope).length ? { scope } : {}), logRecords: [logRecord] }] }] });
}
