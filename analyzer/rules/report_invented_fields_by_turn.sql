-- id: report_invented_fields_by_turn
-- title: Fields invented per turn, by tool and key
-- severity: info
-- kind: report
-- description: Parent-span join. For each turn (the parent span of the tool calls), which argument
--   keys the model invented (model_inferred provenance), per tool and key, with how often. A call with
--   no arguments (`{}`: its one leaf `$`, rule `empty`) invented nothing; an empty value under a key
--   (`{"q": ""}`) is still the model's.
-- remedy: Informational. Use it to tune the denylist and the agent's prompts.
SELECT a.trace_id, a.turn_span_id AS span_id, a.tool, a."key",
  'Turn ' || coalesce(t."name", a.turn_span_id, 'without parent') || ': ' || a.tool || ' got ' || count(*)
    || ' model-inferred value(s) for ' || a."key" || '.' AS reason
FROM tool_args a LEFT JOIN spans t ON t.trace_id = a.trace_id AND t.span_id = a.turn_span_id
WHERE a.provenance = 'model_inferred' AND NOT coalesce(a."key" = '$' AND a.rule = 'empty', false)
GROUP BY a.trace_id, a.turn_span_id, t."name", a.tool, a."key"
