-- id: assumption_span
-- title: Tool ran with a model-inferred value on a denylisted key
-- severity: high
-- kind: gate
-- description: The model filled a risky argument (timezone, account id, price, currency, email,
--   recipient, ...) that nobody asserted — not the user, not an earlier tool result, not the
--   schema default — and the call reached the tool with it. This is the assumption the
--   inferred-field gate exists to stop; a call the gate held is reported as held_assumption instead.
--   An empty value (null, "", [] or {}: a field not given, as OpenAI's strict schemas send it)
--   asserts nothing and is not reported. Read from argspan's spans and from other libraries'
--   traces alike (for those, only when the trace recorded the user's words: without them a value
--   has no evidence either way).
-- remedy: Put the key on the inferred denylist and keep the gate on (ask or block) for this tool,
--   or take the value from the user or a tool result.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Tool ' || coalesce(a.tool, '?') || ' was called with a model-inferred value for the denylisted key ' || a."key"
    || CASE WHEN a.emitter = 'argspan' THEN '' ELSE ' (recorded by ' || a.emitter || ')' END || '.' AS reason
FROM tool_args a
WHERE a.provenance = 'model_inferred' AND a.denylisted AND a.dispatched AND NOT coalesce(a.rule = 'empty', false)
