-- id: assumption_span
-- title: Model-inferred value on a denylisted key
-- severity: high
-- kind: gate
-- description: The model filled a risky argument (timezone, account id, price, currency, email,
--   recipient, ...) that nobody asserted: not the user, not an earlier tool result, not the schema
--   default. This is the assumption the inferred-field gate exists to catch.
-- remedy: Confirm the value with the user (one clarifying question) or take it from a tool result;
--   make sure the gate blocks or asks for this key.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Tool ' || coalesce(a.tool, '?') || ' received a model-inferred value for the denylisted key ' || a."key" || '.' AS reason
FROM tool_args a
WHERE a.provenance = 'model_inferred' AND a.denylisted
