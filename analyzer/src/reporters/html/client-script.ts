/**
 * The page's own script (vanilla, no build step): it filters the server-rendered findings by rule,
 * severity, tool and emitter (a set's `data-tool` and `data-emitter`), links trace ids to Jaeger
 * when the report has a Jaeger URL (`data-jaeger` on the body), and draws the charts with
 * Observable Plot from the JSON data block.
 * It reads text and writes only textContent, attributes and Plot's SVG (which sets text as text),
 * so nothing from the traces is ever parsed as HTML. Each chart that draws is marked
 * `data-drawn`; one that fails shows why and logs it.
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('argspan-data').textContent);

  var form = document.getElementById('filters');
  if (form) {
    var groups = Array.prototype.slice.call(document.querySelectorAll('section.group'));
    var status = document.getElementById('filter-status');
    var apply = function () {
      var rule = form.elements.rule.value, severity = form.elements.severity.value;
      var tool = form.elements.tool.value, emitter = form.elements.emitter.value;
      var shown = 0;
      groups.forEach(function (g) {
        var n = 0;
        if ((!rule || g.dataset.rule === rule) && (!severity || g.dataset.severity === severity)) {
          g.querySelectorAll('div.block').forEach(function (block) {
            var m = 0;
            block.querySelectorAll('tbody').forEach(function (set) {
              var on = (!tool || set.dataset.tool === tool) && (!emitter || set.dataset.emitter === emitter);
              var k = on ? set.rows.length - 1 : 0;
              set.hidden = !on;
              m += k;
            });
            block.hidden = m === 0;
            n += m;
          });
        }
        g.hidden = n === 0;
        g.querySelector('.shown').textContent = String(n);
        shown += n;
      });
      status.textContent = 'Showing ' + shown + ' of ' + form.dataset.total + ' findings.';
    };
    form.addEventListener('change', apply);
    form.addEventListener('reset', function () { setTimeout(apply, 0); });
    form.hidden = false;
  }

  // Jaeger links (--jaeger-url), made here rather than written into each of up to 100k rows,
  // where a link per row doubled the file and its parse time. An overview cell says its ids
  // (data-trace, data-span); a finding row's ids are its two cells, linked a block at a time as
  // the block comes near the screen.
  var jaeger = document.body.dataset.jaeger;
  if (jaeger && /^https?:\/\//i.test(jaeger)) {
    var hex = /^[0-9a-f]+$/;
    var link = function (trace, span, text, className) {
      var a = document.createElement('a');
      a.href = jaeger.replace(/\/+$/, '') + '/trace/' + trace + (hex.test(span) ? '?uiFind=' + span : '');
      a.textContent = text;
      if (className) a.className = className;
      return a;
    };
    document.querySelectorAll('[data-trace]').forEach(function (el) {
      if (hex.test(el.dataset.trace)) el.replaceWith(link(el.dataset.trace, el.dataset.span || '', el.textContent, el.className));
    });
    var linkRows = function (block) {
      block.querySelectorAll('tr:not(.what)').forEach(function (row) {
        var trace = row.cells[0].textContent.trim();
        if (hex.test(trace)) row.cells[0].replaceChildren(link(trace, row.cells[1].textContent.trim(), trace));
      });
    };
    var blocks = document.querySelectorAll('#findings div.block');
    if (typeof IntersectionObserver === 'function') {
      var near = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting) { near.unobserve(e.target); linkRows(e.target); }
        });
      }, { rootMargin: '2000px 0px' });
      blocks.forEach(function (b) { near.observe(b); });
    } else blocks.forEach(linkRows);
  }

  var cut = function (s, n) { return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; };
  var draw = function (name, make) {
    var el = document.querySelector('[data-chart="' + name + '"]');
    if (!el) return;
    try {
      el.replaceChildren(make(Math.max(320, Math.min(el.clientWidth || 640, 1100))));
      el.dataset.drawn = 'true';
    } catch (err) {
      el.textContent = 'This chart could not be drawn (' + (err && err.message) + '); the table has the same numbers.';
      console.error(err);
    }
  };
  // The longest bar: the largest total of x per y (bars stack).
  var maxOf = function (rows, y, x) {
    var sums = {};
    rows.forEach(function (d) { sums[d[y]] = (sums[d[y]] || 0) + d[x]; });
    return Object.keys(sums).reduce(function (m, k) { return Math.max(m, sums[k]); }, 0);
  };
  var countAxis = function (label, max) { return { label: label, grid: true, ticks: Math.max(1, Math.min(10, max)), tickFormat: 'd' }; };
  var colours = function (domain, range) { return { domain: domain, range: range, legend: true }; };

  if (data.severity.length) draw('severity', function (width) {
    return Plot.plot({
      width: width, height: 40 + 28 * data.severity.length, marginLeft: 80,
      x: countAxis('findings', maxOf(data.severity, 'severity', 'count')), y: { label: null, domain: data.severity.map(function (d) { return d.severity; }) },
      color: { domain: data.severityColours.domain, range: data.severityColours.range },
      marks: [
        Plot.barX(data.severity, { x: 'count', y: 'severity', fill: 'severity', title: function (d) { return d.severity + ': ' + d.count; } }),
        Plot.text(data.severity, { x: 'count', y: 'severity', text: function (d) { return String(d.count); }, dx: 4, textAnchor: 'start' }),
        Plot.ruleX([0])
      ]
    });
  });

  // Horizontal bars per y label, stacked by the fill field, with a colour legend.
  var stackedBars = function (rows, o) {
    return function (width) {
      return Plot.plot({
        width: width, height: 50 + 24 * o.labels.length, marginLeft: o.marginLeft,
        x: countAxis(o.xLabel, maxOf(rows, o.y, o.x)), y: { label: null, domain: o.labels, tickFormat: function (t) { return cut(t, o.cutAt); } },
        color: colours(o.colours.domain, o.colours.range),
        marks: [
          Plot.barX(rows, { x: o.x, y: o.y, fill: o.fill, order: o.colours.domain,
            title: function (d) { return d[o.y] + ' \u00b7 ' + d[o.fill] + ': ' + d[o.x]; } }),
          Plot.ruleX([0])
        ]
      });
    };
  };
  if (data.residency.length) draw('residency', stackedBars(data.residency, {
    x: 'arguments', y: 'tool', fill: 'residency', labels: data.residencyTools, colours: data.residencyColours, xLabel: 'argument leaves', marginLeft: 180, cutAt: 28
  }));
  if (data.turns.length) draw('turns', stackedBars(data.turns, {
    x: 'count', y: 'turn', fill: 'provenance', labels: data.turnLabels, colours: data.provenanceColours, xLabel: 'argument values', marginLeft: 260, cutAt: 42
  }));

  if (data.hopEvents.length) draw('hops', function (width) {
    var labels = data.hopLabels;
    return Plot.plot({
      width: width, height: 60 + 22 * labels.length, marginLeft: 200,
      x: { label: 'milliseconds since the hop\u2019s first event', grid: true },
      y: { label: null, domain: labels, tickFormat: function (t) { return cut(t, 30); } },
      color: colours(data.hopEventNames, data.hopEventColours),
      marks: [
        Plot.ruleY(data.hopSpans, { y: 'hop', x1: 0, x2: 'end_ms', stroke: '#bbb' }),
        Plot.dot(data.hopEvents, { x: 'at_ms', y: 'hop', fill: 'event', r: 4,
          title: function (d) { return d.event + ' at ' + d.at_ms + ' ms' + (d.rtt_ms === null ? '' : ', round trip ' + d.rtt_ms + ' ms'); } })
      ]
    });
  });
})();
`;
