/* html_check.js - appended to a copy of a bspprof --html page by
 * tests/profile/html.sh: measures, in the browser, what the page drew and
 * leaves the findings as JSON in <body data-check>: every label (SVG text)
 * outside its SVG's box (clipped), every two labels of one SVG that
 * overlap, the tick labels of each axis, and the height of every bar. */
(function () {
  'use strict';
  var out = { clipped: [], overlaps: [], ticks: {}, bars: {} };
  function box(e) { return e.getBoundingClientRect(); }
  ['timeline', 'model'].forEach(function (id) {
    var svg = document.getElementById(id), b = box(svg);
    var texts = Array.prototype.slice.call(svg.querySelectorAll('text'));
    var rs = texts.map(box);
    texts.forEach(function (t, i) {
      var r = rs[i];
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5)
        out.clipped.push(id + ': "' + t.textContent + '" at ' + [r.left, r.right, r.top, r.bottom].map(Math.round) +
                         ' outside ' + [b.left, b.right, b.top, b.bottom].map(Math.round));
      for (var j = 0; j < i; j++) {
        var q = rs[j];
        var w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
        var h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
        if (w > 0.5 && h > 0.5)
          out.overlaps.push(id + ': "' + t.textContent + '" over "' + texts[j].textContent + '"');
      }
    });
    out.ticks[id] = texts.filter(function (t) { return t.getAttribute('class') === 'tick'; })
                         .map(function (t) { return t.textContent; });
    ['measured', 'predicted'].forEach(function (cls) {
      out.bars[cls] = Array.prototype.slice.call(svg.querySelectorAll('rect.' + cls))
        .map(function (r) { return [Number(r.getAttribute('data-step')), box(r).height, box(r).width]; })
        .concat(out.bars[cls] || []);
    });
  });
  document.body.setAttribute('data-check', JSON.stringify(out));
})();
