-- id: sensitive_arg_dispatched
-- title: Call with an argument the policy denies was dispatched
-- severity: high
-- kind: gate
-- description: An argument is labelled with a residency the policy never dispatches (deny_residencies,
--   by default secret: a tool's result goes back to the model), yet the call reached its tool. With
--   argspan's default policy this call would have been denied; the gate was loosened or bypassed.
--   Calls that also went remote are reported by sensitive_arg_sent_remote instead.
-- remedy: Run the agent with the default policy, or give the analyzer the policy the agent ran with
--   (--deny-residencies) if the model runs on this machine.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' is labelled ' || a.residency
    || coalesce(' (rule ' || a.rule || ')', '') || ', which the policy never dispatches, but the call ran.' AS reason
FROM tool_args a JOIN tool_calls c ON c.trace_id = a.trace_id AND c.span_id = a.call_span_id
WHERE c.dispatched AND NOT c.went_remote AND a.residency IN (SELECT residency FROM deny_residencies)
