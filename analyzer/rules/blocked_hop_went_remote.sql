-- id: blocked_hop_went_remote
-- title: Hop marked blocked but the call went remote
-- severity: high
-- kind: check
-- description: argspan.stopwatch.hop_blocked says a configured remote hop was not used for this
--   call, yet it went remote. Either the evidence or the enforcement is wrong.
-- remedy: Find the dispatch path that ignores the blocked flag.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' is marked hop-blocked but went remote.' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND c.hop_blocked AND c.went_remote
