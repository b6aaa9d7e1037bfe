/*
 * trace.c - the Chrome trace JSON that the profiler's records become.
 *
 * Slices per processor and superstep k: "superstep k" (from the end of the
 * previous sync, or bsp_begin, to the end of this one) holding "compute",
 * "sync wait" (the barrier), "profiler" (the profiler counting the incoming
 * records: only when profiling, and kept out of the other slices), and for
 * supersteps with gets or hp transfers "gets/direct", "sync wait 2" and a
 * second "profiler", then "communication" (applying what arrived).
 *
 * Size policy: every superstep counts in the totals written to otherData
 * (the whole run, per processor, and the costliest supersteps), but only
 * the first info->detail supersteps (SUPERSTEP_PROFILE_STEPS, default 1000),
 * the costliest ones and the last get slices.  So a run of 100 000
 * supersteps gives a trace of about a thousand supersteps' slices, with its
 * summary, rather than 150 MB.
 *
 * Trace: pid 1 is the job, tid s+1 is processor s (Perfetto treats pid or
 * tid 0 specially).  Times are microseconds since bsp_begin, written from
 * integer nanoseconds with three decimals, so nested slices nest exactly.
 */
#include "profile/cost.h"
#include "profile/records.h"

#include <bsp.h>

#include <stdlib.h>
#include <string.h>

#define COSTLIEST 10

struct flow {
    uint64_t bytes_out, bytes_in, rec_out, rec_in, stream_out, stream_in, direct_out, direct_in;
};

static const struct prof_src *rec_src(const struct prof_rec *r)
{
    return (const struct prof_src *)(r + 1);
}

static const struct prof_dir *rec_dir(const struct prof_rec *r)
{
    return (const struct prof_dir *)(rec_src(r) + r->nsrc);
}

bool prof_view_index(struct prof_view *v, const char *data, size_t len, uint64_t nrec)
{
    const struct prof_rec **rec = realloc(v->rec, (v->nrec + nrec + 1) * sizeof *rec);
    if (!rec)
        return false;
    v->rec = rec;
    const char *d = data, *e = data + len;
    for (uint64_t k = 0; k < nrec && (size_t)(e - d) >= sizeof(struct prof_rec); k++) {
        const struct prof_rec *r = (const struct prof_rec *)d;
        if ((size_t)(e - d) < prof_rec_size(r))
            break;
        rec[v->nrec++] = r;
        d += prof_rec_size(r);
    }
    return true;
}

/* Who sent how much to whom in superstep k; h in bytes and records. */
/* A processor whose records are lost has an empty view (trace_write). */
static bool present(const struct prof_view *vs)
{
    return vs->rec != NULL;
}

static void flows(const struct prof_view *v, uint32_t p, uint64_t k, struct flow *fl, uint64_t *h, uint64_t *hrec)
{
    memset(fl, 0, p * sizeof *fl);
    for (uint32_t q = 0; q < p; q++) {
        if (!present(&v[q]))
            continue;
        const struct prof_rec *r = v[q].rec[k];
        const struct prof_src *e = rec_src(r);
        for (uint32_t i = 0; i < r->nsrc; i++) {
            uint32_t src = e[i].src < p ? e[i].src : 0;
            fl[q].rec_in += e[i].records;
            fl[q].bytes_in += e[i].bytes;
            fl[q].stream_in += e[i].stream;
            fl[src].rec_out += e[i].records;
            fl[src].bytes_out += e[i].bytes;
            fl[src].stream_out += e[i].stream;
        }
        const struct prof_dir *d = rec_dir(r);
        for (uint32_t i = 0; i < r->ndir; i++) {
            uint32_t peer = d[i].peer < p ? d[i].peer : 0;
            fl[q].direct_out += d[i].put_bytes;
            fl[peer].direct_in += d[i].put_bytes;
            fl[q].direct_in += d[i].get_bytes;
            fl[peer].direct_out += d[i].get_bytes;
        }
    }
    *h = *hrec = 0;
    for (uint32_t q = 0; q < p; q++) {
        uint64_t o = fl[q].bytes_out + fl[q].direct_out, i = fl[q].bytes_in + fl[q].direct_in;
        *h = o > *h ? o : *h;
        *h = i > *h ? i : *h;
        *hrec = fl[q].rec_out > *hrec ? fl[q].rec_out : *hrec;
        *hrec = fl[q].rec_in > *hrec ? fl[q].rec_in : *hrec;
    }
}

/* Processor s in superstep k, in microseconds (see cost.h). */
static struct cost_cell cell(const struct prof_view *vs, uint64_t k)
{
    const struct prof_rec *r = vs->rec[k];
    int64_t prev = k ? vs->rec[k - 1]->t_end : vs->t_start;
    struct cost_cell c = { .seen = true, .start = prev / 1e3, .end = r->t_end / 1e3 };
    c.work = (r->t_begin - prev) / 1e3;
    if (r->kind == REC_END)
        return c;
    if (r->kind == REC_FAIL) {
        c.wait = (r->t_end - r->t_begin) / 1e3;
        return c;
    }
    int64_t wait = r->t_wait1 - r->t_begin, prof = r->t_scan1 - r->t_wait1, comm = r->t_end - r->t_scan1;
    if (r->nwait > 1) {
        wait += r->t_wait2 - r->t_served;
        prof += r->t_scan2 - r->t_wait2;
        comm = (r->t_served - r->t_scan1) + (r->t_end - r->t_scan2);
    }
    c.wait = wait / 1e3;
    c.prof = prof / 1e3;
    c.comm = comm / 1e3;
    return c;
}

static void us(FILE *f, int64_t ns)
{
    if (ns < 0) {
        fputc('-', f);
        ns = -ns;
    }
    fprintf(f, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

static void slice(FILE *f, const char *name, uint32_t s, int64_t t0, int64_t t1, uint64_t step)
{
    fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"bsp\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", name, s + 1);
    us(f, t0);
    fputs(",\"dur\":", f);
    us(f, t1 > t0 ? t1 - t0 : 0);
    fprintf(f, ",\"args\":{\"step\":%llu", (unsigned long long)step);
}

static void step_slices(FILE *f, const struct prof_view *v, const struct trace_info *info, uint64_t k,
                        const struct flow *fl, uint64_t h, uint64_t hrec)
{
    for (uint32_t s = 0; s < info->p; s++) {
        if (!present(&v[s]))
            continue;
        const struct prof_rec *r = v[s].rec[k];
        int64_t prev = k ? v[s].rec[k - 1]->t_end : v[s].t_start;
        bool end = r->kind == REC_END, failed = r->kind == REC_FAIL;
        char name[40];
        snprintf(name, sizeof name, "superstep %llu", (unsigned long long)k);
        slice(f, name, s, prev, r->t_end, k);
        fprintf(f, ",\"h_bytes\":%llu,\"h_records\":%llu,\"last\":%s%s%s}}", (unsigned long long)h,
                (unsigned long long)hrec, end ? "true" : "false", r == &v[s].stopped ? ",\"stopped\":true" : "",
                failed ? ",\"failed\":true" : "");
        slice(f, "compute", s, prev, r->t_begin, k);
        fputs("}}", f);
        if (failed && r->t_end > r->t_begin) { /* it waited in a call until the failure */
            slice(f, "sync wait", s, r->t_begin, r->t_end, k);
            fputs("}}", f);
        }
        if (end || failed)
            continue;
        slice(f, "sync wait", s, r->t_begin, r->t_wait1, k);
        fputs("}}", f);
        slice(f, "profiler", s, r->t_wait1, r->t_scan1, k);
        fputs("}}", f);
        int64_t comm = r->t_scan1;
        if (r->nwait > 1) {
            slice(f, "gets/direct", s, r->t_scan1, r->t_served, k);
            fprintf(f, ",\"direct_bytes_out\":%llu,\"direct_bytes_in\":%llu}}",
                    (unsigned long long)fl[s].direct_out, (unsigned long long)fl[s].direct_in);
            slice(f, "sync wait 2", s, r->t_served, r->t_wait2, k);
            fputs("}}", f);
            slice(f, "profiler", s, r->t_wait2, r->t_scan2, k);
            fputs("}}", f);
            comm = r->t_scan2;
        }
        slice(f, "communication", s, comm, r->t_end, k);
        fprintf(f,
                ",\"bytes_out\":%llu,\"bytes_in\":%llu,\"records_out\":%llu,\"records_in\":%llu,"
                "\"stream_bytes_out\":%llu,\"stream_bytes_in\":%llu,\"direct_bytes_out\":%llu,"
                "\"direct_bytes_in\":%llu,\"h_bytes\":%llu,\"h_records\":%llu}}",
                (unsigned long long)fl[s].bytes_out, (unsigned long long)fl[s].bytes_in,
                (unsigned long long)fl[s].rec_out, (unsigned long long)fl[s].rec_in,
                (unsigned long long)fl[s].stream_out, (unsigned long long)fl[s].stream_in,
                (unsigned long long)fl[s].direct_out, (unsigned long long)fl[s].direct_in,
                (unsigned long long)h, (unsigned long long)hrec);
    }
}

/* Totals over every superstep, traced or not. */
struct totals {
    double t, work, comm, wait, wmax, h_bytes, wall;
    uint64_t syncs;
    struct cost_cell *proc;   /* per processor sums */
    uint64_t top[COSTLIEST];  /* the costliest supersteps, costliest first */
    double top_t[COSTLIEST];
    int ntop;
};

static void keep_costly(struct totals *tt, uint64_t k, double t)
{
    int i = tt->ntop < COSTLIEST ? tt->ntop++ : COSTLIEST;
    if (i == COSTLIEST && t <= tt->top_t[COSTLIEST - 1])
        return;
    if (i == COSTLIEST)
        i--;
    while (i > 0 && tt->top_t[i - 1] < t) {
        tt->top[i] = tt->top[i - 1];
        tt->top_t[i] = tt->top_t[i - 1];
        i--;
    }
    tt->top[i] = k;
    tt->top_t[i] = t;
}

static void add_step(struct totals *tt, const struct prof_view *v, uint32_t p, uint64_t k, struct cost_cell *cells,
                     struct flow *fl)
{
    uint64_t h, hrec;
    flows(v, p, k, fl, &h, &hrec);
    const struct prof_view *any = NULL;
    for (uint32_t s = 0; s < p; s++) {
        cells[s] = (struct cost_cell){ .seen = false };
        if (!present(&v[s]))
            continue;
        any = any ? any : &v[s];
        cells[s] = cell(&v[s], k);
        tt->proc[s].work += cells[s].work;
        tt->proc[s].comm += cells[s].comm;
        tt->proc[s].wait += cells[s].wait;
        tt->proc[s].prof += cells[s].prof;
    }
    struct cost_row r = cost_row(cells, (int)p);
    tt->t += r.t;
    tt->work += r.work;
    tt->comm += r.comm;
    tt->wait += r.wait;
    tt->wmax += r.wmax;
    tt->h_bytes += (double)h;
    tt->syncs += any->rec[k]->kind == REC_SYNC;
    keep_costly(tt, k, r.t);
}

static bool traced(const struct totals *tt, uint64_t k, uint64_t nsteps, uint64_t detail)
{
    if (k < detail || k + 1 == nsteps)
        return true;
    for (int i = 0; i < tt->ntop; i++)
        if (tt->top[i] == k)
            return true;
    return false;
}

/* s as a JSON string. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f);
    }
    fputc('"', f);
}

static void write_other(FILE *f, const struct prof_view *v, const struct trace_info *info, uint64_t nsteps,
                        uint64_t ntraced, const struct totals *tt)
{
    uint32_t p = info->p;
    fprintf(f, "\"otherData\":{\"tool\":\"superstep " SUPERSTEP_VERSION "\",\"nprocs\":%u,\"supersteps\":%llu,"
               "\"syncs\":%llu,\"truncated\":%u,\"unknown_records\":%u,\"complete\":%s,",
            p, (unsigned long long)nsteps, (unsigned long long)tt->syncs, info->truncated, info->unknown,
            info->failed ? "false" : "true");
    fputs("\"missing\":[", f); /* processors whose records are lost: the trace is partial */
    for (uint32_t s = 0, n = 0; info->missing && s < p; s++)
        if (info->missing[s])
            fprintf(f, "%s%u", n++ ? "," : "", s);
    /* processors stopped inside the bsp_sync of the last superstep, which
     * others completed: their times there end where they were stopped,
     * and what they received is not counted */
    fputs("],\"stopped\":[", f);
    for (uint32_t s = 0, n = 0; info->stopped && s < p; s++)
        if (info->stopped[s])
            fprintf(f, "%s%u", n++ ? "," : "", s);
    fputs("],\"failure\":", f); /* the job's line, and the superstep it came in when traced */
    if (info->failed) {
        fputs("{\"line\":", f);
        json_string(f, info->failure ? info->failure : "");
        if (info->failed_step)
            fprintf(f, ",\"step\":%llu}", (unsigned long long)(nsteps - 1));
        else
            fputs(",\"step\":null}", f);
    } else {
        fputs("null", f);
    }
    fputs(",\"reached\":[", f);
    for (uint32_t s = 0; s < p; s++) /* supersteps completed (or stopped in): not the failing one */
        fprintf(f, "%s%llu", s ? "," : "",
                (unsigned long long)(v[s].nrec - (info->failed_step && present(&v[s]))));
    fprintf(f, "],\n\"traced_supersteps\":%llu,\"detail_limit\":%llu,", (unsigned long long)ntraced,
            (unsigned long long)info->detail);
    fprintf(f, "\"totals\":{\"time_us\":%.3f,\"work_us\":%.3f,\"comm_us\":%.3f,\"wait_us\":%.3f,"
               "\"wmax_us\":%.3f,\"h_bytes\":%.0f,\"wall_us\":%.3f},\n\"per_processor\":[",
            tt->t, tt->work, tt->comm, tt->wait, tt->wmax, tt->h_bytes, tt->wall);
    for (uint32_t s = 0; s < p; s++)
        fprintf(f, "%s{\"work_us\":%.3f,\"comm_us\":%.3f,\"wait_us\":%.3f,\"profiler_us\":%.3f}", s ? "," : "",
                tt->proc[s].work, tt->proc[s].comm, tt->proc[s].wait, tt->proc[s].prof);
    fputs("],\n\"costliest\":[", f);
    for (int i = 0; i < tt->ntop; i++)
        fprintf(f, "%s{\"step\":%llu,\"time_us\":%.3f}", i ? "," : "", (unsigned long long)tt->top[i], tt->top_t[i]);
    fputs("]},\n", f);
}

void trace_write(FILE *f, const struct prof_view *v, const struct trace_info *info)
{
    uint32_t p = info->p;
    struct flow *fl = calloc(p, sizeof *fl);
    struct cost_cell *cells = calloc(p, sizeof *cells);
    struct totals tt = { .proc = calloc(p, sizeof *tt.proc) };
    if (!fl || !cells || !tt.proc) {
        fputs("{}\n", f);
        goto out;
    }
    /* Every present processor's view holds at least one pointer (index);
     * a missing one (info->missing) is left empty and skipped. */
    uint64_t nsteps = UINT64_MAX;
    uint32_t first_q = p;
    for (uint32_t q = 0; q < p; q++) {
        if (info->missing && info->missing[q])
            continue;
        first_q = first_q < q ? first_q : q;
        nsteps = v[q].nrec < nsteps ? v[q].nrec : nsteps;
    }
    if (nsteps == UINT64_MAX)
        nsteps = 0;
    for (uint64_t k = 0; k < nsteps; k++)
        add_step(&tt, v, p, k, cells, fl);
    uint64_t ntraced = 0;
    for (uint64_t k = 0; k < nsteps; k++)
        ntraced += traced(&tt, k, nsteps, info->detail);
    if (nsteps) {
        int64_t first = v[first_q].t_start, last = 0;
        for (uint32_t q = 0; q < p; q++) {
            if (!present(&v[q]))
                continue;
            first = v[q].t_start < first ? v[q].t_start : first;
            last = v[q].rec[nsteps - 1]->t_end > last ? v[q].rec[nsteps - 1]->t_end : last;
        }
        tt.wall = (last - first) / 1e3;
    }

    fputs("{\"displayTimeUnit\":\"ns\",\n", f);
    write_other(f, v, info, nsteps, ntraced, &tt);
    fprintf(f, "\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"BSP job, "
               "%u processors\"}}",
            p);
    for (uint32_t s = 0; s < p; s++) {
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"processor %u\"}}",
                s + 1, s);
        fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
                s + 1, s);
    }
    for (uint64_t k = 0; k < nsteps; k++) {
        if (!traced(&tt, k, nsteps, info->detail))
            continue;
        uint64_t h, hrec;
        flows(v, p, k, fl, &h, &hrec);
        step_slices(f, v, info, k, fl, h, hrec);
    }
    fputs("\n]}\n", f);
out:
    free(fl);
    free(cells);
    free(tt.proc);
}
