-- id: s000_stopwatch_missing
-- title: "Seed 000 check 1: tool call without a local stopwatch"
-- severity: low
-- kind: check
-- description: Seed 000 test plan, check 1. Every tool call records how long it took locally
--   (argspan.stopwatch.local_ms); without it the local-versus-remote comparison has a hole.
-- remedy: Check that the instrumentation's stopwatch wraps every dispatch path, including refusals.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' records no local stopwatch time.' AS reason
FROM tool_calls c
WHERE c.local_ms IS NULL
