-- id: incomplete_evidence
-- title: Incomplete evidence for a tool call
-- severity: medium
-- kind: gate
-- description: A tool-call span declares in argspan.args.count how many argument spans it emitted,
--   but a different number is present in the loaded traces; or an argument span's tool-call
--   parent is missing. Lost spans mean the other rules cannot see every argument.
-- remedy: Load every export covering the period, and check the exporter for dropped spans
--   (queue size, batch limits, crashes before flush).
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' declares ' || c.args_count || ' argument spans but ' || coalesce(a.n, 0) || ' were found.' AS reason
FROM tool_calls c
LEFT JOIN (SELECT trace_id, call_span_id, count(*) AS n FROM tool_args GROUP BY trace_id, call_span_id) a
  ON a.trace_id = c.trace_id AND a.call_span_id = c.span_id
WHERE c.emitter = 'argspan' AND c.args_count IS NOT NULL AND coalesce(a.n, 0) <> c.args_count
UNION ALL
SELECT a.trace_id, a.span_id, NULL, a."key",
  'Argument span ' || a."key" || ' has no tool-call parent span in the loaded traces.'
FROM tool_args a
WHERE a.tool IS NULL
