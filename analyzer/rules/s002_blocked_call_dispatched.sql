-- id: s002_blocked_call_dispatched
-- title: "Seed 002 check 5: blocked or asking call still went remote"
-- severity: high
-- kind: check
-- description: Seed 002 test plan, check 5. A call the gate blocked (or for which it asked a
--   question) must not run its side effect before the answer; this one made a remote hop.
-- remedy: Make dispatch honour the gate action; the gate decides inline, before dispatch.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' had gate action ' || c.gate_action || ' but still went remote.' AS reason
FROM tool_calls c
WHERE c.gate_action IN ('block', 'ask') AND c.went_remote
