-- id: s000_remote_without_rtt
-- title: "Seed 000 check 2: remote hop without a round-trip time"
-- severity: low
-- kind: check
-- description: Seed 000 test plan, check 2. A call that went remote records its round-trip time
--   (argspan.stopwatch.remote_rtt_ms); this one does not.
-- remedy: Check the hop path's stopwatch, including retries and failures.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' went remote but records no remote round-trip time.' AS reason
FROM tool_calls c
WHERE c.went_remote AND c.remote_rtt_ms IS NULL
