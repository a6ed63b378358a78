-- id: inherited_value_sent_remote
-- title: Value copied from a secret or dirty-tree source left the machine
-- severity: critical
-- kind: gate
-- description: The model copied a value out of the result of a secret source (a read of .env or a
--   key file, a secrets-manager tool, a credential in a result) or of an uncommitted file into a
--   later call, and that call's arguments left this machine (a remote hop, or a tool that runs
--   off this machine was reached). The value's own look may be harmless (a passphrase, an
--   internal hostname); its residency is inherited from where it came from (rules
--   inherited-secret, inherited-dirty-tree). Names the source call when its span is loaded.
-- remedy: Rotate the secret if it was real. Run with enforcement on (the default) and
--   inherit_residency left on; list the vault or secrets-manager tools in secret_source_tools.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' holds a value copied from the result of '
    || coalesce(src.tool || ' (span ' || src.span_id || coalesce(', call ' || src.call_id, '') || ')', 'call ' || coalesce(a.source_call_id, '?'))
    || ', a ' || a.residency || ' source (rule ' || a.rule || '), and the call''s arguments left this machine.' AS reason
FROM tool_args a
LEFT JOIN tool_calls src ON src.trace_id = a.source_trace_id AND src.span_id = a.source_span_id
WHERE a.rule IN ('inherited-secret', 'inherited-dirty-tree') AND a.left_machine
