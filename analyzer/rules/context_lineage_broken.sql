-- id: context_lineage_broken
-- title: Context-retrieved value without a resolvable source
-- severity: low
-- kind: check
-- description: A context_retrieved argument carries a span link (or source call id) to the
--   tool-call span whose result supplied it. This one has none, or it points at a span that is
--   not a tool call in the loaded traces, so its lineage cannot be followed.
-- remedy: Load the export that holds the source call, or check link recording in the instrumentation.
SELECT a.trace_id AS trace_id, a.span_id AS span_id, a.tool AS tool, a."key" AS "key",
  CASE WHEN a.source_span_id IS NULL
    THEN 'Context-retrieved argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' has no link to the call that supplied it.'
    ELSE 'Context-retrieved argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' links to span ' || a.source_span_id || ', which is not a loaded tool call.'
  END AS reason
FROM tool_args a
-- An anti-join as a LEFT JOIN: ClickHouse runs a correlated NOT EXISTS over large tables far slower.
LEFT JOIN tool_calls c ON c.trace_id = a.source_trace_id AND c.span_id = a.source_span_id
WHERE a.emitter = 'argspan' AND a.provenance = 'context_retrieved' AND c.span_id IS NULL
