-- id: invalid_argument_label
-- title: Argument without exactly one known label
-- severity: medium
-- kind: check
-- description: Every argument span carries exactly one provenance label and one residency label
--   from the documented sets; this one is missing a label or has an unknown value.
-- remedy: Check the instrumentation version against the conventions the analyzer was built with.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' has '
    || CASE WHEN a.provenance IS NULL THEN 'no provenance label'
         WHEN a.provenance IN ('user_explicit', 'context_retrieved', 'schema_default', 'model_inferred') THEN 'provenance ' || a.provenance
         ELSE 'an unknown provenance label' END
    || ' and '
    || CASE WHEN a.residency IS NULL THEN 'no residency label'
         WHEN a.residency IN ('secret', 'dirty-tree', 'bulky-public', 'tiny-public', 'unknown') THEN 'residency ' || a.residency
         ELSE 'an unknown residency label' END
    || ' (an unknown label is not repeated: it may be any text), not one known label each.' AS reason
FROM tool_args a
WHERE a.provenance IS NULL OR a.provenance NOT IN ('user_explicit', 'context_retrieved', 'schema_default', 'model_inferred', 'no_evidence')
   OR a.residency IS NULL OR a.residency NOT IN ('secret', 'dirty-tree', 'bulky-public', 'tiny-public', 'unknown')
