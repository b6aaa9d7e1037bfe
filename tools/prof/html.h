/*
 * html.h - bspprof --html: one self-contained page (no network, no files
 * beside it) showing a trace (header-only: included by bspprof.c after its
 * types).
 *
 * 1. A timeline of the supersteps by processor, drawn here as inline SVG:
 *    one row per processor, its work, waiting, communication and the
 *    profiler's own counting as coloured bars on a common time axis, each
 *    superstep's end (the last processor's) marked with its number and its
 *    h-relation; every bar has a tooltip with its figures.
 * 2. Predicted against measured cost per superstep: the trace's figures as
 *    JSON in the page, drawn by a short script into an SVG (one measured bar
 *    and, with g and l, one predicted bar per superstep), which also sets
 *    data-drawn on <body> to the number of supersteps it drew, so a test in a
 *    headless browser can tell that the script ran.
 */
#ifndef SUPERSTEP_TOOLS_PROF_HTML_H
#define SUPERSTEP_TOOLS_PROF_HTML_H

#define HTML_W 1100.0  /* plotting width, px */
#define HTML_LEFT 100.0
#define HTML_ROW 26.0

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>Superstep profile</title>\n<style>\n"
    "body{font:14px/1.4 sans-serif;margin:20px;color:#222;background:#fff}\n"
    "h1{font-size:20px}h2{font-size:16px;margin-top:28px}\n"
    ".work{fill:#4e79a7}.comm{fill:#f28e2b}.wait{fill:#bab0ac}.prof{fill:#e15759}\n"
    ".measured{fill:#4e79a7}.predicted{fill:#59a14f}.over{fill:#e15759}\n"
    ".end{stroke:#333;stroke-width:0.5}.axis{stroke:#888;stroke-width:1}\n"
    "svg text{font:11px sans-serif;fill:#222}\n"
    ".key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 14px;vertical-align:middle}\n"
    "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}\n"
    "</style>\n</head>\n";

static void html_key(FILE *f, const char *const *names, const char *const *classes, int n)
{
    static const char *const colour[] = { "work", "#4e79a7", "comm", "#f28e2b", "wait", "#bab0ac",
                                          "prof", "#e15759", "measured", "#4e79a7", "predicted", "#59a14f" };
    fputs("<p class=\"key\">", f);
    for (int i = 0; i < n; i++) {
        const char *c = "#000";
        for (size_t j = 0; j < sizeof colour / sizeof *colour; j += 2)
            if (!strcmp(colour[j], classes[i]))
                c = colour[j + 1];
        fprintf(f, "<span style=\"background:%s\"></span>%s", c, names[i]);
    }
    fputs("</p>\n", f);
}

static void html_bar(FILE *f, const char *cls, double x, double y, double w, double h, long step, int s,
                     const char *what, double us)
{
    if (w <= 0)
        return;
    fprintf(f, "<rect class=\"%s\" data-step=\"%ld\" x=\"%.2f\" y=\"%.1f\" width=\"%.3f\" height=\"%.1f\">"
               "<title>superstep %ld, processor %d: %s %.3f us</title></rect>\n",
            cls, step, x, y, w < 0.2 ? 0.2 : w, h, step, s, what, us);
}

/* 1. The timeline. */
static void html_timeline(FILE *f, const struct trace *t)
{
    double t0 = INFINITY, t1 = -INFINITY;
    for (size_t i = 0; i < t->n * (size_t)t->p; i++)
        if (t->cells[i].seen) {
            t0 = fmin(t0, t->cells[i].start);
            t1 = fmax(t1, t->cells[i].end);
        }
    double span = t1 > t0 ? t1 - t0 : 1, sx = HTML_W / span, top = 34;
    double height = top + HTML_ROW * t->p + 30;
    fprintf(f, "<svg id=\"timeline\" width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"supersteps by processor\">\n",
            HTML_LEFT + HTML_W + 60, height);
    for (int s = 0; s < t->p; s++)
        fprintf(f, "<text x=\"4\" y=\"%.1f\">processor %d</text>\n", top + HTML_ROW * s + 16, s);
    double last_label = -1e9;
    for (size_t k = 0; k < t->n; k++) {
        double end = -INFINITY;
        for (int s = 0; s < t->p; s++) {
            const struct cost_cell *c = &t->cells[k * t->p + s];
            if (!c->seen)
                continue;
            end = fmax(end, c->end);
            double x = HTML_LEFT + (c->start - t0) * sx, y = top + HTML_ROW * s + 3, h = HTML_ROW - 6;
            html_bar(f, "work", x, y, c->work * sx, h, t->step[k], s, "work", c->work);
            x += c->work * sx;
            html_bar(f, "wait", x, y, c->wait * sx, h, t->step[k], s, "waiting at the barrier", c->wait);
            x += c->wait * sx;
            html_bar(f, "prof", x, y, c->prof * sx, h, t->step[k], s, "the profiler counting", c->prof);
            x += c->prof * sx;
            html_bar(f, "comm", x, y, c->comm * sx, h, t->step[k], s, "communication", c->comm);
        }
        double x = HTML_LEFT + (end - t0) * sx;
        fprintf(f, "<line class=\"end\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.0f\" y2=\"%.0f\"/>\n", x, x, top - 4,
                top + HTML_ROW * t->p);
        if (x - last_label > 70) {
            fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"end\">%ld: h=%.0f B</text>\n", x - 2, top - 8,
                    t->step[k], t->rows[k].h_bytes);
            last_label = x;
        }
    }
    double ya = top + HTML_ROW * t->p + 4;
    fprintf(f, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>\n", HTML_LEFT, HTML_LEFT + HTML_W,
            ya, ya);
    for (int i = 0; i <= 5; i++)
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.0f us</text>\n", HTML_LEFT + HTML_W * i / 5,
                ya + 16, span * i / 5);
    fputs("</svg>\n", f);
}

/* 2. The data the script draws: one object per superstep. */
static void html_data(FILE *f, const struct trace *t, const struct model *m)
{
    fprintf(f, "<script type=\"application/json\" id=\"steps\">{\"model\":%s,\"steps\":[", m->on ? "true" : "false");
    for (size_t k = 0; k < t->n; k++) {
        const struct cost_row *r = &t->rows[k];
        fprintf(f, "%s\n{\"step\":%ld,\"t\":%.3f,\"w\":%.3f,\"h\":%.0f,\"last\":%s", k ? "," : "", t->step[k], r->t,
                r->wmax, ceil(r->h_bytes / m->word), r->last ? "true" : "false");
        if (m->on)
            fprintf(f, ",\"pred\":%.3f", cost_predict(r, m->g, m->l, m->word));
        fputs("}", f);
    }
    fputs("]}</script>\n", f);
}

static const char html_script[] =
    "<script>\n"
    "(function () {\n"
    "  'use strict';\n"
    "  var data = JSON.parse(document.getElementById('steps').textContent);\n"
    "  var svg = document.getElementById('model'), ns = 'http://www.w3.org/2000/svg';\n"
    "  var left = 70, width = 1100, top = 10, height = 220, n = data.steps.length;\n"
    "  var max = 0;\n"
    "  data.steps.forEach(function (s) { max = Math.max(max, s.t, data.model ? s.pred : 0); });\n"
    "  if (max <= 0) max = 1;\n"
    "  var slot = width / n, bar = Math.max(slot * (data.model ? 0.4 : 0.8), 0.5);\n"
    "  function el(name, attrs, title) {\n"
    "    var e = document.createElementNS(ns, name);\n"
    "    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });\n"
    "    if (title) { var t = document.createElementNS(ns, 'title'); t.textContent = title; e.appendChild(t); }\n"
    "    svg.appendChild(e);\n"
    "    return e;\n"
    "  }\n"
    "  function y(v) { return top + height - v / max * height; }\n"
    "  data.steps.forEach(function (s, i) {\n"
    "    var x = left + i * slot;\n"
    "    var text = 'superstep ' + s.step + ': measured ' + s.t.toFixed(3) + ' us';\n"
    "    if (data.model) text += ', predicted ' + s.pred.toFixed(3) + ' us (ratio ' +\n"
    "        (s.pred > 0 ? (s.t / s.pred).toFixed(2) : '-') + ')';\n"
    "    text += ', w ' + s.w.toFixed(3) + ' us, h ' + s.h + ' words';\n"
    "    el('rect', {'class': 'measured', 'data-step': s.step, x: x, y: y(s.t), width: bar,\n"
    "                height: Math.max(height + top - y(s.t), 0.5)}, text);\n"
    "    if (slot >= 16) {\n"
    "      var num = el('text', {x: x + slot * 0.4, y: top + height + 14, 'text-anchor': 'middle'});\n"
    "      num.textContent = String(s.step);\n"
    "    }\n"
    "    if (data.model)\n"
    "      el('rect', {'class': 'predicted', 'data-step': s.step, x: x + bar, y: y(s.pred), width: bar,\n"
    "                  height: Math.max(height + top - y(s.pred), 0.5)}, text);\n"
    "  });\n"
    "  el('line', {'class': 'axis', x1: left, x2: left + width, y1: top + height, y2: top + height});\n"
    "  for (var i = 0; i <= 4; i++) {\n"
    "    var t = el('text', {x: left - 6, y: y(max * i / 4) + 4, 'text-anchor': 'end'});\n"
    "    t.textContent = (max * i / 4).toFixed(1) + ' us';\n"
    "  }\n"
    "  var label = el('text', {x: left, y: top + height + 32});\n"
    "  label.textContent = 'supersteps ' + data.steps[0].step + ' to ' + data.steps[n - 1].step + ', left to right';\n"
    "  document.body.setAttribute('data-drawn', String(n));\n"
    "})();\n"
    "</script>\n";

static void html_costliest(FILE *f, const struct trace *t, const struct model *m)
{
    fputs("<table><tr><th>superstep</th><th>T (us)</th><th>work</th><th>comm</th><th>wait</th><th>processor</th>"
          "<th>h (words)</th>",
          f);
    if (m->on)
        fputs("<th>predicted (us)</th><th>T/predicted</th>", f);
    fputs("</tr>\n", f);
    size_t *order = xrealloc(NULL, t->n * sizeof *order);
    for (size_t k = 0; k < t->n; k++)
        order[k] = k;
    qsort_r(order, t->n, sizeof *order, cmp_row_t, t->rows);
    for (size_t i = 0; i < t->n && i < 10; i++) {
        const struct cost_row *r = &t->rows[order[i]];
        fprintf(f, "<tr><td>%ld</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%d</td><td>%.0f</td>",
                t->step[order[i]], r->t, r->work, r->comm, r->wait, r->crit, ceil(r->h_bytes / m->word));
        if (m->on) {
            double pc = cost_predict(r, m->g, m->l, m->word);
            fprintf(f, "<td>%.3f</td><td>%.2f</td>", pc, pc > 0 ? r->t / pc : 0);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    free(order);
}

static int write_html(const char *path, const struct trace *t, const struct model *m)
{
    FILE *f = fopen(path, "we");
    if (!f) {
        fprintf(stderr, "bspprof: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    struct sums s = run_totals(t);
    fputs(html_head, f);
    fputs("<body>\n<h1>Superstep profile: ", f);
    html_text(f, t->path);
    fprintf(f, "</h1>\n<p>%d processors, %ld supersteps", t->p, t->supersteps);
    if ((long)t->n < t->supersteps)
        fprintf(f, " (%zu drawn: the first ones and the costliest)", t->n);
    fprintf(f, "%s. Total: %.3f us = work %.3f + communication %.3f + waiting %.3f (per superstep, the processor "
               "that took longest).</p>\n",
            t->complete ? "" : "; INCOMPLETE: the job failed", s.t, s.work, s.comm, s.wait);
    fputs("<h2>Timeline of the supersteps by processor</h2>\n", f);
    static const char *const tn[] = { "work", "waiting", "communication", "profiler" };
    static const char *const tc[] = { "work", "wait", "comm", "prof" };
    html_key(f, tn, tc, 4);
    if ((long)t->n < t->supersteps)
        fputs("<p>Gaps are supersteps the trace holds in its totals only (SUPERSTEP_PROFILE_STEPS).</p>\n", f);
    html_timeline(f, t);
    fputs("<h2>Predicted against measured cost per superstep</h2>\n", f);
    if (m->on)
        fprintf(f, "<p>predicted = w + g&middot;h + l with g = %.4f us per %g-byte word, l = %.3f us</p>\n", m->g,
                m->word, m->l);
    else
        fputs("<p>no g and l given (bspprof -b bspbench.out, or -g and -l): measured cost only</p>\n", f);
    if (m->on && m->poor) /* the bench file's fit: flagged where the figures are */
        fputs("<p id=\"poorfit\" style=\"color:#b00;font-weight:bold\">POOR FIT: bspbench judged the fit that gave "
              "g and l poor; the predictions below are unreliable</p>\n",
              f);
    static const char *const mn[] = { "measured", "predicted" };
    html_key(f, mn, mn, m->on ? 2 : 1);
    fputs("<svg id=\"model\" width=\"1200\" height=\"275\" role=\"img\" aria-label=\"cost per superstep\"></svg>\n", f);
    fputs("<h2>The costliest supersteps</h2>\n", f);
    html_costliest(f, t, m);
    html_data(f, t, m);
    fputs(html_script, f);
    fputs("</body>\n</html>\n", f);
    if (fclose(f) != 0) {
        fprintf(stderr, "bspprof: error writing %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

#endif
