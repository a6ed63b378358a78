-- id: sensitive_arg_dispatched
-- title: Call with an argument the policy denies was dispatched
-- severity: high
-- kind: gate
-- description: An argument is labelled with a residency the policy never dispatches (deny_residencies,
--   by default secret: a tool's result goes back to the model), yet the call reached its tool. With
--   argspan's default policy this call would have been denied; the gate was loosened or bypassed.
--   Calls whose arguments also left the machine are reported by sensitive_arg_sent_remote or
--   inherited_value_sent_remote instead. Other libraries'
--   recorded calls count as dispatched (they ran, or the model asked for them: the finding says
--   which, a call known only from a model's output being a request the trace holds no run of).
-- remedy: Run the agent with the default policy, or give the analyzer the policy the agent ran with
--   (--deny-residencies) if the model runs on this machine.
-- Spans that record only a model's requests for calls (a model span): the trace holds no run of them.
WITH requested AS (SELECT trace_id, span_id FROM tool_calls
  GROUP BY trace_id, span_id HAVING min(call_source) = 'model-output' AND max(call_source) = 'model-output')
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' is labelled ' || a.residency
    || coalesce(' (rule ' || a.rule || ')', '') || ', which the policy never dispatches, '
    || CASE WHEN r.trace_id IS NOT NULL THEN 'but the model asked for the call (its request recorded by ' || a.emitter || '; the trace holds no run of it)'
      WHEN a.emitter = 'argspan' THEN 'but the call ran' ELSE 'but the call ran (recorded by ' || a.emitter || ')' END || '.' AS reason
FROM tool_args a
LEFT JOIN requested r ON r.trace_id = a.trace_id AND r.span_id = a.span_id
WHERE a.dispatched AND NOT a.left_machine AND a.residency IN (SELECT residency FROM deny_residencies)
  -- A credential another library recorded in an argument blob is reported once, by credential_in_attribute
  -- (which reports the call's secret arguments only, each whose credential the re-scan found in a blob of
  -- the call: one of another denied residency stays here).
  AND NOT (a.emitter <> 'argspan' AND a.residency = 'secret' AND a.rule NOT IN ('secret-key-name', 'secret-file-name')
    AND EXISTS (SELECT 1 FROM argument_blobs b
        JOIN credential_hits h ON h.scope IN ('span', 'event') AND h.trace_id = b.trace_id AND h.span_id = b.span_id AND h."key" = b.attribute
        JOIN argument_credentials ac ON ac.trace_id = b.trace_id AND ac.span_id = b.call_span_id AND ac.credential_hash = h.credential_hash
      WHERE b.trace_id = a.trace_id AND b.call_span_id = a.span_id AND ac."key" = a."key"))
