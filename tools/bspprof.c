/*
 * bspprof - read a Superstep trace (SUPERSTEP_PROFILE=trace.json).
 *
 *   bspprof [OPTIONS] trace.json      (bspprof --help lists them)
 *
 * Views: one row per superstep (the default); --summary (the whole run,
 * per processor, the costliest supersteps); --procs (every processor in
 * every superstep); --html FILE (one self-contained page: a timeline of the
 * supersteps by processor, and predicted against measured cost).
 *
 * Figures (src/profile/cost.h, shared with the trace writer): a superstep's
 * time T is the longest time any processor spent in it, from the end of its
 * previous bsp_sync to the end of this one, less the profiler's own
 * counting; work, comm and wait are that processor's and add up to T.
 * w is the largest work of any processor; h the largest number of bytes
 * one processor sent or received, in words of -w bytes.  With g and l (-g
 * and -l, or -b from a bspbench output) each superstep also gets the BSP
 * prediction w + g*h + l and the ratio T / prediction.
 */
#include "profile/cost.h"
#include "prof/json.h"

#include <bsp.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>

struct model {
    bool on;
    bool poor;          /* the bench file's fit is poor: flagged everywhere */
    double g, l, word;  /* us per word, us, bytes per word */
    char how[512];      /* where g and l came from, for the HTML page */
    char other_p[768];  /* the bench file was for another p: the warning, on stderr and the page */
};

struct trace {
    const char *path;
    int p;
    size_t n;                  /* supersteps traced */
    long *step;                /* their numbers, ascending */
    struct cost_cell *cells;   /* n * p */
    struct cost_row *rows;     /* n */
    double *out, *in;          /* bytes, n * p */
    long supersteps;           /* in the run, traced or not */
    bool complete, truncated;
    const char *failure;       /* a failed job's line, or NULL */
    long failed_step;          /* the superstep the failure came in, traced up to it; -1: not traced */
    const struct jv *other;    /* otherData, or NULL */
};

/* ---- options ------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f, "usage: bspprof [OPTIONS] trace.json\n"
               "Show a Superstep trace (written by SUPERSTEP_PROFILE=trace.json or bsprun --profile).\n"
               "  -g, --g=G_US          cost of one word of h-relation, microseconds\n"
               "  -l, --l=L_US          cost of one superstep's synchronisation, microseconds\n"
               "  -b, --bench=FILE      g and l from a bspbench output (its p= r= g= l= line)\n"
               "  -w, --word=BYTES      bytes per word of h (default 8)\n"
               "  -s, --summary         the whole run: totals, per processor, the costliest supersteps\n"
               "  -p, --procs           every processor in every superstep\n"
               "  -t, --top=N           costliest supersteps shown by --summary (default 5)\n"
               "      --html=FILE       write one self-contained HTML page (timeline and model)\n"
               "  -h, --help            this help\n"
               "  -V, --version         the version\n");
}

static void bad(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "bspprof: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (bspprof --help lists the options)\n");
    exit(2);
}

static double number(const char *opt, const char *v, bool positive)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || *end || errno || !isfinite(x) || x < 0 || (positive && x == 0))
        bad(positive ? "%s: '%s' is not a positive number" : "%s: '%s' is not a number >= 0", opt, v);
    return x;
}

/* The bspbench line "p= r= g= l=" (and the older "summary: ... g_us= l_us=").
 * Returns its p, 0 when it names none. */
static int read_bench(const char *path, struct model *m)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        fprintf(stderr, "bspprof: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    char line[4096];
    bool got = false;
    int p = 0;
    while (fgets(line, sizeof line, f)) {
        const char *gp = strstr(line, "g_us="), *lp = strstr(line, "l_us="), *pp = strstr(line, "p=");
        if (gp && lp) {
            m->g = atof(gp + 5);
            m->l = atof(lp + 5);
            p = pp ? atoi(pp + 2) : 0;
            got = true;
            m->poor = strstr(line, "noisy=1") || strstr(line, "fit=poor");
        }
    }
    fclose(f);
    if (!got) {
        fprintf(stderr, "bspprof: %s: no bspbench result line (p= ... g_us= l_us=) in it\n", path);
        exit(1);
    }
    if (m->g < 0 || m->l < 0) { /* an older bspbench's least-squares fit */
        fprintf(stderr, "bspprof: %s: %s = %g us is negative, not a BSP machine parameter: run bspbench again\n", path,
                m->g < 0 ? "g" : "l", m->g < 0 ? m->g : m->l);
        exit(1);
    }
    if (m->poor)
        fprintf(stderr, "bspprof: warning: %s: bspbench judged its fit poor: g and l are unreliable\n", path);
    return p;
}

/* ---- reading the trace ----------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rbe");
    if (!f) {
        fprintf(stderr, "bspprof: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    size_t cap = 1 << 16, n = 0, k;
    char *buf = xrealloc(NULL, cap);
    while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

static bool bsp_slice(const struct jv *e)
{
    const char *ph = jstr(e, "ph"), *cat = jstr(e, "cat");
    return ph && !strcmp(ph, "X") && cat && !strcmp(cat, "bsp") && jstr(e, "name");
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static long step_index(const struct trace *t, long step)
{
    const long *at = bsearch(&step, t->step, t->n, sizeof *t->step, cmp_long);
    return at ? at - t->step : -1;
}

/* Which supersteps the trace holds, and how many processors. */
static void size_trace(struct trace *t, const struct jv *ev)
{
    size_t cap = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const struct jv *e = &ev->kid[i];
        if (!bsp_slice(e) || strncmp(jstr(e, "name"), "superstep", 9))
            continue;
        int tid = (int)jnum(e, "tid", 0);
        long step = (long)jnum(jget(e, "args"), "step", -1);
        if (tid < 1 || step < 0)
            continue;
        t->p = tid > t->p ? tid : t->p;
        if (t->n == cap)
            t->step = xrealloc(t->step, (cap = cap ? 2 * cap : 64) * sizeof *t->step);
        t->step[t->n++] = step;
    }
    if (!t->n)
        return;
    qsort(t->step, t->n, sizeof *t->step, cmp_long);
    size_t u = 0;
    for (size_t i = 0; i < t->n; i++)
        if (!u || t->step[u - 1] != t->step[i])
            t->step[u++] = t->step[i];
    t->n = u;
}

static void fill_cell(struct trace *t, const struct jv *e)
{
    const char *name = jstr(e, "name");
    const struct jv *args = jget(e, "args");
    int tid = (int)jnum(e, "tid", 0);
    long k = step_index(t, (long)jnum(args, "step", -1));
    if (tid < 1 || tid > t->p || k < 0)
        return;
    size_t at = (size_t)k * t->p + (tid - 1);
    struct cost_cell *c = &t->cells[at];
    struct cost_row *r = &t->rows[k];
    double ts = jnum(e, "ts", 0), dur = jnum(e, "dur", 0);
    if (!strncmp(name, "superstep", 9)) {
        c->seen = true;
        c->start = ts;
        c->end = ts + dur;
        r->h_bytes = jnum(args, "h_bytes", 0);
        r->h_records = jnum(args, "h_records", 0);
        r->last |= jnum(args, "last", 0) != 0;
    } else if (!strcmp(name, "compute")) {
        c->work += dur;
    } else if (!strncmp(name, "sync wait", 9)) {
        c->wait += dur;
    } else if (!strcmp(name, "profiler")) {
        c->prof += dur;
    } else if (!strcmp(name, "gets/direct")) {
        c->comm += dur;
    } else if (!strcmp(name, "communication")) {
        c->comm += dur;
        t->out[at] = jnum(args, "bytes_out", 0) + jnum(args, "direct_bytes_out", 0);
        t->in[at] = jnum(args, "bytes_in", 0) + jnum(args, "direct_bytes_in", 0);
    }
}

static void load(struct trace *t, struct jv *root)
{
    const struct jv *ev = root->t == J_ARR ? root : jget(root, "traceEvents");
    if (!ev || ev->t != J_ARR) {
        fprintf(stderr, "bspprof: %s: no traceEvents array (not a Superstep trace)\n", t->path);
        exit(1);
    }
    size_trace(t, ev);
    /* A partial trace (missing processors) may lack the highest tracks. */
    int nprocs = (int)jnum(jget(root, "otherData"), "nprocs", 0);
    if (t->n && nprocs > t->p && nprocs <= 65535)
        t->p = nprocs;
    if (t->p == 0 || t->n == 0) {
        fprintf(stderr, "bspprof: %s: no supersteps in it (not a Superstep trace, or the job ended before its first)\n",
                t->path);
        exit(1);
    }
    size_t cells = t->n * (size_t)t->p;
    t->cells = xrealloc(NULL, cells * sizeof *t->cells);
    t->out = xrealloc(NULL, cells * sizeof *t->out);
    t->in = xrealloc(NULL, cells * sizeof *t->in);
    t->rows = xrealloc(NULL, t->n * sizeof *t->rows);
    memset(t->cells, 0, cells * sizeof *t->cells);
    memset(t->out, 0, cells * sizeof *t->out);
    memset(t->in, 0, cells * sizeof *t->in);
    memset(t->rows, 0, t->n * sizeof *t->rows);
    for (size_t i = 0; i < ev->n; i++)
        if (bsp_slice(&ev->kid[i]))
            fill_cell(t, &ev->kid[i]);
    for (size_t k = 0; k < t->n; k++) {
        struct cost_row r = cost_row(&t->cells[k * t->p], t->p);
        r.h_bytes = t->rows[k].h_bytes;
        r.h_records = t->rows[k].h_records;
        r.last = t->rows[k].last;
        t->rows[k] = r;
    }
    t->other = jget(root, "otherData");
    t->supersteps = (long)jnum(t->other, "supersteps", (double)(t->step[t->n - 1] + 1));
    t->complete = jnum(t->other, "complete", 1) != 0;
    t->truncated = jnum(t->other, "truncated", 0) != 0;
    const struct jv *failure = jget(t->other, "failure");
    t->failure = jstr(failure, "line");
    t->failed_step = (long)jnum(failure, "step", -1);
}

/* The superstep failed processors were stopped inside: the last one traced,
 * or the one before the failing superstep. */
static long stopped_step(const struct trace *t)
{
    return t->step[t->n - 1] - (t->failed_step >= 0);
}

/* ---- the views ------------------------------------------------------------ */

/* otherData's list of processors 'key' as "processor 3" or "processors 1, 2";
 * false when the trace has none. */
static bool procs_list(const struct trace *t, const char *key, char *out, size_t size)
{
    const struct jv *a = jget(t->other, key);
    if (!a || a->t != J_ARR || !a->n)
        return false;
    size_t len = (size_t)snprintf(out, size, "processor%s", a->n > 1 ? "s" : "");
    for (size_t i = 0; i < a->n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s %.0f", i ? "," : "", a->kid[i].t == J_NUM ? a->kid[i].num : -1.0);
    return true;
}

static void header(const struct trace *t, const struct model *m)
{
    printf("%s: %d processors, %ld supersteps", t->path, t->p, t->supersteps);
    if ((long)t->n < t->supersteps)
        printf(" (%zu traced slice by slice: the first ones and the costliest; totals cover all)", t->n);
    printf("\n");
    char who[256];
    if (procs_list(t, "missing", who, sizeof who))
        printf("PARTIAL: the job failed on mpi; the records of %s are missing: the trace holds the supersteps the "
               "others completed\n", who);
    else if (!t->complete && t->failed_step >= 0)
        printf("INCOMPLETE: the job failed in superstep %ld; the trace holds the supersteps up to the failure\n",
               t->failed_step);
    else if (!t->complete)
        printf("INCOMPLETE: the job failed; the trace holds the supersteps every processor completed\n");
    if (t->failure && *t->failure)
        printf("FAILURE: superstep: %s\n", t->failure);
    if (procs_list(t, "stopped", who, sizeof who))
        printf("STOPPED: the failure stopped %s inside the bsp_sync of superstep %ld: their wait and comm there "
               "end where they stopped, and what they received is not in h\n", who, stopped_step(t));
    if (t->truncated)
        printf("TRUNCATED: the profile buffer was full\n");
    if (m->on)
        printf("BSP model: g = %.4f us per %g-byte word, l = %.3f us; predicted = w + g*h + l\n", m->g, m->word, m->l);
    if (m->on && m->poor)
        printf("POOR FIT: bspbench judged the fit that gave g and l poor: the predictions are unreliable\n");
    else
        printf("no g and l given (-g/-l or -b bspbench.out): measured figures only\n");
}

static void print_steps(const struct trace *t, const struct model *m)
{
    header(t, m);
    printf("T: the longest time a processor spent in the superstep = its work + comm + wait (proc: which);\n"
           "w: the largest work; h: the most bytes one processor sent or received, in %g-byte words;\n"
           "h(rec): the most records (puts, messages, get replies) one processor sent or received, whatever their "
           "size\n",
           m->word);
    printf("%6s %11s %11s %11s %11s %5s %11s %6s %10s %8s %11s %7s\n", "step", "T(us)", "work(us)", "comm(us)",
           "wait(us)", "proc", "w(us)", "imbal", "h(words)", "h(rec)", "pred(us)", "T/pred");
    for (size_t k = 0; k < t->n; k++) {
        const struct cost_row *r = &t->rows[k];
        printf("%6ld %11.3f %11.3f %11.3f %11.3f %5d %11.3f %6.2f %10.0f %8.0f", t->step[k], r->t, r->work, r->comm,
               r->wait, r->crit, r->wmax, r->wmean > 0 ? r->wmax / r->wmean : 1.0, ceil(r->h_bytes / m->word),
               r->h_records);
        if (m->on) {
            double pc = cost_predict(r, m->g, m->l, m->word);
            printf(" %11.3f %7.2f", pc, pc > 0 ? r->t / pc : 0);
        }
        printf("%s\n", r->last ? "  (bsp_end)" : "");
    }
}

struct sums {
    double t, work, comm, wait, wmax, h, wall;
    long syncs;
};

/* The whole run: from otherData when the trace has it (it covers the
 * supersteps not traced slice by slice), else from the rows. */
static struct sums run_totals(const struct trace *t)
{
    struct sums s = { 0 };
    const struct jv *tot = jget(t->other, "totals");
    if (tot) {
        s.t = jnum(tot, "time_us", 0), s.work = jnum(tot, "work_us", 0), s.comm = jnum(tot, "comm_us", 0);
        s.wait = jnum(tot, "wait_us", 0), s.wmax = jnum(tot, "wmax_us", 0), s.h = jnum(tot, "h_bytes", 0);
        s.wall = jnum(tot, "wall_us", 0), s.syncs = (long)jnum(t->other, "syncs", 0);
        return s;
    }
    for (size_t k = 0; k < t->n; k++) {
        const struct cost_row *r = &t->rows[k];
        s.t += r->t, s.work += r->work, s.comm += r->comm, s.wait += r->wait, s.wmax += r->wmax;
        s.h += r->h_bytes, s.syncs += !r->last;
    }
    s.wall = s.t;
    return s;
}

static void print_totals(const struct trace *t, const struct model *m)
{
    struct sums s = run_totals(t);
    printf("total: T %.3f us = work %.3f + comm %.3f + wait %.3f (the critical processor of each superstep); "
           "wall clock %.3f us\n",
           s.t, s.work, s.comm, s.wait, s.wall);
    if (m->on) {
        double pred = s.wmax + m->g * s.h / m->word + m->l * (double)s.syncs;
        printf("BSP prediction for the run: w %.3f + g*h %.3f + l*S %.3f (S = %ld syncs) = %.3f us; "
               "measured/predicted %.2f\n",
               s.wmax, m->g * s.h / m->word, m->l * (double)s.syncs, s.syncs, pred, pred > 0 ? s.t / pred : 0);
    }
}

static void print_per_proc(const struct trace *t)
{
    const struct jv *pp = jget(t->other, "per_processor");
    printf("%5s %13s %13s %13s %13s\n", "proc", "work(us)", "comm(us)", "wait(us)", "profiler(us)");
    for (int s = 0; s < t->p; s++) {
        double w = 0, c = 0, x = 0, pr = 0;
        if (pp && pp->t == J_ARR && (size_t)s < pp->n) {
            const struct jv *o = &pp->kid[s];
            w = jnum(o, "work_us", 0), c = jnum(o, "comm_us", 0), x = jnum(o, "wait_us", 0), pr = jnum(o, "profiler_us", 0);
        } else {
            for (size_t k = 0; k < t->n; k++) {
                const struct cost_cell *e = &t->cells[k * t->p + s];
                w += e->work, c += e->comm, x += e->wait, pr += e->prof;
            }
        }
        printf("%5d %13.3f %13.3f %13.3f %13.3f\n", s, w, c, x, pr);
    }
}

static int cmp_row_t(const void *a, const void *b, void *rows)
{
    const struct cost_row *r = rows;
    double x = r[*(const size_t *)a].t, y = r[*(const size_t *)b].t;
    return x > y ? -1 : x < y;
}

static void print_summary(const struct trace *t, const struct model *m, int top)
{
    header(t, m);
    print_totals(t, m);
    printf("\nper processor, all supersteps:\n");
    print_per_proc(t);
    size_t *order = xrealloc(NULL, t->n * sizeof *order);
    for (size_t k = 0; k < t->n; k++)
        order[k] = k;
    qsort_r(order, t->n, sizeof *order, cmp_row_t, t->rows);
    size_t n = (size_t)top < t->n ? (size_t)top : t->n;
    printf("\nthe %zu costliest supersteps:\n", n);
    printf("%6s %11s %11s %11s %11s %5s %10s %11s %7s\n", "step", "T(us)", "work(us)", "comm(us)", "wait(us)", "proc",
           "h(words)", "pred(us)", "T/pred");
    for (size_t i = 0; i < n; i++) {
        const struct cost_row *r = &t->rows[order[i]];
        printf("%6ld %11.3f %11.3f %11.3f %11.3f %5d %10.0f", t->step[order[i]], r->t, r->work, r->comm, r->wait,
               r->crit, ceil(r->h_bytes / m->word));
        if (m->on) {
            double pc = cost_predict(r, m->g, m->l, m->word);
            printf(" %11.3f %7.2f", pc, pc > 0 ? r->t / pc : 0);
        }
        printf("\n");
    }
    free(order);
}

static void print_procs(const struct trace *t, const struct model *m)
{
    header(t, m);
    printf("each processor's time in a superstep = work + comm + wait (the profiler's own counting apart)\n");
    printf("%6s %5s %11s %11s %11s %11s %11s %11s %11s\n", "step", "proc", "time(us)", "work(us)", "comm(us)",
           "wait(us)", "prof(us)", "out(B)", "in(B)");
    for (size_t k = 0; k < t->n; k++)
        for (int s = 0; s < t->p; s++) {
            const struct cost_cell *c = &t->cells[k * t->p + s];
            if (!c->seen)
                continue;
            printf("%6ld %5d %11.3f %11.3f %11.3f %11.3f %11.3f %11.0f %11.0f\n", t->step[k], s, cost_time(c), c->work,
                   c->comm, c->wait, c->prof, t->out[k * t->p + s], t->in[k * t->p + s]);
        }
    printf("\nper processor, all supersteps:\n");
    print_per_proc(t);
}

#include "prof/html.h"

int main(int argc, char **argv)
{
    struct model m = { .g = NAN, .l = NAN, .word = 8 };
    const char *bench = NULL, *html = NULL;
    bool summary = false, procs = false;
    int top = 5;
    static const struct option opts[] = {
        { "g", required_argument, NULL, 'g' },       { "l", required_argument, NULL, 'l' },
        { "bench", required_argument, NULL, 'b' },   { "word", required_argument, NULL, 'w' },
        { "summary", no_argument, NULL, 's' },       { "procs", no_argument, NULL, 'p' },
        { "top", required_argument, NULL, 't' },     { "html", required_argument, NULL, 'H' },
        { "help", no_argument, NULL, 'h' },          { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":g:l:b:w:spt:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'g': m.g = number("-g", optarg, false); break;
        case 'l': m.l = number("-l", optarg, false); break;
        case 'w': m.word = number("-w", optarg, true); break;
        case 'b': bench = optarg; break;
        case 's': summary = true; break;
        case 'p': procs = true; break;
        case 't': {
            double x = number("--top", optarg, true);
            if (x != floor(x) || x > 1e6)
                bad("%s: '%s' is not a whole number of supersteps (1..1000000)", "--top", optarg);
            top = (int)x;
            break;
        }
        case 'H': html = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("bspprof (Superstep) %s\n", SUPERSTEP_VERSION); return 0;
        case ':': bad("%s%s: needs a value", argv[optind - 1], ""); break;
        default: bad("%s%s: unknown option", argv[optind - 1], ""); break;
        }
    }
    if (optind == argc)
        bad("no trace file given%s%s", "", "");
    if (optind + 1 < argc)
        bad("one trace file at a time ('%s' is one too many)%s", argv[optind + 1], "");
    if (summary && procs)
        bad("--summary and --procs are two views: choose one%s%s", "", "");
    if (isnan(m.g) != isnan(m.l) && !bench)
        bad("-g and -l go together (given: %s%s)", isnan(m.g) ? "-l" : "-g", "");
    int bench_p = bench ? read_bench(bench, &m) : 0;
    m.on = !isnan(m.g) && !isnan(m.l);
    if (bench)
        snprintf(m.how, sizeof m.how, "measured by bspbench on p = %d (its output %s, read with -b)", bench_p, bench);
    else if (m.on)
        snprintf(m.how, sizeof m.how, "given on the command line (-g and -l)");

    struct trace t = { .path = argv[optind] };
    size_t len;
    char *text = slurp(t.path, &len);
    struct parser ps = { text, text, text + len, t.path };
    struct jv root;
    pvalue(&ps, &root);
    ws(&ps);
    if (ps.s != ps.end)
        perr(&ps, "trailing characters");
    load(&t, &root);
    if (bench_p && bench_p != t.p) {
        snprintf(m.other_p, sizeof m.other_p,
                 "%s is a bspbench run on p=%d, the trace has %d processors: g and l depend on p; run bspbench with -n %d",
                 bench, bench_p, t.p, t.p);
        fprintf(stderr, "bspprof: warning: %s\n", m.other_p);
    }

    int rc = 0;
    if (html)
        rc = write_html(html, &t, &m);
    else if (summary)
        print_summary(&t, &m, top);
    else if (procs)
        print_procs(&t, &m);
    if (!html && !summary && !procs) {
        print_steps(&t, &m);
        print_totals(&t, &m);
    }
    free(t.step);
    free(t.cells);
    free(t.rows);
    free(t.out);
    free(t.in);
    jfree(&root);
    free(text);
    return rc;
}
