-- id: held_call_dispatched
-- title: Held or denied call reached its tool
-- severity: high
-- kind: check
-- description: A call the gate held for a question or denied (gate action ask or block, or
--   enforcement hold or deny) must not run its side effect; this one went remote or ended without
--   the gate's error, so the tool was reached.
-- remedy: Make dispatch honour the enforcement; the gate decides inline, before dispatch.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' was ' || CASE WHEN c.enforcement IN ('hold', 'deny') THEN 'enforced ' || c.enforcement ELSE 'given gate action ' || c.gate_action END
    || ' but ' || CASE WHEN c.went_remote THEN 'still went remote' ELSE 'still reached the tool' END || '.' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND (c.gate_action IN ('block', 'ask') OR c.enforcement IN ('hold', 'deny'))
  AND (c.went_remote OR NOT c.stopped_by_gate)
