-- id: inferred_leaf_not_in_hits
-- title: Inferred denylisted argument missing from the gate hits
-- severity: medium
-- kind: check
-- description: Each model-inferred denylisted argument must appear in its call's argspan.gate.hits
--   as tool.key (list indices removed: one guessed element names its list), so the evidence says
--   which field was gated. An empty value (null, "", [] or {}) asserts nothing and is not gated.
-- remedy: Check that the gate records every hit, not only the first.
SELECT a.trace_id AS trace_id, a.span_id AS span_id, a.tool AS tool, a."key" AS "key",
  'Model-inferred denylisted argument ' || a."key" || ' of ' || c.tool || ' is missing from the gate hits.' AS reason
FROM tool_args a JOIN tool_calls c ON c.trace_id = a.trace_id AND c.span_id = a.call_span_id
LEFT JOIN (SELECT DISTINCT trace_id, span_id, hit FROM gate_hits) g ON g.trace_id = c.trace_id AND g.span_id = c.span_id AND g.hit = a.gate_hit_key
WHERE c.emitter = 'argspan' AND a.provenance = 'model_inferred' AND a.denylisted AND NOT coalesce(a.rule = 'empty', false) AND g.hit IS NULL
