-- id: ask_without_question
-- title: Gate asked without a clarifying question
-- severity: medium
-- kind: check
-- description: When the gate asks, it records exactly one clarifying question naming the field
--   (argspan.gate.question); this call has gate action ask and no question.
-- remedy: Check the question builder of the gate for this tool.
SELECT c.trace_id, c.span_id, c.tool, NULL AS "key",
  'Tool call ' || c.tool || ' has gate action ask but records no clarifying question.' AS reason
FROM tool_calls c
WHERE c.emitter = 'argspan' AND c.gate_action = 'ask' AND (c.gate_question IS NULL OR trim(c.gate_question) = '')
