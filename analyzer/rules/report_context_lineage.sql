-- id: report_context_lineage
-- title: Lineage of context-retrieved values
-- severity: info
-- kind: report
-- description: For each context_retrieved argument, follows its span link (or source call id) to
--   the tool-call span whose result supplied the value, and names that tool.
-- remedy: Informational.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' came from the result of ' || c.tool
    || ' (span ' || c.span_id || coalesce(', call ' || c.call_id, '') || ').' AS reason
FROM tool_args a JOIN tool_calls c ON c.trace_id = a.source_trace_id AND c.span_id = a.source_span_id
WHERE a.provenance = 'context_retrieved'
