-- id: s000_blocked_hop_went_remote
-- title: "Seed 000 check 3: hop marked blocked but the call went remote"
-- severity: high
-- kind: check
-- description: Seed 000 test plan, check 3. argspan.stopwatch.hop_blocked says the hop was blocked,
--   yet the call went remote. Either the evidence or the enforcement is wrong.
-- remedy: Find the dispatch path that ignores the blocked flag.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' is marked hop-blocked but went remote.' AS reason
FROM tool_calls c
WHERE c.hop_blocked AND c.went_remote
