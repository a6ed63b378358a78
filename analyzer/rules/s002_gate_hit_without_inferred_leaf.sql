-- id: s002_gate_hit_without_inferred_leaf
-- title: "Seed 002 check 2: gate hit that names no inferred denylisted leaf"
-- severity: medium
-- kind: check
-- description: Seed 002 test plan, check 2. Every entry of argspan.gate.hits (tool.key) must name
--   an argument of that call that is model-inferred and denylisted.
-- remedy: Check how the gate builds its hit list; a stale or wrong hit misleads the user's question.
SELECT h.trace_id, h.span_id, h.tool, h.hit AS "key",
  'Gate hit ' || h.hit || ' on ' || h.tool || ' names no model-inferred denylisted argument of the call.' AS reason
FROM (SELECT trace_id, span_id, tool, unnest(gate_hits) AS hit FROM tool_calls WHERE len(gate_hits) > 0) h
WHERE NOT EXISTS (
  SELECT 1 FROM tool_args a
  WHERE a.trace_id = h.trace_id AND a.call_span_id = h.span_id AND a.provenance = 'model_inferred' AND a.denylisted
    AND h.tool || '.' || a."key" = h.hit)
