-- id: s002_gate_hit_without_inferred_leaf
-- title: "Seed 002 check 2: gate hit that names no inferred denylisted leaf"
-- severity: medium
-- kind: check
-- description: Seed 002 test plan, check 2. Every entry of argspan.gate.hits (tool.key) must name
--   an argument of that call that is model-inferred and denylisted.
-- remedy: Check how the gate builds its hit list; a stale or wrong hit misleads the user's question.
SELECT c.trace_id, c.span_id, c.tool, h.hit AS "key",
  'Gate hit ' || h.hit || ' on ' || c.tool || ' names no model-inferred denylisted argument of the call.' AS reason
FROM tool_calls c, unnest(c.gate_hits) AS h(hit)
WHERE NOT EXISTS (
  SELECT 1 FROM tool_args a
  WHERE a.trace_id = c.trace_id AND a.call_span_id = c.span_id AND a.provenance = 'model_inferred' AND a.denylisted
    AND c.tool || '.' || a."key" = h.hit)
