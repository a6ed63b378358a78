-- id: remote_hop_not_allowlisted
-- title: Remote hop by a tool outside the remote allowlist
-- severity: high
-- kind: gate
-- requires: remote_allowlist
-- applies_when: SELECT 1 FROM tool_calls WHERE went_remote
-- description: A tool call went remote although its tool is not on the remote allowlist. The
--   allowlist comes from --remote-allowlist and from the argspan.remote.allowlist resource
--   attribute; when neither is known and a call went remote, the rule is skipped and the run says
--   so (with no call gone remote there is nothing to check: other libraries' traces, local runs).
-- remedy: Add the tool to the allowlist if remote execution is intended, otherwise fix the gate
--   configuration that let it through.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool ' || c.tool || ' made a remote hop but is not on the remote allowlist.' AS reason
FROM tool_calls c
WHERE c.went_remote AND c.tool NOT IN (SELECT tool FROM remote_allowlist)
