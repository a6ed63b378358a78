-- id: credential_in_log_record
-- title: Credential-shaped value in an application's log record
-- severity: critical
-- kind: gate
-- description: The analyzer scans the application's own log records beside the traces (an OTLP
--   logs export's records, or the exporter's otel_logs rows, that are no GenAI message event: a
--   framework's "Function arguments: {…}" line, a request logger) with argspan's secret detector:
--   the body (as log.body; a map or array body as its JSON), every attribute holding text and
--   every attribute key, and the records' resource (attributes and keys) and instrumentation
--   scope (name, version, attributes and keys) — of the GenAI message records too, whose
--   resource need not be the traces'. This one holds a value shaped like a credential
--   (the rule id says which kind); logs are a store of their own, kept and read apart from the
--   traces. A record written inside a span is named by that span (and the tool of its call); one
--   written outside any span has no trace or span id and is named by its key and the time of the
--   first record holding the credential; a resource or scope, shared by records of many spans,
--   is named by its key and counts the records that carry it. The records holding one credential
--   in one place under one key of one span are one finding, counted. A credential already
--   reported in the same trace, by the tool and argument that hold it or on the span the record
--   was written in, is not reported again; nor is one of the records' resource or scope that a
--   span's resource or scope is already reported for (one service's spans and logs).
-- remedy: Purge the affected log records (and their copies downstream), rotate the credential, and stop the code path that logs it (a framework logging a tool's arguments at INFO or DEBUG).
WITH fresh AS (SELECT * FROM log_record_credential_hits h
  WHERE CASE WHEN h.scope IN ('resource', 'resource attribute key', 'scope', 'scope attribute key', 'scope name', 'scope version')
      -- A resource or scope the traces report it in already (a service exporting its spans and its logs under one resource).
      THEN h.credential_hash NOT IN (SELECT credential_hash FROM credential_hits
        WHERE scope IN ('resource', 'resource attribute key', 'scope', 'scope attribute key', 'scope name', 'scope version'))
    WHEN h.trace_id IS NULL THEN true
    ELSE (h.trace_id, h.credential_hash) NOT IN (SELECT trace_id, credential_hash FROM argument_credentials)
      AND (h.span_id IS NULL OR (h.trace_id, h.span_id, h.credential_hash) NOT IN (SELECT trace_id, span_id, credential_hash FROM credential_hits)) END),
-- The tool of the call on a record's span, when its calls share one.
calls AS (SELECT trace_id, span_id, CASE WHEN count(DISTINCT tool) = 1 THEN min(tool) END AS tool FROM tool_calls
  WHERE (trace_id, span_id) IN (SELECT trace_id, span_id FROM fresh WHERE trace_id IS NOT NULL) GROUP BY trace_id, span_id),
found AS (SELECT trace_id, span_id, scope, "key", credential_hash, min(rule_id) AS rule_id, sum(records) AS records, min(first_time) AS first_time
  FROM fresh GROUP BY trace_id, span_id, scope, "key", credential_hash)
SELECT f.trace_id AS trace_id, f.span_id AS span_id, c.tool AS tool, f."key" AS "key",
  CASE WHEN f.scope IN ('resource', 'resource attribute key') THEN 'The resource of log records'
    WHEN f.scope IN ('scope', 'scope attribute key', 'scope name', 'scope version') THEN 'The instrumentation scope of log records'
    WHEN f.trace_id IS NULL THEN 'An application log record written outside any span (no trace id' || coalesce('; the first at ' || f.first_time, '') || ')'
    WHEN f.span_id IS NULL THEN 'An application log record of the trace (no span id)'
    ELSE 'An application log record written in the span' || coalesce(' (the ' || c.tool || ' call)', '') END
  || CASE WHEN f.scope IN ('attribute key', 'resource attribute key', 'scope attribute key') THEN ' has an attribute key ' || f."key" || ' matching'
    WHEN f.scope = 'scope name' THEN ' holds in its name a value matching'
    WHEN f.scope = 'scope version' THEN ' holds in its version a value matching'
    WHEN f."key" = 'log.body' AND f.scope = 'log record' THEN ' holds in its body a value matching'
    ELSE ' holds in attribute ' || f."key" || ' a value matching' END
  || ' the ' || f.rule_id || ' credential shape'
  || CASE WHEN f.scope IN ('log record', 'attribute key') THEN CASE WHEN f.records > 1 THEN ' (as do ' || (f.records - 1) || ' other record(s))' ELSE '' END
    ELSE ' (' || f.records || ' record(s) carry it' || coalesce('; the first at ' || f.first_time, '') || ')' END || '.' AS reason
FROM found f
LEFT JOIN calls c ON c.trace_id = f.trace_id AND c.span_id = f.span_id
