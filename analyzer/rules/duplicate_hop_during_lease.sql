-- id: duplicate_hop_during_lease
-- title: Two hops for one payload fingerprint while a lease was live
-- severity: critical
-- kind: gate
-- description: A second hop.sent event carries the same payload fingerprint as an earlier one,
--   and a lease on that fingerprint, acquired before the first send, had not been released or
--   expired by the second. The protocol promises at most one remote call per payload per lease.
--   Retries of one send (argspan.attempt above 1, same lease and idempotency key) are not
--   duplicates and are ignored.
-- remedy: Look at lease acquisition and recovery after a crash; the remote side may have executed
--   the side effect twice.
SELECT s2.trace_id AS trace_id, s2.call_span_id AS span_id, s2.tool AS tool, NULL AS "key",
  'Payload fingerprint ' || s2.fingerprint || ' was sent twice while lease ' || l.lease_id || ' was live.' AS reason
FROM hop_events s1
JOIN hop_events s2 ON s2.fingerprint = s1.fingerprint AND s2."name" = 'argspan.hop.sent'
  AND (s2.time_ns > s1.time_ns OR (s2.time_ns = s1.time_ns AND (s2.trace_id, s2.span_id, s2.event_index) > (s1.trace_id, s1.span_id, s1.event_index)))
JOIN hop_events l ON l."name" = 'argspan.lease.acquired' AND l.fingerprint = s1.fingerprint AND l.time_ns <= s1.time_ns
WHERE s1."name" = 'argspan.hop.sent' AND coalesce(s1.attempt, 1) = 1 AND coalesce(s2.attempt, 1) = 1
  AND NOT EXISTS (
    SELECT 1 FROM hop_events e
    WHERE e."name" IN ('argspan.lease.released', 'argspan.lease.expired') AND e.lease_id = l.lease_id
      AND e.time_ns >= l.time_ns AND e.time_ns <= s2.time_ns)
QUALIFY row_number() OVER (PARTITION BY s2.trace_id, s2.span_id, s2.event_index ORDER BY l.time_ns) = 1
