import { defaultSecretDetector, type SecretDetector, type ValueHasher } from '@argspan/core';
import type { CredentialHit } from './credential-identity.js';
import { findCredentials, NameScope, shownKey } from './credential-scan.js';

/**
 * Credentials in an application's own log records (an OTLP logs export's records, or the
 * exporter's `otel_logs` rows, that are no GenAI message event), gathered for
 * `log_record_credential_hits`, which `rules/credential_in_log_record.sql` reads. Each text (the
 * body, as `log.body`, each attribute holding text and each attribute key; the records' resource
 * attributes and their keys; their instrumentation scope's name, version, attributes and keys) is
 * read by the secret detector (its own keyword pre-filter first: the one DuckDB's and ClickHouse's
 * pre-filters of span values mirror); a credential is kept as its keyed hash under the run's key,
 * never its text. The records that hold one credential in one place under one key in one span (or
 * outside any span) are one row, counted, with the first record's time: an application logging a
 * token on every request is one finding, not a million.
 */

/**
 * Where in a log record a text is (the `scope` of a `log_record_credential_hits` row, and the scope
 * {@link findCredentials} reads it in: a name scope finds only what a name can hold). The resource
 * and the instrumentation scope are shared by many records, of many spans: their hits are rows of
 * no span (`trace_id` and `span_id` NULL), one per credential, counting the records that carry it.
 */
export const LogRecordScope = {
  /** The body (key `log.body`) or an attribute's value. */
  RECORD: 'log record',
  ATTRIBUTE_KEY: NameScope.ATTRIBUTE_KEY,
  /** A resource attribute's value. */
  RESOURCE: 'resource',
  RESOURCE_ATTRIBUTE_KEY: NameScope.RESOURCE_ATTRIBUTE_KEY,
  SCOPE_NAME: NameScope.SCOPE_NAME,
  SCOPE_VERSION: NameScope.SCOPE_VERSION,
  /** An instrumentation scope attribute's value. */
  SCOPE: 'scope',
  SCOPE_ATTRIBUTE_KEY: NameScope.SCOPE_ATTRIBUTE_KEY,
} as const;
export type LogRecordScope = (typeof LogRecordScope)[keyof typeof LogRecordScope];

/** A text of a log record: where it is, its key (null for a scope's name or version) and the text. */
export type LogRecordText = readonly [scope: LogRecordScope, key: string | null, text: string];

/** Attribute keys whose findings are remembered at most (then forgotten all at once). */
const KEY_MEMO_SIZE = 65_536;

/** The record's own places; the others (resource, instrumentation scope) belong to no one span. */
const OWN_SCOPES: ReadonlySet<string> = new Set([LogRecordScope.RECORD, LogRecordScope.ATTRIBUTE_KEY]);

/** A row of `log_record_credential_hits` (no value: the credential's keyed hash). */
export type LogRecordCredentialRow = {
  /** The record's trace id and span id; null for a record written outside any span. */
  trace_id: string | null;
  span_id: string | null;
  /** Where in the record (a {@link LogRecordScope}). */
  scope: LogRecordScope;
  /** `log.body`, or the attribute's key (any credential in it redacted); `otel.scope.name` or `otel.scope.version` for the scope's name or version. */
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
  private readonly shared = new WeakMap<LogRecordText, CredentialHit[]>();
  private readonly keys = new Map<string, CredentialHit[]>();

  constructor(
    private readonly hasher: ValueHasher,
    private readonly detector: SecretDetector = defaultSecretDetector,
  ) {}

  /**
   * One text of a record (see {@link LogRecordText}), the record's ids and time (ns as decimal
   * text). A resource's or scope's text comes once per record that shares it, as the same tuple:
   * it is read once.
   */
  text(traceId: string | null, spanId: string | null, timeUnixNano: string | null, text: LogRecordText): void {
    const [scope, key] = text;
    const own = OWN_SCOPES.has(scope);
    const hits = scope === LogRecordScope.ATTRIBUTE_KEY ? this.keyHits(text[2]) : own ? findCredentials(scope, text[2], this.detector, this.hasher) : this.sharedHits(text);
    if (hits.length === 0) return;
    const shown = shownKey(scope, key, this.detector);
    const time = timeUnixNano === null ? null : isoTime(timeUnixNano);
    const [trace, span] = own ? [traceId, spanId] : [null, null];
    for (const hit of hits) {
      const id = JSON.stringify([trace, span, scope, shown, hit.hash]);
      const row = this.found.get(id);
      if (row === undefined) {
        this.found.set(id, { trace_id: trace, span_id: span, scope, key: shown, rule_id: hit.ruleId, credential_hash: hit.hash, records: 1, first_time: time });
        continue;
      }
      row.records++;
      if (time !== null && (row.first_time === null || time < row.first_time)) row.first_time = time;
    }
  }

  /** Records of one application repeat a few attribute keys: each is read once (while the memo holds it). */
  private keyHits(key: string): CredentialHit[] {
    let hits = this.keys.get(key);
    if (hits === undefined) {
      if (this.keys.size >= KEY_MEMO_SIZE) this.keys.clear();
      this.keys.set(key, (hits = findCredentials(LogRecordScope.ATTRIBUTE_KEY, key, this.detector, this.hasher)));
    }
    return hits;
  }

  private sharedHits(text: LogRecordText): CredentialHit[] {
    let hits = this.shared.get(text);
    if (hits === undefined) this.shared.set(text, (hits = findCredentials(text[0], text[2], this.detector, this.hasher)));
    return hits;
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
