/*
 * machine.c - the BSP machine parameters: l, g (a cost per byte G and one
 * per message o) and r, for the current device and p.
 *
 * bspbench measures them and keeps one line per device and p in a cache
 * file (SUPERSTEP_MACHINE_FILE, else $XDG_CACHE_HOME/superstep/machine,
 * else ~/.cache/superstep/machine).  A line keeps bspbench's judgement of
 * its fit (fit=good|poor, and noise, how far the points lay off the line),
 * and a poor fit does not replace a better line for the same device and p
 * (machine_store).  A process reads it at its first need: the line for its
 * device and p, else the one with the nearest p, and the source string
 * says which p it was measured at, how good the fit was, and when it is
 * used far from its p (more than twice or under half of it); the
 * settings SUPERSTEP_G and SUPERSTEP_L override it; the defaults below
 * stand in when nothing is cached.  Nothing is ever negative.
 */
#include "bsp/bsp_impl.h"
#include "coll/coll.h"
#include "settings/settings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Stand-ins when nothing is cached, of the order bspbench finds on a
 * workstation: shared memory, and MPI between processes of one machine. */
static const struct { const char *device; double l, G, o; } defaults[] = {
    { "shm", 5e-6, 0.5e-9, 20e-9 },
    { "mpi", 50e-6, 2e-9, 1e-6 },
};

static struct {
    bool have;
    uint32_t p;
    const char *device;
    struct machine m;
} cur;

char *machine_path(void)
{
    const char *set = setting_str(SET_MACHINE_FILE), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *path = NULL;
    int rc = -1;
    if (set)
        rc = asprintf(&path, "%s", set);
    else if (xdg && *xdg == '/')
        rc = asprintf(&path, "%s/superstep/machine", xdg);
    else if (home && *home)
        rc = asprintf(&path, "%s/.cache/superstep/machine", home);
    return rc < 0 ? NULL : path;
}

/* One cache line: "device=D p=P l_us=.. G_ns=.. o_ns=.. r_mflops=.. noise=.. fit=good|poor date=..". */
static bool parse_line(const char *line, char *device, size_t dn, struct machine *m)
{
    double l = -1, G = -1, o = -1, r = 0, noise = -1;
    long p = 0;
    int fit = FIT_UNKNOWN;
    *device = 0;
    char date[64] = "";
    const char *s = line;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        const char *eq = strchr(s, '='), *end = s + strcspn(s, " \t\n");
        if (!eq || eq > end)
            break;
        size_t k = (size_t)(eq - s), vn = (size_t)(end - eq - 1);
        const char *v = eq + 1;
        if (k == 6 && !strncmp(s, "device", 6))
            snprintf(device, dn, "%.*s", (int)vn, v);
        else if (k == 4 && !strncmp(s, "date", 4))
            snprintf(date, sizeof date, "%.*s", (int)vn, v);
        else if (k == 1 && *s == 'p')
            p = strtol(v, NULL, 10);
        else if (k == 4 && !strncmp(s, "l_us", 4))
            l = strtod(v, NULL) * 1e-6;
        else if (k == 4 && !strncmp(s, "G_ns", 4))
            G = strtod(v, NULL) * 1e-9;
        else if (k == 4 && !strncmp(s, "o_ns", 4))
            o = strtod(v, NULL) * 1e-9;
        else if (k == 8 && !strncmp(s, "r_mflops", 8))
            r = strtod(v, NULL) * 1e6;
        else if (k == 5 && !strncmp(s, "noise", 5))
            noise = strtod(v, NULL);
        else if (k == 3 && !strncmp(s, "fit", 3))
            fit = vn == 4 && !strncmp(v, "good", 4) ? FIT_GOOD : vn == 4 && !strncmp(v, "poor", 4) ? FIT_POOR : fit;
        s = end;
    }
    if (!*device || p < 1 || p > 65535 || !(l >= 0) || !(G >= 0) || !(o >= 0) || !(r >= 0) || !isfinite(l) ||
        !isfinite(G) || !isfinite(o))
        return false;
    *m = (struct machine){ .l = l, .G = G, .o = o, .r = r, .noise = noise, .fit = fit, .p = (uint32_t)p };
    static const char *const judged[] = { "fit not judged", "fit good", "fit poor" };
    char off[64] = "";
    if (noise >= 0)
        snprintf(off, sizeof off, " (the points %.1f%% off the line)", 100 * noise);
    snprintf(m->source, sizeof m->source, "measured by bspbench for p=%ld%s%s, %s%s", p, *date ? " on " : "", date,
             judged[fit], off);
    return true;
}

/* The cached line for this device with the p nearest to p (the larger on a tie). */
static bool read_cache(const char *device, uint32_t p, struct machine *best)
{
    char *path = machine_path();
    FILE *f = path ? fopen(path, "re") : NULL;
    free(path);
    if (!f)
        return false;
    bool found = false;
    char line[512], dv[32];
    struct machine m;
    while (fgets(line, sizeof line, f)) {
        if (*line == '#' || !parse_line(line, dv, sizeof dv, &m) || strcmp(dv, device))
            continue;
        long d = labs((long)m.p - (long)p), bd = found ? labs((long)best->p - (long)p) : 0;
        if (!found || d < bd || (d == bd && m.p > best->p))
            *best = m, found = true;
    }
    fclose(f);
    return found;
}

static void load(const char *device, uint32_t p, struct machine *m)
{
    size_t i = strcmp(device, "mpi") ? 0 : 1;
    if (!read_cache(device, p, m)) {
        *m = (struct machine){ .l = defaults[i].l, .G = defaults[i].G, .o = defaults[i].o, .noise = -1 };
        /* The advice measures this device: bsprun runs shm unless told. */
        snprintf(m->source, sizeof m->source, "defaults for %s (nothing cached: run bsprun%s -n %u bspbench)", device,
                 i ? " --device mpi" : "", p);
    } else if (m->p != p) {
        bool far = p > 2 * m->p || 2 * p < m->p;
        size_t n = strlen(m->source);
        snprintf(m->source + n, sizeof m->source - n, "; used for p=%u, %s p measured%s", p,
                 far ? "far from the nearest" : "the nearest",
                 far ? (i ? ": run bsprun --device mpi -n P bspbench for this p" : ": run bsprun -n P bspbench for this p")
                     : "");
    }
    double g = setting_real(SET_G), l = setting_real(SET_L);
    if (!isnan(g))
        m->G = g * 1e-9, m->o = 0;
    if (!isnan(l))
        m->l = l * 1e-6;
    if (!isnan(g) || !isnan(l)) {
        char was[sizeof m->source];
        memcpy(was, m->source, sizeof was);
        snprintf(m->source, sizeof m->source, "%s%s%s, the rest %.200s", isnan(g) ? "" : "SUPERSTEP_G",
                 !isnan(g) && !isnan(l) ? " and " : "", isnan(l) ? "" : "SUPERSTEP_L", was);
    }
}

const char *machine_device(void)
{
    return device_choose()->name;
}

uint32_t machine_nprocs(void)
{
    return bsp.begun ? bsp.p : (uint32_t)bsp_impl_nprocs();
}

static void key(const char **device, uint32_t *p)
{
    *device = device_choose()->name;
    *p = machine_nprocs();
}

const struct machine *machine_get(void)
{
    const char *device;
    uint32_t p;
    key(&device, &p);
    if (!cur.have || cur.p != p || strcmp(cur.device, device)) {
        load(device, p, &cur.m);
        cur.have = true, cur.p = p, cur.device = device;
    }
    return &cur.m;
}

void machine_set(const struct machine *m)
{
    key(&cur.device, &cur.p);
    cur.m = *m;
    cur.have = true;
}

double machine_g(const struct machine *m, double bytes)
{
    return m->G + m->o / (bytes < 1 ? 1 : bytes);
}

/* mkdir -p of the folders above path. */
static void make_parents(char *path)
{
    for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        mkdir(path, 0755);
        *s = '/';
    }
}

/* Keep old, the line for m's device and p, rather than m: m's fit is poor
 * and old's is good, or judged no better (an older bspbench's line) with
 * less noise. */
static bool keep_old(const struct machine *old, const struct machine *m)
{
    if (m->fit != FIT_POOR)
        return false;
    return old->fit == FIT_GOOD || (old->noise >= 0 && old->noise < m->noise);
}

int machine_store(const char *device, const struct machine *m)
{
    char *path = machine_path(), *tmp = NULL;
    if (!path)
        return ENOENT;
    make_parents(path);
    if (asprintf(&tmp, "%s.%d", path, (int)getpid()) < 0) {
        free(path);
        return ENOMEM;
    }
    FILE *in = fopen(path, "re"), *out = fopen(tmp, "we");
    int rc = out ? 0 : errno;
    if (out) {
        fprintf(out, "# Superstep machine parameters: bspbench writes one line per device and p\n");
        char line[512], dv[32];
        struct machine old;
        bool kept = false;
        while (in && fgets(line, sizeof line, in)) {
            if (*line == '#' || !parse_line(line, dv, sizeof dv, &old))
                continue;
            if (strcmp(dv, device) || old.p != m->p)
                fputs(line, out);
            else if (keep_old(&old, m))
                kept = true; /* the file stays as it is */
        }
        time_t now = time(NULL);
        char date[32];
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        static const char *const fits[] = { "", " fit=good", " fit=poor" };
        if (!kept)
            fprintf(out, "device=%s p=%u l_us=%.6g G_ns=%.6g o_ns=%.6g r_mflops=%.6g noise=%.4g%s date=%s\n", device,
                    m->p, m->l * 1e6, m->G * 1e9, m->o * 1e9, m->r / 1e6, m->noise, fits[m->fit], date);
        if (fclose(out) != 0)
            rc = errno;
        if (!rc && kept)
            rc = EEXIST;
        if (!rc && rename(tmp, path) != 0)
            rc = errno;
        if (rc)
            unlink(tmp);
    }
    if (in)
        fclose(in);
    free(tmp);
    free(path);
    return rc;
}
