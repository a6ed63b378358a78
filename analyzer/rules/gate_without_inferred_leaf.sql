-- id: gate_without_inferred_leaf
-- title: Call gated without any inferred denylisted value
-- severity: medium
-- kind: check
-- description: User-explicit and context-retrieved values never trigger the inferred-field gate;
--   this call was blocked or asked about although none of its arguments is model-inferred, an
--   unsafe schema default or a no-evidence value (the user's words not visible) on a denylisted key.
-- remedy: Check provenance tagging: a value the user typed was probably not recognised.
SELECT c.trace_id AS trace_id, c.span_id AS span_id, c.tool AS tool, NULL AS "key",
  'Tool call ' || c.tool || ' had gate action ' || c.gate_action || ' without any model-inferred denylisted argument.' AS reason
FROM tool_calls c
LEFT JOIN (SELECT DISTINCT trace_id, call_span_id FROM tool_args WHERE provenance IN ('model_inferred', 'schema_default', 'no_evidence') AND denylisted) a
  ON a.trace_id = c.trace_id AND a.call_span_id = c.span_id
WHERE c.emitter = 'argspan' AND c.gate_action IN ('block', 'ask') AND a.call_span_id IS NULL
