-- id: sensitive_arg_sent_remote
-- title: Secret or dirty-tree argument on a call that went remote
-- severity: critical
-- kind: gate
-- description: An argument labelled secret or dirty-tree belongs on this machine, yet its tool call
--   left it: a remote hop (argspan.hop.remote was true or a hop.sent event was recorded), or a tool
--   that runs off this machine (argspan.tool.remote) was reached. A value that inherited its label
--   from a secret or dirty-tree source is reported by inherited_value_sent_remote instead.
-- remedy: Rotate the secret if it was real; find why the gate let the call go remote (verdict,
--   allowlist, a custom hook) and make the call run locally.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' is labelled ' || a.residency
    || coalesce(' (rule ' || a.rule || ')', '') || ' but the call''s arguments left this machine.' AS reason
FROM tool_args a JOIN tool_calls c ON c.trace_id = a.trace_id AND c.span_id = a.call_span_id
WHERE a.residency IN ('secret', 'dirty-tree') AND c.left_machine AND a.rule NOT IN ('inherited-secret', 'inherited-dirty-tree')
