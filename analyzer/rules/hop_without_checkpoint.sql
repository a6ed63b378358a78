-- id: hop_without_checkpoint
-- title: Hop sent without a prior durable checkpoint in the same run
-- severity: high
-- kind: gate
-- description: The hop protocol is write-ahead: a checkpoint is written to local disk before the
--   payload is sent. This hop.sent event has no checkpoint.written event before it in the same
--   run (gen_ai.conversation.id; the same trace when the run id is missing) for the same payload
--   fingerprint (or one without a fingerprint).
-- remedy: Check the hop protocol implementation: a crash after this send would lose the work.
SELECT h.trace_id, h.call_span_id AS span_id, h.tool, NULL AS "key",
  'Hop of ' || coalesce(h.tool, '?') || ' was sent without a prior checkpoint in run '
    || coalesce(h.run_id, h.trace_id) || '.' AS reason
FROM hop_events h
WHERE h."name" = 'argspan.hop.sent'
  AND NOT EXISTS (
    SELECT 1 FROM hop_events k
    WHERE k."name" = 'argspan.checkpoint.written'
      AND (k.run_id = h.run_id OR (h.run_id IS NULL AND k.trace_id = h.trace_id))
      AND k.time_ns <= h.time_ns
      AND (k.fingerprint IS NULL OR h.fingerprint IS NULL OR k.fingerprint = h.fingerprint))
