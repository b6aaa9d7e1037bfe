/*
 * html.h - bspprof --html: one self-contained page (no network, no files
 * beside it) showing a trace (header-only: included by bspprof.c after its
 * types).
 *
 * 1. A timeline of the supersteps by processor, drawn here as inline SVG:
 *    one row per processor, its start-up inside bsp_begin, then its work,
 *    waiting, communication and the profiler's own counting as coloured
 *    bars on a common time axis from bsp_begin's call, with round ticks in
 *    s, ms or us as the run's length asks; each superstep's end (the last
 *    processor's) is marked, numbered where the number fits, and every
 *    superstep has a strip above the rows whose tooltip gives its number,
 *    T and h; every bar has a tooltip with its figures.
 * 2. Predicted against measured cost per superstep: the trace's figures as
 *    JSON in the page, drawn by a short script into an SVG (one measured bar
 *    and, with g and l, one predicted bar per superstep, each at least one
 *    pixel high and wide; round ticks whose unit follows the largest cost;
 *    the margin as wide as the widest tick label; a tooltip over every
 *    superstep's slot), which also sets data-drawn on <body> to the number
 *    of supersteps it drew, so a test in a headless browser can tell that
 *    the script ran.  The page says where g and l came from.
 */
#ifndef SUPERSTEP_TOOLS_PROF_HTML_H
#define SUPERSTEP_TOOLS_PROF_HTML_H

#define HTML_W 1100.0  /* plotting width, px */
#define HTML_LEFT 100.0
#define HTML_RIGHT 40.0
#define HTML_ROW 26.0
#define HTML_CHAR 6.5  /* width of a character of the 11px labels, at most */

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
    ".work{fill:#4e79a7}.comm{fill:#f28e2b}.wait{fill:#bab0ac}.prof{fill:#e15759}.startup{fill:#e8e3df}\n"
    ".measured{fill:#4e79a7}.predicted{fill:#59a14f}.over{fill:#e15759}\n"
    ".end{stroke:#333;stroke-width:0.5}.axis{stroke:#888;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}\n"
    ".hover{fill:transparent}.hover:hover{fill:rgba(0,0,0,0.08)}\n"
    "svg text{font:11px sans-serif;fill:#222}\n"
    ".scroll{overflow-x:auto}\n"
    ".key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 14px;vertical-align:middle}\n"
    "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}\n"
    "</style>\n</head>\n";

static void html_key(FILE *f, const char *const *names, const char *const *classes, int n)
{
    static const char *const colour[] = { "work", "#4e79a7", "comm", "#f28e2b", "wait", "#bab0ac",
                                          "prof", "#e15759", "startup", "#e8e3df", "measured", "#4e79a7",
                                          "predicted", "#59a14f" };
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

/* A time in microseconds as a person reads it: "1.39 s", "45 ms", "12.5 us". */
static void html_duration(char *out, size_t size, double us)
{
    double a = fabs(us);
    if (a >= 1e6)
        snprintf(out, size, "%.3g s", us / 1e6);
    else if (a >= 1e3)
        snprintf(out, size, "%.3g ms", us / 1e3);
    else
        snprintf(out, size, "%.3g us", us);
}

static void html_bar(FILE *f, const char *cls, double x, double y, double w, double h, long step, int s,
                     const char *what, double us)
{
    if (w <= 0)
        return;
    char d[32];
    html_duration(d, sizeof d, us);
    fprintf(f, "<rect class=\"%s\" data-step=\"%ld\" x=\"%.2f\" y=\"%.1f\" width=\"%.3f\" height=\"%.1f\">"
               "<title>superstep %ld, processor %d: %s %s</title></rect>\n",
            cls, step, x, y, w < 0.2 ? 0.2 : w, h, step, s, what, d);
}

/* Round ticks over [0, span] us: a step of 1, 2 or 5 times a power of ten,
 * about 'want' of them, in the unit (s, ms, us) that the span asks for. */
struct ticks {
    double step, div;  /* us between ticks; us per unit */
    const char *unit;
    int decimals;
};

static struct ticks html_ticks(double span, int want)
{
    double raw = span / want, mag = pow(10, floor(log10(raw > 0 ? raw : 1)));
    double m = raw / mag;
    struct ticks t = { .step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag, .div = 1, .unit = "us" };
    if (span >= 1e6)
        t.div = 1e6, t.unit = "s";
    else if (span >= 1e3)
        t.div = 1e3, t.unit = "ms";
    double in_unit = t.step / t.div;
    t.decimals = in_unit >= 1 ? 0 : (int)ceil(-log10(in_unit) - 1e-9);
    return t;
}

/* The timeline's label strip: superstep k spans [from, to] px; its number
 * is drawn where it fits (and does not run into the last one drawn), and
 * a strip over the whole span carries its tooltip. */
static void html_step_label(FILE *f, const struct trace *t, size_t k, double from, double to, double *last_right,
                            double top)
{
    const struct cost_row *r = &t->rows[k];
    char num[24], d[32];
    snprintf(num, sizeof num, "%ld", t->step[k]);
    html_duration(d, sizeof d, r->t);
    fprintf(f, "<rect class=\"hover steplabel\" data-step=\"%ld\" x=\"%.2f\" y=\"4\" width=\"%.3f\" height=\"%.0f\">"
               "<title>superstep %ld: T %s, h %.0f bytes</title></rect>\n",
            t->step[k], from, fmax(to - from, 1), top - 8, t->step[k], d, r->h_bytes);
    double width = strlen(num) * HTML_CHAR, mid = (from + to) / 2;
    if (to - from >= width + 4 && mid - width / 2 > *last_right + 4) {
        fprintf(f, "<text class=\"steplabel\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", mid, top - 10,
                num);
        *last_right = mid + width / 2;
    }
}

/* 1. The timeline. */
static void html_timeline(FILE *f, const struct trace *t)
{
    double t0 = 0, t1 = 0; /* time 0: bsp_begin's call */
    for (size_t i = 0; i < t->n * (size_t)t->p; i++)
        if (t->cells[i].seen) {
            t0 = fmin(t0, t->cells[i].start);
            t1 = fmax(t1, t->cells[i].end);
        }
    double span = t1 > t0 ? t1 - t0 : 1, sx = HTML_W / span, top = 34;
    double height = top + HTML_ROW * t->p + 30;
    fprintf(f, "<svg id=\"timeline\" width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"supersteps by processor\">\n",
            HTML_LEFT + HTML_W + HTML_RIGHT, height);
    for (int s = 0; s < t->p; s++) {
        fprintf(f, "<text x=\"4\" y=\"%.1f\">processor %d</text>\n", top + HTML_ROW * s + 16, s);
        const struct cost_cell *c = &t->cells[s];
        if (t->n && t->step[0] == 0 && c->seen && c->start > t0)
            html_bar(f, "startup", HTML_LEFT, top + HTML_ROW * s + 3, (c->start - t0) * sx, HTML_ROW - 6, 0, s,
                     "start-up inside bsp_begin", c->start - t0);
    }
    double last_right = -1e9, prev_end = t0;
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
        if (end == -INFINITY)
            continue;
        double x = HTML_LEFT + (end - t0) * sx;
        fprintf(f, "<line class=\"end\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.0f\" y2=\"%.0f\"/>\n", x, x, top - 4,
                top + HTML_ROW * t->p);
        html_step_label(f, t, k, HTML_LEFT + (prev_end - t0) * sx, x, &last_right, top);
        prev_end = end;
    }
    double ya = top + HTML_ROW * t->p + 4;
    fprintf(f, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>\n", HTML_LEFT, HTML_LEFT + HTML_W,
            ya, ya);
    struct ticks tk = html_ticks(span, 8);
    for (double v = 0; v <= span * (1 + 1e-9); v += tk.step) {
        double x = HTML_LEFT + v * sx;
        fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>\n", x, x, ya, ya + 4);
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.*f %s</text>\n", x, ya + 17,
                tk.decimals, (v + t0) / tk.div, tk.unit);
    }
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
    "  var n = data.steps.length, top = 10, height = 220;\n"
    "  var width = Math.max(1100, n * (data.model ? 4 : 2)), slot = width / n;\n"
    "  var bar = Math.max(slot * (data.model ? 0.4 : 0.8), 1);\n"
    "  var max = 0;\n"
    "  data.steps.forEach(function (s) { max = Math.max(max, s.t, data.model ? s.pred : 0); });\n"
    "  if (max <= 0) max = 1;\n"
    "  function el(name, attrs, title) {\n"
    "    var e = document.createElementNS(ns, name);\n"
    "    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });\n"
    "    if (title) { var t = document.createElementNS(ns, 'title'); t.textContent = title; e.appendChild(t); }\n"
    "    svg.appendChild(e);\n"
    "    return e;\n"
    "  }\n"
    "  function text(x, y, anchor, s, cls) {\n"
    "    var e = el('text', {x: x, y: y, 'text-anchor': anchor, 'class': cls});\n"
    "    e.textContent = s;\n"
    "    return e;\n"
    "  }\n"
    "  function duration(us) {\n"
    "    var a = Math.abs(us);\n"
    "    if (a >= 1e6) return (us / 1e6).toPrecision(3) + ' s';\n"
    "    if (a >= 1e3) return (us / 1e3).toPrecision(3) + ' ms';\n"
    "    return us.toPrecision(3) + ' us';\n"
    "  }\n"
    /* round ticks: 1, 2 or 5 times a power of ten, in the unit they ask for */
    "  var raw = max / 4, mag = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / mag;\n"
    "  var step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;\n"
    "  var nticks = Math.ceil(max / step - 1e-9);\n"
    "  max = nticks * step;\n"
    "  var div = max >= 1e6 ? 1e6 : max >= 1e3 ? 1e3 : 1, unit = div === 1e6 ? 's' : div === 1e3 ? 'ms' : 'us';\n"
    "  var decimals = step / div >= 1 ? 0 : Math.ceil(-Math.log10(step / div) - 1e-9);\n"
    /* the tick labels first, to make the margin as wide as the widest */
    "  var labels = [], widest = 0;\n"
    "  for (var i = 0; i <= nticks; i++) {\n"
    "    var t = text(0, 0, 'end', (i * step / div).toFixed(decimals) + ' ' + unit, 'tick');\n"
    "    widest = Math.max(widest, t.getComputedTextLength());\n"
    "    labels.push(t);\n"
    "  }\n"
    "  var left = Math.ceil(widest) + 12;\n"
    "  svg.setAttribute('width', String(left + width + 20));\n"
    "  function y(v) { return top + height - Math.max(v, 0) / max * height; }\n"
    "  labels.forEach(function (t, i) {\n"
    "    t.setAttribute('x', left - 6);\n"
    "    t.setAttribute('y', y(i * step) + 4);\n"
    "    if (i) el('line', {'class': 'grid', x1: left, x2: left + width, y1: y(i * step), y2: y(i * step)});\n"
    "  });\n"
    /* step numbers every k-th slot, as far apart as the widest needs */
    "  var probe = text(0, 0, 'middle', String(data.steps[n - 1].step), 'probe');\n"
    "  var every = Math.max(1, Math.ceil((probe.getComputedTextLength() + 6) / slot));\n"
    "  svg.removeChild(probe);\n"
    "  if (every > 1) every = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]\n"
    "      .filter(function (k) { return k >= every; })[0] || every;\n"
    "  data.steps.forEach(function (s, i) {\n"
    "    var x = left + i * slot;\n"
    "    var tip = 'superstep ' + s.step + ': measured ' + duration(s.t);\n"
    "    if (data.model) tip += ', predicted ' + duration(s.pred) + ' (ratio ' +\n"
    "        (s.pred > 0 ? (s.t / s.pred).toFixed(2) : '-') + ')';\n"
    "    tip += ', w ' + duration(s.w) + ', h ' + s.h + ' words';\n"
    "    el('rect', {'class': 'measured', 'data-step': s.step, x: x, y: y(s.t) - (s.t / max * height < 1 ? 1 : 0),\n"
    "                width: bar, height: Math.max(s.t / max * height, 1)}, tip);\n"
    "    if (data.model)\n"
    "      el('rect', {'class': 'predicted', 'data-step': s.step, x: x + bar, width: bar,\n"
    "                  y: y(s.pred) - (Math.max(s.pred, 0) / max * height < 1 ? 1 : 0),\n"
    "                  height: Math.max(Math.max(s.pred, 0) / max * height, 1)}, tip);\n"
    "    el('rect', {'class': 'hover', 'data-step': s.step, x: x, y: top, width: slot, height: height}, tip);\n"
    "    if (i % every === 0) text(x + Math.min(bar * (data.model ? 1 : 0.5), slot / 2), top + height + 14, 'middle',\n"
    "                               String(s.step), 'stepnum');\n"
    "  });\n"
    "  el('line', {'class': 'axis', x1: left, x2: left + width, y1: top + height, y2: top + height});\n"
    "  text(left, top + height + 32, 'start', 'superstep' + (every > 1 ? ' (numbered every ' + every +\n"
    "       '; each has a tooltip)' : '') + ', left to right: measured' +\n"
    "       (data.model ? ' (left) and predicted (right)' : ''), 'caption');\n"
    "  document.body.setAttribute('data-drawn', String(n));\n"
    "})();\n"
    "</script>\n";

static void html_costliest(FILE *f, const struct trace *t, const struct model *m)
{
    fputs("<table><tr><th>superstep</th><th>T (us)</th><th>work (us)</th><th>comm (us)</th><th>wait (us)</th>"
          "<th>processor</th><th>h (words)</th>",
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

/* The page's explanations of the timeline: time 0, start-up, a failed job. */
static void html_timeline_notes(FILE *f, const struct trace *t)
{
    fputs("<p>Time 0 is the call of bsp_begin.  Each processor's bars start when bsp_begin returned on it; the light "
          "bar before them is its start-up inside bsp_begin (the job's processes being started and placed on CPUs, "
          "and on a busy machine the wait for a CPU), which is not part of any superstep.  A superstep runs, for "
          "each processor, from the end of its previous bsp_sync to the end of this one; the thin line marks the "
          "last processor's end, and the strip above the rows names each superstep (hover for T and h).</p>\n",
          f);
    if ((long)t->n < t->supersteps)
        fputs("<p>Gaps are supersteps the trace holds in its totals only (SUPERSTEP_PROFILE_STEPS).</p>\n", f);
    if (t->failed_step >= 0)
        fprintf(f, "<p>The job failed in superstep %ld: its bars end at the failure (a processor that had come to "
                   "bsp_sync waits until then).</p>\n", t->failed_step);
    if (t->failure && *t->failure) {
        fputs("<p class=\"failure\">superstep: ", f);
        html_text(f, t->failure);
        fputs("</p>\n", f);
    }
    char who[256];
    if (procs_list(t, "stopped", who, sizeof who)) {
        fputs("<p>The job failed: ", f);
        html_text(f, who);
        fprintf(f, " stopped inside the bsp_sync of superstep %ld; their bars there end where they stopped.</p>\n",
                stopped_step(t));
    }
}

static int write_html(const char *path, const struct trace *t, const struct model *m)
{
    FILE *f = fopen(path, "we");
    if (!f) {
        fprintf(stderr, "bspprof: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    struct sums s = run_totals(t);
    /* The total, its parts and the wall clock in one unit, the total's. */
    double a = fmax(fabs(s.t), fabs(s.wall)), div = a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
    const char *unit = div == 1e6 ? "s" : div == 1e3 ? "ms" : "us";
    fputs(html_head, f);
    fputs("<body>\n<h1>Superstep profile: ", f);
    html_text(f, t->path);
    fprintf(f, "</h1>\n<p>%d processors, %ld supersteps", t->p, t->supersteps);
    if ((long)t->n < t->supersteps)
        fprintf(f, " (%zu drawn: the first ones and the costliest)", t->n);
    fprintf(f, "%s. Total: %.6g %s = work %.6g + communication %.6g + waiting %.6g %s (per superstep, the "
               "processor that took longest); wall clock %.6g %s.</p>\n",
            t->complete ? "" : "; INCOMPLETE: the job failed", s.t / div, unit, s.work / div, s.comm / div,
            s.wait / div, unit, s.wall / div, unit);
    fputs("<h2>Timeline of the supersteps by processor</h2>\n", f);
    static const char *const tn[] = { "start-up", "work", "waiting", "communication", "profiler" };
    static const char *const tc[] = { "startup", "work", "wait", "comm", "prof" };
    html_key(f, tn, tc, 5);
    html_timeline_notes(f, t);
    fputs("<div class=\"scroll\">\n", f);
    html_timeline(f, t);
    fputs("</div>\n<h2>Predicted against measured cost per superstep</h2>\n", f);
    if (m->on) {
        fprintf(f, "<p id=\"model-source\">predicted = w + g&middot;h + l with g = %.4f us per %g-byte word and "
                   "l = %.3f us, ",
                m->g, m->word, m->l);
        html_text(f, m->how);
        fputs(".</p>\n", f);
    } else {
        fputs("<p id=\"model-source\">no g and l given (bspprof -b bspbench.out, or -g and -l): measured cost "
              "only</p>\n",
              f);
    }
    if (*m->other_p) { /* as on stderr: the page is what gets read */
        fputs("<p id=\"otherp\" style=\"color:#b00;font-weight:bold\">WARNING: ", f);
        html_text(f, m->other_p);
        fputs("</p>\n", f);
    }
    if (m->on && m->poor) /* the bench file's fit: flagged where the figures are */
        fputs("<p id=\"poorfit\" style=\"color:#b00;font-weight:bold\">POOR FIT: bspbench judged the fit that gave "
              "g and l poor; the predictions below are unreliable</p>\n",
              f);
    static const char *const mn[] = { "measured", "predicted" };
    html_key(f, mn, mn, m->on ? 2 : 1);
    fputs("<div class=\"scroll\"><svg id=\"model\" width=\"1200\" height=\"275\" role=\"img\" "
          "aria-label=\"cost per superstep\"></svg></div>\n",
          f);
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
