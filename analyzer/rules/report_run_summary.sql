-- id: report_run_summary
-- title: Per-run summary
-- severity: info
-- kind: report
-- description: One line per run (argspan's run id, gen_ai.conversation.id, or the session id another
--   library recorded): tool calls, argument leaves (a call with no arguments, `{}`, has none: its one
--   leaf `$`, rule `empty`, is not counted), invented leaves, calls held for a question, calls
--   denied, and remote hops. Calls in a trace that names no run are one run per trace, as in the HTML
--   report. span_id is the run's first tool call (ties on start time go to the smallest trace and span
--   id, so the finding is stable across runs).
-- remedy: Informational.
WITH leaves AS (
  SELECT trace_id, call_span_id, count(*) AS leaves, count(*) FILTER (WHERE provenance = 'model_inferred') AS inferred
  FROM tool_args WHERE NOT coalesce("key" = '$' AND rule = 'empty', false) GROUP BY trace_id, call_span_id),
-- Another library's model span can propose several calls (one span, one run): its leaves count once.
per_call AS (
  SELECT c.*, coalesce(l.leaves, 0) AS leaves, coalesce(l.inferred, 0) AS inferred,
    CASE WHEN c.run_id IS NULL THEN c.trace_id END AS runless_trace
  FROM (SELECT *, row_number() OVER (PARTITION BY trace_id, span_id) AS nth_on_span FROM tool_calls) c
  LEFT JOIN leaves l ON l.trace_id = c.trace_id AND l.call_span_id = c.span_id AND c.nth_on_span = 1)
SELECT argMin(trace_id, (start_ns, trace_id, span_id)) FILTER (WHERE start_ns IS NOT NULL) AS trace_id,
  argMin(span_id, (start_ns, trace_id, span_id)) FILTER (WHERE start_ns IS NOT NULL) AS span_id, NULL AS tool, NULL AS "key",
  'Run ' || coalesce(run_id, '(no run id) of trace ' || runless_trace) || ': ' || count(*) || ' tool call(s), ' || sum(leaves) || ' argument(s), '
    || sum(inferred) || ' model-inferred, ' || count(*) FILTER (WHERE stopped_by_gate AND (enforcement = 'hold' OR (enforcement IS NULL AND gate_action = 'ask'))) || ' held, '
    || count(*) FILTER (WHERE stopped_by_gate AND NOT (enforcement = 'hold' OR (enforcement IS NULL AND gate_action = 'ask'))) || ' denied, '
    || count(*) FILTER (WHERE went_remote) || ' remote.' AS reason
FROM per_call
GROUP BY run_id, runless_trace
