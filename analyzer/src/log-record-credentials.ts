import { defaultSecretDetector, type SecretDetector, type ValueHasher } from '@argspan/core';
import { findCredentials, shownKey } from './credential-scan.js';

/**
 * Credentials in an application's own log records (an OTLP logs export's records, or the
 * exporter's `otel_logs` rows, that are no GenAI message event), gathered for
 * `log_record_credential_hits`, which `rules/credential_in_log_record.sql` reads. Each text (the
 * body, as `log.body`, and each attribute holding text) is read by the secret detector (its own
 * keyword pre-filter first: the one DuckDB's and ClickHouse's pre-filters of span values mirror);
 * a credential is kept as its keyed hash under the run's key, never its text. The records that hold
 * one credential under one key in one span (or outside any span) are one row, counted, with the
 * first record's time: an application logging a token on every request is one finding, not a
 * million.
 */

/** The scope {@link findCredentials} reads a record's text in: a value (every credential), not a name. */
const LOG_RECORD_SCOPE = 'log record';

/** A row of `log_record_credential_hits` (no value: the credential's keyed hash). */
export type LogRecordCredentialRow = {
  /** The record's trace id and span id; null for a record written outside any span. */
  trace_id: string | null;
  span_id: string | null;
  /** `log.body`, or the attribute's key (any credential in it redacted). */
  key: string | null;
  rule_id: string;
  credential_hash: string;
  /** Records that hold it there. */
  records: number;
  /** The first of those records' time (ISO 8601, UTC, to the nanosecond); null when none has one. */
  first_time: string | null;
};

/** The credentials found in application log records' texts, a row per span (or none), key and credential. */
export class LogRecordCredentials {
  private readonly found = new Map<string, LogRecordCredentialRow>();

  constructor(
    private readonly hasher: ValueHasher,
    private readonly detector: SecretDetector = defaultSecretDetector,
  ) {}

  /** One text of a record: its body or an attribute (`key`), the record's ids and time (ns as decimal text). */
  text(traceId: string | null, spanId: string | null, timeUnixNano: string | null, key: string, text: string): void {
    const hits = findCredentials(LOG_RECORD_SCOPE, text, this.detector, this.hasher);
    if (hits.length === 0) return;
    const shown = shownKey(key, this.detector);
    const time = timeUnixNano === null ? null : isoTime(timeUnixNano);
    for (const hit of hits) {
      const id = JSON.stringify([traceId, spanId, shown, hit.hash]);
      const row = this.found.get(id);
      if (row === undefined) {
        this.found.set(id, { trace_id: traceId, span_id: spanId, key: shown, rule_id: hit.ruleId, credential_hash: hit.hash, records: 1, first_time: time });
        continue;
      }
      row.records++;
      if (time !== null && (row.first_time === null || time < row.first_time)) row.first_time = time;
    }
  }

  /** The rows found so far. */
  rows(): LogRecordCredentialRow[] {
    return [...this.found.values()];
  }
}

/** A time in ns since the epoch (decimal text) as ISO 8601 in UTC with all nine digits: fixed width, so ordered as text. */
export function isoTime(timeUnixNano: string): string {
  const ns = BigInt(timeUnixNano);
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}
