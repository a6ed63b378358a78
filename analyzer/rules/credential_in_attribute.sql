-- id: credential_in_attribute
-- title: Credential-shaped value in a span attribute, name or status message
-- severity: critical
-- kind: gate
-- description: The analyzer re-scans every string or bytes attribute (span, event, link, resource
--   and instrumentation scope), every span and event name, status message and attribute key, and
--   the instrumentation scope's name and version with argspan's secret detector.
--   This one holds a value shaped like a credential (the rule id says which kind); exported traces
--   must never carry one. When the attribute is the recorded
--   arguments of another library's tool call (or a copy of them: the model's proposal, a later
--   prompt's history) and the credential is one a secret argument of that call holds (the same
--   keyed hash of its text, in its value or its key), the finding names the tool and the argument, once however many
--   attributes copy it (or its own span echoes it: a tool's result holding the credential it was
--   called with); any other credential in that attribute (a model proposed a call whose
--   executed arguments differ, or the attribute's text around the call holds it), and a credential
--   in what the model was told (the user's words it copied into a call), the attribute.
--   One credential in places of one kind (attributes of spans or their events, whatever their names;
--   span names; …) is one finding, where it first appeared, the other places and traces counted: a
--   token the user typed, repeated in every later prompt of the conversation, is reported once, on
--   the prompt that first held it; a token a tool returned, on the tool's result, not on the later
--   prompts (`ai.prompt`, `ai.prompt.messages`, …) that repeat it.
-- remedy: Purge the affected exports, rotate the credential, and find which code path wrote it.
WITH blob_hits AS (
  -- Hits in an attribute recording (a copy of) another library's tool-call arguments.
  SELECT h.trace_id AS trace_id, h.span_id AS at_span_id, h."key" AS attribute, h.rule_id AS rule_id, h.credential_hash AS credential_hash,
    b.call_span_id AS call_span_id
  -- (On the span, or on one of its events: a model's messages recorded as span events.)
  FROM credential_hits h JOIN argument_blobs b ON h.scope IN ('span', 'event') AND b.trace_id = h.trace_id AND b.span_id = h.span_id AND b.attribute = h."key"),
-- Each blob hit that is a credential of a secret argument of the call the blob belongs to (the
-- same keyed hash of the credential's text): that argument's credential, copied. And each hit in
-- another attribute of the call's own span (`echo`) with that hash: the tool's result echoing the
-- credential it was called with is the same credential, reported once, by argument (the next
-- prompt's history repeating that result is a copy of the call already).
argument_hits AS (SELECT bh.trace_id AS trace_id, bh.at_span_id AS at_span_id, bh.attribute AS attribute, bh.rule_id AS rule_id,
    bh.credential_hash AS credential_hash, bh.call_span_id AS call_span_id, ac."key" AS "key", false AS echo
  FROM blob_hits bh JOIN argument_credentials ac ON ac.trace_id = bh.trace_id AND ac.span_id = bh.call_span_id AND ac.credential_hash = bh.credential_hash
  UNION ALL
  SELECT h.trace_id AS trace_id, h.span_id AS at_span_id, h."key" AS attribute, h.rule_id AS rule_id,
    h.credential_hash AS credential_hash, h.span_id AS call_span_id, ac."key" AS "key", true AS echo
  FROM credential_hits h JOIN argument_credentials ac ON h.scope IN ('span', 'event') AND ac.trace_id = h.trace_id AND ac.span_id = h.span_id AND ac.credential_hash = h.credential_hash
  WHERE (h.trace_id, h.span_id, h."key") NOT IN (SELECT trace_id, at_span_id, attribute FROM blob_hits)
    -- (a call the model proposed is on its model span, whose other attributes are what the model
    -- was told: the user's words holding the credential are reported, as on any other span)
    AND (h.trace_id, h.span_id) NOT IN (SELECT trace_id, span_id FROM tool_calls WHERE call_source = 'model-output')),
by_argument AS (
  -- Reported once per argument the detector labels a credential, however many attributes copy it
-- (a model's proposal, each later prompt that repeats the call in its history).
  -- The kind is the argument's own detector rule, else the hit's.
  -- Named by the attribute on the call's own span where it has one (the others are copies: a model's proposal, a later prompt's history),
  -- each copy counted by span and attribute (every later prompt's gen_ai.input.messages is one).
  SELECT a.trace_id AS trace_id, a.span_id AS span_id, a.tool AS tool, a."key" AS "key", a.emitter AS emitter,
    coalesce(min(ah.attribute) FILTER (WHERE ah.at_span_id = ah.call_span_id AND NOT ah.echo), min(ah.attribute) FILTER (WHERE NOT ah.echo), min(ah.attribute)) AS attribute,
    count(DISTINCT (ah.at_span_id, ah.attribute)) AS copies,
    coalesce(min(a.rule) FILTER (WHERE a.rule NOT IN ('inherited-secret', 'inherited-dirty-tree', 'secret-in-key')), min(ah.rule_id)) AS rule_id,
    -- (the credential in the argument's key, `{"ghp_…": "x"}`: shown redacted, named by the hit's kind)
    max(CASE WHEN a.rule = 'secret-in-key' THEN 1 ELSE 0 END) = 1 AS in_key
  FROM argument_hits ah JOIN tool_args a ON a.trace_id = ah.trace_id AND a.span_id = ah.call_span_id AND a."key" = ah."key"
  WHERE a.emitter <> 'argspan' AND a.residency = 'secret' AND a.rule NOT IN ('secret-key-name', 'secret-file-name')
  GROUP BY a.trace_id, a.span_id, a.tool, a."key", a.emitter),
-- Hits an argument above accounts for (its credential, in the call's blob). Any other hit, in a blob
-- attribute or not, is reported by attribute below: the credential is in the trace, but not in an
-- argument of the call as it ran.
-- (A secret argument under another rule is reported by sensitive_arg_dispatched, as the call it is in.)
explained AS (SELECT DISTINCT trace_id, at_span_id, attribute, credential_hash FROM argument_hits),
-- Attributes outside blobs with an echo explained: their other credentials are each reported (the first is the echo's).
echoed AS (SELECT DISTINCT trace_id, at_span_id, attribute FROM argument_hits WHERE echo),
-- The tool an unexplained blob attribute records, when it records one tool's calls.
blob_tools AS (SELECT bh.trace_id AS trace_id, bh.at_span_id AS at_span_id, bh.attribute AS attribute,
    CASE WHEN count(DISTINCT c.tool) = 1 THEN min(c.tool) END AS tool
  FROM blob_hits bh JOIN tool_calls c ON c.trace_id = bh.trace_id AND c.span_id = bh.call_span_id
  GROUP BY bh.trace_id, bh.at_span_id, bh.attribute),
-- Only the spans with a hit: the call or argument span it is on, for the tool and key.
-- (A model span of another library may record several calls: its tool is named when they share it.)
-- (`ran`: the span ran its calls, a tool's own span, not a model's proposal)
calls AS (SELECT trace_id, span_id, CASE WHEN count(DISTINCT tool) = 1 THEN min(tool) END AS tool,
    min(CASE WHEN call_source = 'model-output' THEN 0 ELSE 1 END) = 1 AS ran FROM tool_calls
  WHERE (trace_id, span_id) IN (SELECT trace_id, span_id FROM credential_hits) GROUP BY trace_id, span_id),
args AS (SELECT trace_id, span_id, tool, "key" FROM tool_args
  WHERE emitter = 'argspan' AND (trace_id, span_id) IN (SELECT trace_id, span_id FROM credential_hits)),
-- Hits reported by where they are (no argument accounts for them), each with what makes it the
-- same finding as another: the credential (its keyed hash), its kind, and the kind of place (an
-- attribute of one name on spans or their events, a span's name, …) with the tool and key shown.
by_place AS (SELECT h.trace_id AS trace_id, h.span_id AS span_id, coalesce(c.tool, a.tool, bt.tool) AS tool, coalesce(a."key", h."key") AS "key",
  CASE h.scope
    WHEN 'span name' THEN 'The span''s name holds'
    WHEN 'status message' THEN 'The span''s status message holds'
    WHEN 'attribute key' THEN 'The span''s attribute key ' || h."key" || ' is'
    WHEN 'event name' THEN 'The name of an event of the span holds'
    WHEN 'event attribute key' THEN 'The attribute key ' || h."key" || ' on an event of the span is'
    WHEN 'link attribute key' THEN 'The attribute key ' || h."key" || ' on a link of the span is'
    WHEN 'resource attribute key' THEN 'The resource attribute key ' || h."key" || ' is'
    WHEN 'scope name' THEN 'The name of the span''s instrumentation scope holds'
    WHEN 'scope version' THEN 'The version of the span''s instrumentation scope holds'
    WHEN 'scope attribute key' THEN 'The attribute key ' || h."key" || ' of the span''s instrumentation scope is'
    WHEN 'scope' THEN 'Attribute ' || h."key" || ' of the span''s instrumentation scope holds'
    WHEN 'event' THEN 'Attribute ' || h."key" || ' on an event of the span holds'
    WHEN 'link' THEN 'Attribute ' || h."key" || ' on a link of the span holds'
    ELSE 'Attribute ' || h."key" || ' on a ' || h.scope || ' holds'
  END || ' a value matching the ' || h.rule_id || ' credential shape'
    || CASE WHEN bt.trace_id IS NOT NULL THEN '; no argument of the ' || coalesce(bt.tool || ' call', 'calls of several tools') || ' it records holds one as the call ran' ELSE '' END
    || '.' AS reason,
  -- (a hit without a hash is a finding of its own)
  coalesce(h.credential_hash, h.trace_id || '/' || h.span_id || '/' || h.scope || '/' || h."key") AS credential,
  h.rule_id AS rule_id,
  -- (an attribute of a span and its copy on the span's event are one kind of place: a model's messages recorded both ways)
  CASE WHEN h.scope = 'event' THEN 'span' ELSE h.scope END AS place,
  h.scope = 'event' AS on_event,
  coalesce(c.ran, false) AS ran,
  -- (any attribute of a span or its events is one kind of place: a credential a tool returned is
  -- repeated by later prompts under other names)
  CASE WHEN h.scope IN ('span', 'event') THEN NULL ELSE h."key" END AS place_key,
  -- When it was there: an attribute's span's end (a tool's result is there when its span ends, and
  -- a span enclosing others, an agent run holding all its messages, ends after them), else the start.
  CASE WHEN h.scope IN ('span', 'event') THEN coalesce(h.end_ns, h.start_ns) ELSE h.start_ns END AS at_ns
FROM credential_hits h
LEFT JOIN calls c ON c.trace_id = h.trace_id AND c.span_id = h.span_id
LEFT JOIN args a ON a.trace_id = h.trace_id AND a.span_id = h.span_id
LEFT JOIN explained e ON h.scope IN ('span', 'event') AND e.trace_id = h.trace_id AND e.at_span_id = h.span_id AND e.attribute = h."key"
  AND e.credential_hash = h.credential_hash
LEFT JOIN blob_tools bt ON h.scope IN ('span', 'event') AND bt.trace_id = h.trace_id AND bt.at_span_id = h.span_id AND bt.attribute = h."key"
LEFT JOIN echoed ea ON h.scope IN ('span', 'event') AND ea.trace_id = h.trace_id AND ea.at_span_id = h.span_id AND ea.attribute = h."key"
-- Outside argument blobs, a text is reported once, by its first credential (as the rule id names one
-- kind); in a blob attribute, or one echoing an argument's credential, each credential no argument accounts for.
WHERE e.trace_id IS NULL AND (h.hit_no = 1 OR bt.trace_id IS NOT NULL OR ea.trace_id IS NOT NULL)),
-- One credential in places of one kind is one finding (a token the user typed, repeated in every
-- later prompt of the conversation, trace after trace): named by its earliest place (by `at_ns`,
-- a span without one last; a span's attribute before its event's copy; then by trace and span
-- id and key), the others counted.
-- (The tool named is the first place's when that is the tool's own span — its result, the later
-- prompts repeating it — else the one its places' calls share, if they do: the call a model span
-- proposed beside the user's words is not where the credential is.)
numbered AS (SELECT *,
    row_number() OVER (PARTITION BY credential, rule_id, place, place_key ORDER BY coalesce(at_ns, 0) = 0, at_ns, on_event, trace_id, span_id, "key") AS nth,
    count(*) OVER same AS places, count(tool) OVER same AS with_tool, min(tool) OVER same AS first_tool, max(tool) OVER same AS last_tool,
    row_number() OVER (PARTITION BY credential, rule_id, place, place_key, trace_id ORDER BY span_id) AS nth_in_trace
  FROM by_place
  WINDOW same AS (PARTITION BY credential, rule_id, place, place_key)),
counted AS (SELECT *, sum(CASE WHEN nth_in_trace = 1 THEN 1 ELSE 0 END) OVER same AS traces FROM numbered WINDOW same AS (PARTITION BY credential, rule_id, place, place_key))
SELECT trace_id, span_id, tool, "key",
  'Argument ' || "key" || ' of ' || tool || ', recorded by ' || emitter || ' in ' || attribute
    || CASE WHEN copies > 1 THEN ' (and ' || (copies - 1) || ' other attribute(s))' ELSE '' END
    || CASE WHEN in_key THEN ', has a key matching the ' ELSE ', holds a value matching the ' END || rule_id || ' credential shape.' AS reason
FROM by_argument
UNION ALL
SELECT trace_id, span_id, CASE WHEN ran THEN tool WHEN with_tool = places AND first_tool = last_tool THEN first_tool END AS tool, "key",
  reason || CASE WHEN places > 1 THEN ' The same credential is in ' || (places - 1) || ' more place(s) like this one'
    || CASE WHEN traces > 1 THEN ', in ' || traces || ' traces in all' ELSE '' END || '.' ELSE '' END AS reason
FROM counted WHERE nth = 1
