/*
 * machine.c - MulticoreBSP's machine description: a file named machine.info
 * in the working directory, read once, at the first call that needs it.
 *
 * As MulticoreBSP reads it: one "key value..." per line; the keys threads,
 * cores, threads_per_core, unused_threads_per_core (whole numbers),
 * thread_numbering (consecutive | wrapped), affinity (scatter | compact |
 * manual), pinning and reserved_cores (lists of whole numbers),
 * checkpoint_frequency and safe_checkpoint_frequency (whole numbers).  An
 * unknown key or a value that does not parse is a warning on stderr and is
 * ignored (MulticoreBSP warns and goes on with its default), so a file
 * written for MulticoreBSP never stops a program.  What each key means for
 * processes: docs/compatibility.md; the calls of mcbsp.h override it
 * (affinity.c), and `bsprun -n` (SUPERSTEP_NPROCS) overrides threads and
 * cores.
 */
#include "bsp/bsp_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct machine_info info;
static bool read_done;

static void warn(unsigned line, const char *what, const char *text)
{
    fflush(stdout);
    fprintf(stderr, "superstep: warning: machine.info line %u: %s: %s (ignored)\n", line, what, text);
}

/* Whole numbers separated by blanks; false when none or one is not. */
static bool numbers(const char *v, size_t **out, size_t *n)
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    for (;;) {
        while (*v == ' ' || *v == '\t')
            v++;
        if (!*v)
            return *n > 0;
        char *end;
        if (*v < '0' || *v > '9')
            break;
        unsigned long long x = strtoull(v, &end, 10);
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            size_t *grown = realloc(*out, cap * sizeof **out);
            if (!grown)
                break;
            *out = grown;
        }
        (*out)[(*n)++] = (size_t)x;
        v = end;
    }
    free(*out);
    *out = NULL;
    *n = 0;
    return false;
}

static bool one_number(const char *v, size_t *x)
{
    size_t *list, n;
    if (!numbers(v, &list, &n))
        return false;
    *x = list[0];
    free(list);
    return n == 1;
}

static void take(unsigned line, const char *key, const char *value)
{
    struct { const char *key; size_t *at; bool *set; } whole[] = {
        { "threads", &info.threads, &info.threads_set },
        { "cores", &info.cores, &info.cores_set },
        { "threads_per_core", &info.threads_per_core, &info.threads_per_core_set },
        { "unused_threads_per_core", &info.unused_threads_per_core, &info.unused_set },
        { "checkpoint_frequency", &info.cp_f, &info.cp_f_set },
        { "safe_checkpoint_frequency", &info.safe_cp_f, &info.safe_cp_f_set },
    };
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        if (strcmp(key, whole[i].key))
            continue;
        if (!one_number(value, whole[i].at))
            warn(line, key, "expected one whole number");
        else
            *whole[i].set = true;
        return;
    }
    if (!strcmp(key, "thread_numbering")) {
        if (!strcmp(value, "consecutive") || !strcmp(value, "wrapped")) {
            info.wrapped = !strcmp(value, "wrapped");
            info.numbering_set = true;
        } else {
            warn(line, key, "expected consecutive or wrapped");
        }
    } else if (!strcmp(key, "affinity")) {
        static const char *const modes[] = { "scatter", "compact", "manual" };
        for (int m = 0; m < 3; m++)
            if (!strcmp(value, modes[m])) {
                info.affinity = m;
                info.affinity_set = true;
                return;
            }
        warn(line, key, "expected scatter, compact or manual");
    } else if (!strcmp(key, "pinning")) {
        if (!numbers(value, &info.pinning, &info.npinning))
            warn(line, key, "expected whole numbers");
    } else if (!strcmp(key, "reserved_cores")) {
        if (!numbers(value, &info.reserved, &info.nreserved))
            warn(line, key, "expected whole numbers");
    } else {
        warn(line, "unknown key", key);
    }
}

const struct machine_info *machine_info(void)
{
    if (read_done)
        return &info;
    read_done = true;
    FILE *f = fopen("machine.info", "re");
    if (!f)
        return &info;
    char buf[4096];
    for (unsigned line = 1; fgets(buf, sizeof buf, f); line++) {
        buf[strcspn(buf, "\r\n")] = 0;
        char *key = buf + strspn(buf, " \t");
        if (!*key)
            continue;
        char *value = key + strcspn(key, " \t");
        if (*value)
            *value++ = 0;
        value += strspn(value, " \t");
        size_t len = strlen(value);
        while (len && (value[len - 1] == ' ' || value[len - 1] == '\t'))
            value[--len] = 0;
        if (!*value)
            warn(line, key, "no value");
        else
            take(line, key, value);
    }
    fclose(f);
    return &info;
}
