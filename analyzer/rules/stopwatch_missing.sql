-- id: stopwatch_missing
-- title: argspan tool call without a local stopwatch
-- severity: low
-- kind: check
-- description: Every tool call argspan records carries the time it spent on this machine
--   (argspan.stopwatch.local_ms); without it the local-versus-remote comparison has a hole.
--   Checked on argspan's own spans only.
-- remedy: Check that the instrumentation's stopwatch wraps every dispatch path, including refusals.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' records no local stopwatch time.' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND c.local_ms IS NULL
