-- id: gate_without_inferred_leaf
-- title: Call gated without any inferred denylisted value
-- severity: medium
-- kind: check
-- description: User-explicit and context-retrieved values never trigger the inferred-field gate;
--   this call was blocked or asked about although none of its arguments is model-inferred, an
--   unsafe schema default or a no-evidence value (the user's words not visible) on a denylisted key.
-- remedy: Check provenance tagging: a value the user typed was probably not recognised.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' had gate action ' || c.gate_action || ' without any model-inferred denylisted argument.' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND c.gate_action IN ('block', 'ask')
  AND NOT EXISTS (SELECT 1 FROM tool_args a WHERE a.trace_id = c.trace_id AND a.call_span_id = c.span_id
    AND a.provenance IN ('model_inferred', 'schema_default', 'no_evidence') AND a.denylisted)
