-- id: s000_local_verdict_went_remote
-- title: "Seed 000 check 4: local or refuse verdict but the call went remote"
-- severity: high
-- kind: check
-- description: Seed 000 test plan, check 4. The residency verdict local (or refuse) means the call
--   must not leave the machine; this one went remote anyway.
-- remedy: Find the dispatch path that ignores the verdict.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' had verdict ' || c.verdict || ' but went remote.' AS reason
FROM tool_calls c
WHERE c.verdict IN ('local', 'refuse') AND c.went_remote
