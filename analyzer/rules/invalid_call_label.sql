-- id: invalid_call_label
-- title: Tool call without a known verdict, gate action, enforcement or residency
-- severity: medium
-- kind: check
-- description: Every tool-call span argspan writes carries one residency, verdict and gate action
--   from the documented sets (and an enforcement, when it records one); this one is missing a
--   label or has an unknown value, so the rules reading it cannot judge the call.
-- remedy: Check the instrumentation version against the conventions the analyzer was built with,
--   and whatever rewrote the spans between the exporter and this run.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' has '
    || CASE WHEN c.residency IS NULL THEN 'no residency label'
         WHEN c.residency IN ('secret', 'dirty-tree', 'bulky-public', 'tiny-public', 'unknown') THEN 'residency ' || c.residency
         ELSE 'an unknown residency label' END
    || ', ' || CASE WHEN c.verdict IS NULL THEN 'no verdict'
         WHEN c.verdict IN ('local', 'remote-ok', 'refuse') THEN 'verdict ' || c.verdict
         ELSE 'an unknown verdict' END
    || ', ' || CASE WHEN c.gate_action IS NULL THEN 'no gate action'
         WHEN c.gate_action IN ('allow', 'block', 'ask') THEN 'gate action ' || c.gate_action
         ELSE 'an unknown gate action' END
    || ' and ' || CASE WHEN c.enforcement IS NULL THEN 'no enforcement'
         WHEN c.enforcement IN ('run', 'hop', 'hold', 'deny') THEN 'enforcement ' || c.enforcement
         ELSE 'an unknown enforcement' END
    || ' (an unknown label is not repeated: it may be any text).' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND (
  c.residency IS NULL OR c.residency NOT IN ('secret', 'dirty-tree', 'bulky-public', 'tiny-public', 'unknown')
  OR c.verdict IS NULL OR c.verdict NOT IN ('local', 'remote-ok', 'refuse')
  OR c.gate_action IS NULL OR c.gate_action NOT IN ('allow', 'block', 'ask')
  OR (c.enforcement IS NOT NULL AND c.enforcement NOT IN ('run', 'hop', 'hold', 'deny')))
