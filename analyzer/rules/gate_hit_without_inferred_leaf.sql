-- id: gate_hit_without_inferred_leaf
-- title: Gate hit that names no inferred denylisted argument
-- severity: medium
-- kind: check
-- description: Every entry of argspan.gate.hits (tool.key, list indices removed) must name an
--   argument of that call that is denylisted and model-inferred (or a schema default the policy
--   does not mark safe, or a no-evidence value where the user's words are not visible).
-- remedy: Check how the gate builds its hit list; a stale or wrong hit misleads the user's question.
SELECT h.trace_id, h.span_id, h.tool, h.hit AS "key",
  'Gate hit ' || h.hit || ' on ' || h.tool || ' names no model-inferred or defaulted denylisted argument of the call.' AS reason
FROM (SELECT trace_id, span_id, tool, unnest(gate_hits) AS hit FROM tool_calls WHERE emitter = 'argspan' AND len(gate_hits) > 0) h
WHERE NOT EXISTS (
  SELECT 1 FROM tool_args a
  WHERE a.trace_id = h.trace_id AND a.call_span_id = h.span_id AND a.provenance IN ('model_inferred', 'schema_default', 'no_evidence') AND a.denylisted
    AND gate_hit_key(h.tool, a."key") = h.hit)
