/*
 * bspprof - summarise a Superstep trace (SUPERSTEP_PROFILE=trace.json).
 *
 *   bspprof [-g G_US] [-l L_US] [-b BSPBENCH_OUTPUT] [-w WORD_BYTES] trace.json
 *
 * For every superstep: the work (compute time) of the slowest processor and
 * the imbalance (slowest / mean), the h-relation (the largest number of
 * bytes any processor sent or received, in words of WORD_BYTES, default 8,
 * and in records: puts, messages, get replies), the measured time of the
 * superstep and the part of it left after the slowest processor's work
 * (communication and synchronisation), beside the BSP prediction g*h + l.
 * g (microseconds per word) and l (microseconds) come from -g/-l, or from the
 * "summary:" line of a bspbench output file (-b); without them only the
 * measured figures are printed.
 *
 * The measured time of superstep k is the latest end of it on any processor
 * minus the latest end of superstep k-1 (of bsp_begin for k = 0), less the
 * longest "profiler" slice of that superstep (the profiler counting records,
 * which an unprofiled run does not do).  The last superstep is the one
 * bsp_end closes: work only.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small JSON reader ------------------------------------------------- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
    enum jtype t;
    double num;
    char *str;
    struct jv *kid;  /* array items or object values */
    char **key;      /* object keys */
    size_t n;
};

struct parser {
    const char *begin, *s, *end;
    const char *file;
};

static void perr(struct parser *ps, const char *what)
{
    size_t line = 1;
    for (const char *c = ps->begin; c < ps->s && c < ps->end; c++)
        line += *c == '\n';
    fprintf(stderr, "bspprof: %s:%zu: invalid JSON: %s\n", ps->file, line, what);
    exit(1);
}

static void ws(struct parser *ps)
{
    while (ps->s < ps->end && isspace((unsigned char)*ps->s))
        ps->s++;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "bspprof: out of memory\n");
        exit(1);
    }
    return q;
}

static char *pstring(struct parser *ps)
{
    if (ps->s >= ps->end || *ps->s != '"')
        perr(ps, "expected a string");
    ps->s++;
    size_t cap = 16, n = 0;
    char *out = xrealloc(NULL, cap);
    while (ps->s < ps->end && *ps->s != '"') {
        char c = *ps->s++;
        if (c == '\\') {
            if (ps->s >= ps->end)
                perr(ps, "unterminated string");
            c = *ps->s++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                if (ps->end - ps->s < 4)
                    perr(ps, "bad \\u escape");
                ps->s += 4;
                c = '?';
                break;
            default: break; /* \" \\ \/ */
            }
        }
        if (n + 2 > cap)
            out = xrealloc(out, cap *= 2);
        out[n++] = c;
    }
    if (ps->s >= ps->end)
        perr(ps, "unterminated string");
    ps->s++;
    out[n] = 0;
    return out;
}

static void pvalue(struct parser *ps, struct jv *v)
{
    memset(v, 0, sizeof *v);
    ws(ps);
    if (ps->s >= ps->end)
        perr(ps, "unexpected end");
    char c = *ps->s;
    if (c == '{' || c == '[') {
        bool obj = c == '{';
        v->t = obj ? J_OBJ : J_ARR;
        ps->s++;
        size_t cap = 0;
        ws(ps);
        if (ps->s < ps->end && *ps->s == (obj ? '}' : ']')) {
            ps->s++;
            return;
        }
        for (;;) {
            if (v->n == cap) {
                cap = cap ? 2 * cap : 4;
                v->kid = xrealloc(v->kid, cap * sizeof *v->kid);
                if (obj)
                    v->key = xrealloc(v->key, cap * sizeof *v->key);
            }
            if (obj) {
                ws(ps);
                v->key[v->n] = pstring(ps);
                ws(ps);
                if (ps->s >= ps->end || *ps->s != ':')
                    perr(ps, "expected ':'");
                ps->s++;
            }
            pvalue(ps, &v->kid[v->n++]);
            ws(ps);
            if (ps->s < ps->end && *ps->s == ',') {
                ps->s++;
                continue;
            }
            if (ps->s < ps->end && *ps->s == (obj ? '}' : ']')) {
                ps->s++;
                return;
            }
            perr(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    } else if (c == '"') {
        v->t = J_STR;
        v->str = pstring(ps);
    } else if (c == 't' && ps->end - ps->s >= 4 && !strncmp(ps->s, "true", 4)) {
        v->t = J_BOOL;
        v->num = 1;
        ps->s += 4;
    } else if (c == 'f' && ps->end - ps->s >= 5 && !strncmp(ps->s, "false", 5)) {
        v->t = J_BOOL;
        ps->s += 5;
    } else if (c == 'n' && ps->end - ps->s >= 4 && !strncmp(ps->s, "null", 4)) {
        v->t = J_NULL;
        ps->s += 4;
    } else {
        char *e;
        v->t = J_NUM;
        v->num = strtod(ps->s, &e);
        if (e == ps->s)
            perr(ps, "unexpected character");
        ps->s = e;
    }
}

static void jfree(struct jv *v)
{
    for (size_t i = 0; i < v->n; i++) {
        jfree(&v->kid[i]);
        if (v->key)
            free(v->key[i]);
    }
    free(v->kid);
    free(v->key);
    free(v->str);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
    if (!o || o->t != J_OBJ)
        return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->key[i], key))
            return &o->kid[i];
    return NULL;
}

static double jnum(const struct jv *o, const char *key, double dflt)
{
    const struct jv *v = jget(o, key);
    return v && (v->t == J_NUM || v->t == J_BOOL) ? v->num : dflt;
}

static const char *jstr(const struct jv *o, const char *key)
{
    const struct jv *v = jget(o, key);
    return v && v->t == J_STR ? v->str : NULL;
}

/* ---- the summary ---------------------------------------------------------- */

struct cell {              /* one processor in one superstep */
    bool seen;
    double start, end;     /* the superstep slice, us */
    double work, wait, comm, prof;
    double h_bytes, h_records;
    double out, in;
};

static void usage(void)
{
    fprintf(stderr, "usage: bspprof [-g G_US] [-l L_US] [-b BSPBENCH_OUTPUT] [-w WORD_BYTES] trace.json\n"
                    "  -g G_US    cost of one word of h-relation, microseconds\n"
                    "  -l L_US    cost of a superstep (latency), microseconds\n"
                    "  -b FILE    read g and l from the summary line of a bspbench output\n"
                    "  -w BYTES   bytes per word of h (default 8)\n");
    exit(2);
}

static bool read_bench(const char *path, double *g, double *l)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bspprof: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    char line[4096];
    bool got = false;
    while (fgets(line, sizeof line, f)) {
        const char *gp = strstr(line, "g_us="), *lp = strstr(line, "l_us=");
        if (gp && lp) {
            *g = atof(gp + 5);
            *l = atof(lp + 5);
            got = true;
        }
    }
    fclose(f);
    return got;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bspprof: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = xrealloc(NULL, cap);
    size_t k;
    while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    double g = NAN, l = NAN, word = 8;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "-g") || !strcmp(a, "-l") || !strcmp(a, "-b") || !strcmp(a, "-w")) && i + 1 < argc) {
            const char *v = argv[++i];
            if (a[1] == 'g')
                g = atof(v);
            else if (a[1] == 'l')
                l = atof(v);
            else if (a[1] == 'w')
                word = atof(v);
            else if (!read_bench(v, &g, &l)) {
                fprintf(stderr, "bspprof: %s has no bspbench summary line (g_us=... l_us=...)\n", v);
                return 1;
            }
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
        } else if (a[0] == '-' || path) {
            usage();
        } else {
            path = a;
        }
    }
    if (!path || !(word > 0))
        usage();
    bool model = !isnan(g) && !isnan(l);

    size_t len;
    char *text = slurp(path, &len);
    struct parser ps = { text, text, text + len, path };
    struct jv root;
    pvalue(&ps, &root);
    ws(&ps);
    if (ps.s != ps.end)
        perr(&ps, "trailing characters");
    const struct jv *events = root.t == J_ARR ? &root : jget(&root, "traceEvents");
    if (!events || events->t != J_ARR) {
        fprintf(stderr, "bspprof: %s: no traceEvents array\n", path);
        return 1;
    }

    /* Size the table: processors are tids 1..p, supersteps args.step. */
    int p = 0;
    long nsteps = 0;
    for (size_t i = 0; i < events->n; i++) {
        const struct jv *e = &events->kid[i];
        const char *ph = jstr(e, "ph");
        if (!ph || strcmp(ph, "X") || !jstr(e, "cat") || strcmp(jstr(e, "cat"), "bsp"))
            continue;
        int tid = (int)jnum(e, "tid", 0);
        long step = (long)jnum(jget(e, "args"), "step", -1);
        if (tid > p)
            p = tid;
        if (step + 1 > nsteps)
            nsteps = step + 1;
    }
    if (p == 0 || nsteps == 0) {
        fprintf(stderr, "bspprof: %s: no Superstep events\n", path);
        return 1;
    }
    struct cell *cells = calloc((size_t)p * (size_t)nsteps, sizeof *cells);
    bool *last = calloc((size_t)nsteps, sizeof *last);
    if (!cells || !last) {
        fprintf(stderr, "bspprof: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < events->n; i++) {
        const struct jv *e = &events->kid[i];
        const char *ph = jstr(e, "ph"), *name = jstr(e, "name"), *cat = jstr(e, "cat");
        if (!ph || strcmp(ph, "X") || !name || !cat || strcmp(cat, "bsp"))
            continue;
        int tid = (int)jnum(e, "tid", 0);
        const struct jv *args = jget(e, "args");
        long step = (long)jnum(args, "step", -1);
        if (tid < 1 || step < 0)
            continue;
        struct cell *c = &cells[(size_t)step * p + (tid - 1)];
        double ts = jnum(e, "ts", 0), dur = jnum(e, "dur", 0);
        if (!strncmp(name, "superstep", 9)) {
            c->seen = true;
            c->start = ts;
            c->end = ts + dur;
            c->h_bytes = jnum(args, "h_bytes", 0);
            c->h_records = jnum(args, "h_records", 0);
            if (jnum(args, "last", 0))
                last[step] = true;
        } else if (!strcmp(name, "compute")) {
            c->work += dur;
        } else if (!strncmp(name, "sync wait", 9)) {
            c->wait += dur;
        } else if (!strcmp(name, "profiler")) {
            c->prof += dur;
        } else if (!strcmp(name, "communication") || !strcmp(name, "gets/direct")) {
            c->comm += dur;
            if (!strcmp(name, "communication")) {
                c->out = jnum(args, "bytes_out", 0) + jnum(args, "direct_bytes_out", 0);
                c->in = jnum(args, "bytes_in", 0) + jnum(args, "direct_bytes_in", 0);
            }
        }
    }

    const struct jv *other = jget(&root, "otherData");
    printf("%s: %d processors, %ld supersteps", path, p, nsteps);
    if (jnum(other, "truncated", 0))
        printf(" (TRUNCATED: the profile buffer was full)");
    printf("\n");
    if (model)
        printf("BSP model: g = %.4f us per %g-byte word, l = %.3f us; predicted = g*h + l\n", g, word, l);
    else
        printf("no g and l given (-g/-l or -b bspbench.out): measured figures only\n");
    printf("h: the largest bytes sent or received by one processor, in %g-byte words; rec: records (puts, messages)\n",
           word);
    printf("%6s %11s %7s %11s %9s %11s %11s %11s %11s %7s\n", "step", "work(us)", "imbal", "h(words)", "h(rec)",
           "comm(us)", "g*h+l(us)", "T(us)", "w+gh+l(us)", "T/pred");
    double prev_end = -1, tot_t = 0, tot_pred = 0, tot_work = 0, tot_comm = 0, tot_wait = 0, tot_cpu = 0;
    for (long k = 0; k < nsteps; k++) {
        double wmax = 0, wsum = 0, start = -1, end = -1, h = 0, hrec = 0, waitsum = 0, prof = 0;
        int seen = 0;
        for (int s = 0; s < p; s++) {
            const struct cell *c = &cells[(size_t)k * p + s];
            if (!c->seen)
                continue;
            seen++;
            wmax = c->work > wmax ? c->work : wmax;
            wsum += c->work;
            waitsum += c->wait;
            prof = c->prof > prof ? c->prof : prof;
            start = c->start > start ? c->start : start;
            end = c->end > end ? c->end : end;
            double hb = c->h_bytes;
            h = hb > h ? hb : h;
            hrec = c->h_records > hrec ? c->h_records : hrec;
        }
        if (!seen)
            continue;
        if (prev_end >= 0)
            start = prev_end;
        prev_end = end;
        /* The profiler's own counting is not the program's: leave it out. */
        double t = end - start - prof, comm = t - wmax, hw = ceil(h / word);
        double wavg = wsum / seen;
        tot_t += t;
        tot_work += wmax;
        tot_comm += comm;
        tot_wait += waitsum / seen;
        tot_cpu += wsum / seen;
        printf("%6ld %11.3f %7.2f %11.0f %9.0f %11.3f", k, wmax, wavg > 0 ? wmax / wavg : 1.0, hw, hrec,
               last[k] ? 0.0 : comm);
        if (model && !last[k]) {
            double pc = g * hw + l, pt = wmax + pc;
            tot_pred += pt;
            printf(" %11.3f %11.3f %11.3f %7.2f", pc, t, pt, pt > 0 ? t / pt : 0);
        } else if (model) {
            tot_pred += wmax;
            printf(" %11s %11.3f %11.3f %7s", "(bsp_end)", t, wmax, "");
        } else {
            printf(" %11s %11.3f %11s %7s", last[k] ? "(bsp_end)" : "-", t, "-", "");
        }
        printf("\n");
    }
    printf("total: measured %.3f us, slowest work %.3f us, communication+sync %.3f us (%.1f%%), mean wait at "
           "barriers %.3f us",
           tot_t, tot_work, tot_comm, tot_t > 0 ? 100 * tot_comm / tot_t : 0, tot_wait);
    if (model)
        printf(", predicted %.3f us (measured/predicted %.2f)", tot_pred, tot_pred > 0 ? tot_t / tot_pred : 0);
    printf("\n");
    (void)tot_cpu;
    free(cells);
    free(last);
    jfree(&root);
    free(text);
    return 0;
}
