-- id: excerpt_on_sensitive_leaf
-- title: Excerpt recorded on a secret or dirty-tree argument
-- severity: critical
-- kind: gate
-- description: Excerpts are opt-in and never allowed on secret or dirty-tree leaves, yet this
--   argument span carries argspan.arg.excerpt. The trace itself now holds sensitive text.
-- remedy: Purge the affected exports, rotate the secret, and fix the instrumentation so the
--   excerpt is dropped for these labels.
SELECT a.trace_id, a.span_id, a.tool, a."key",
  'Argument ' || a."key" || ' of ' || coalesce(a.tool, '?') || ' is labelled ' || a.residency || ' but its span carries an excerpt.' AS reason
FROM tool_args a
WHERE a.has_excerpt AND a.residency IN ('secret', 'dirty-tree')
