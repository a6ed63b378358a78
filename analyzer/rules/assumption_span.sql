-- id: assumption_span
-- title: Tool ran with a model-inferred value on a denylisted key
-- severity: high
-- kind: gate
-- description: The model filled a risky argument (timezone, account id, price, currency, email,
--   recipient, ...) that nobody asserted — not the user, not an earlier tool result, not the
--   schema default — and the call reached the tool with it. This is the assumption the
--   inferred-field gate exists to stop; a call the gate held is reported as held_assumption instead.
-- remedy: Put the key on the inferred denylist and keep the gate on (ask or block) for this tool,
--   or take the value from the user or a tool result.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Tool ' || coalesce(a.tool, '?') || ' ran with a model-inferred value for the denylisted key ' || a."key" || '.' AS reason
FROM tool_args a JOIN tool_calls c ON c.trace_id = a.trace_id AND c.span_id = a.call_span_id
WHERE a.provenance = 'model_inferred' AND a.denylisted AND c.dispatched
