-- id: remote_hop_without_rtt
-- title: Remote hop without a round-trip time
-- severity: low
-- kind: check
-- description: A call that went through argspan's remote hop records the hop's round-trip time
--   (argspan.stopwatch.remote_rtt_ms); this one does not.
-- remedy: Check the hop path's stopwatch, including retries and failures.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' went remote but records no remote round-trip time.' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND c.went_remote AND c.remote_rtt_ms IS NULL
