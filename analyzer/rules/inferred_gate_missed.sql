-- id: inferred_gate_missed
-- title: Gate allowed a call with an inferred denylisted value
-- severity: high
-- kind: check
-- description: A call with at least one model-inferred value on a denylisted key must be held for
--   a question or blocked; this one has gate action allow. An empty value (null, "", [] or {})
--   asserts nothing and is not gated.
-- remedy: Check the denylist configuration and the gate's provenance input for this tool.
SELECT c.trace_id, c.span_id, c.tool, min(a."key") AS "key",
  'Tool call ' || c.tool || ' has ' || count(*) || ' model-inferred denylisted value(s) but the gate action was '
    || coalesce(c.gate_action, 'missing') || '.' AS reason
FROM tool_calls c JOIN tool_args a ON a.trace_id = c.trace_id AND a.call_span_id = c.span_id
WHERE c.emitter = 'argspan' AND a.provenance = 'model_inferred' AND a.denylisted AND NOT coalesce(a.rule = 'empty', false) AND coalesce(c.gate_action, 'allow') = 'allow'
GROUP BY c.trace_id, c.span_id, c.tool, c.gate_action
