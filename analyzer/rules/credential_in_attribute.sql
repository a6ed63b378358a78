-- id: credential_in_attribute
-- title: Credential-shaped value in a span attribute
-- severity: critical
-- kind: gate
-- description: The analyzer re-scans every string attribute (span, event and resource) with
--   argspan's secret detector. This attribute holds a value shaped like a credential (the rule id
--   says which kind); exported traces must never carry one.
-- remedy: Purge the affected exports, rotate the credential, and find which code path wrote it.
SELECT h.trace_id, h.span_id, coalesce(c.tool, a.tool) AS tool, coalesce(a."key", h."key") AS "key",
  'Attribute ' || h."key" || ' on a ' || h.scope || ' holds a value matching the ' || h.rule_id || ' credential shape.' AS reason
FROM credential_hits h
LEFT JOIN tool_calls c ON c.trace_id = h.trace_id AND c.span_id = h.span_id
LEFT JOIN tool_args a ON a.trace_id = h.trace_id AND a.span_id = h.span_id
