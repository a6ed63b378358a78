-- id: local_verdict_went_remote
-- title: Local or refuse verdict but the call went remote
-- severity: high
-- kind: check
-- description: The placement verdict local (or refuse) means the call must not make a remote hop;
--   this one went through the remote hop anyway.
-- remedy: Find the dispatch path that ignores the verdict.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' had verdict ' || c.verdict || ' but went remote.' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND c.verdict IN ('local', 'refuse') AND c.went_remote
