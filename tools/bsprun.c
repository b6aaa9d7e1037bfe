/*
 * bsprun - run a BSP program on P processors.
 *
 *   bsprun -n P [--device shm|mpi|auto] [--mandatory] [--] ./prog args...
 *
 * Sets SUPERSTEP_NPROCS (what bsp_nprocs() returns before bsp_begin, and the
 * default processor count of Epiphany host programs and mp.h) and
 * SUPERSTEP_DEVICE, then runs the program in its place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("usage: bsprun -n P [--device shm|mpi|auto] [--mandatory] [--] program [args...]\n"
          "  -n P, --nprocs P   number of BSP processors (SUPERSTEP_NPROCS)\n"
          "  --device D         device to run on (SUPERSTEP_DEVICE); default shm\n"
          "  --mandatory        fail rather than fall back when the device is unusable\n"
          "  --profile FILE     write a Chrome trace of every superstep (SUPERSTEP_PROFILE)\n",
          f);
}

static const char *value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "bsprun: %s needs a value\n", argv[*i]);
        exit(2);
    }
    return argv[++*i];
}

int main(int argc, char **argv)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "-n") || !strcmp(a, "--nprocs") || !strcmp(a, "-np")) {
            const char *v = value(argc, argv, &i);
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n <= 0 || n > 65535) {
                fprintf(stderr, "bsprun: bad processor count '%s' (1..65535)\n", v);
                return 2;
            }
            setenv("SUPERSTEP_NPROCS", v, 1);
        } else if (!strncmp(a, "-n", 2) && a[2]) {
            setenv("SUPERSTEP_NPROCS", a + 2, 1);
        } else if (!strcmp(a, "--device")) {
            const char *v = value(argc, argv, &i);
            if (strcmp(v, "shm") && strcmp(v, "mpi") && strcmp(v, "auto")) {
                fprintf(stderr, "bsprun: unknown device '%s' (shm, mpi or auto)\n", v);
                return 2;
            }
            setenv("SUPERSTEP_DEVICE", v, 1);
        } else if (!strcmp(a, "--mandatory")) {
            setenv("SUPERSTEP_DEVICE_MANDATORY", "1", 1);
        } else if (!strcmp(a, "--profile")) {
            setenv("SUPERSTEP_PROFILE", value(argc, argv, &i), 1);
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "bsprun: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            break;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    execvp(argv[i], argv + i);
    fprintf(stderr, "bsprun: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
