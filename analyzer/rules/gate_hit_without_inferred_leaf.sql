-- id: gate_hit_without_inferred_leaf
-- title: Gate hit that names no inferred denylisted argument
-- severity: medium
-- kind: check
-- description: Every entry of argspan.gate.hits (tool.key, list indices removed) must name an
--   argument of that call that is denylisted and model-inferred (or a schema default the policy
--   does not mark safe, or a no-evidence value where the user's words are not visible).
-- remedy: Check how the gate builds its hit list; a stale or wrong hit misleads the user's question.
SELECT h.trace_id AS trace_id, h.span_id AS span_id, h.tool AS tool, h.hit AS "key",
  'Gate hit ' || h.hit || ' on ' || h.tool || ' names no model-inferred or defaulted denylisted argument of the call.' AS reason
FROM gate_hits h
LEFT JOIN (SELECT DISTINCT trace_id, call_span_id, gate_hit_key FROM tool_args WHERE provenance IN ('model_inferred', 'schema_default', 'no_evidence') AND denylisted) a
  ON a.trace_id = h.trace_id AND a.call_span_id = h.span_id AND a.gate_hit_key = h.hit
WHERE a.call_span_id IS NULL
