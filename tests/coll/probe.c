/* probe.c - the machine parameters: bsp_probe, bsc_g, bsc_L and the
 * level-1 bsp_l/bsp_g/bsp_s read the cache file bspbench writes (the line
 * for the device and p, else the nearest p), SUPERSTEP_G and SUPERSTEP_L
 * override it, the defaults stand in without one; never negative; the
 * collectives share processor 0's values.  Each device reads its own
 * lines (shm, or mpi under SUPERSTEP_TEST_DEVICE=mpi).
 * Usage: probe cache|nearest|settings|none|store */
// RUN: n=2 args="cache"
// RUN: n=3 args="nearest"
// RUN: n=2 args="settings" env="SUPERSTEP_G=2 SUPERSTEP_L=7.5"
// RUN: n=2 args="none"
// RUN: n=1 args="store"
#include <bsc.h>
#include <bsp_level1.h>
#include <bsp_probe.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "check.h"

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-18;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: probe CASE");
    const char *c = argv[1];
    char path[] = "/tmp/superstep-probe-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    const char *lines = "# a comment\n"
                        "device=shm p=2 l_us=10 G_ns=0.25 o_ns=40 r_mflops=2000 noise=0.01 date=2026-12-02T00:00:00Z\n"
                        "device=shm p=8 l_us=80 G_ns=0.5 o_ns=60 r_mflops=1000 noise=0.2 date=2026-12-02T00:00:00Z\n"
                        "device=shm p=9 l_us=-3 G_ns=0.5 o_ns=60 r_mflops=1000\n" /* negative: ignored */
                        "device=mpi p=2 l_us=99 G_ns=9 o_ns=900 r_mflops=1000\n";
    if (strcmp(c, "none") && strcmp(c, "store"))
        CHECK(write(fd, lines, strlen(lines)) == (ssize_t)strlen(lines), "write");
    close(fd);
    setenv("SUPERSTEP_MACHINE_FILE", path, 1);
    if (!strcmp(c, "store")) { /* bspbench's side: replaces its own line only */
        struct machine m = { .l = 1e-6, .G = 2e-10, .o = 3e-8, .r = 1e9, .noise = 0.05, .p = 1 };
        CHECK(machine_store("shm", &m) == 0 && machine_store("mpi", &m) == 0, "store");
        m.l = 4e-6;
        CHECK(machine_store(machine_device(), &m) == 0, "store again");
        bsp_machine_t got;
        CHECK(bsp_probe(&got) == 0 && near(got.l(1, 0), 4e-6) && near(got.g(1, 1000), 2e-10 + 3e-11),
              "stored: l %g g %g", got.l(1, 0), got.g(1, 1000));
        FILE *f = fopen(path, "r");
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        char mine[64], old[64];
        snprintf(mine, sizeof mine, "device=%s p=1 l_us=4 ", machine_device());
        snprintf(old, sizeof old, "device=%s p=1 l_us=1 ", machine_device());
        CHECK(strstr(buf, mine) && !strstr(buf, old) && strstr(buf, "device=shm p=1") && strstr(buf, "device=mpi p=1"),
              "the cache: %s", buf);
        unlink(path);
        printf("probe store: ok\n");
        return 0;
    }
    CHECK(bsp_probe(NULL) == -1, "bsp_probe(NULL)");
    bsp_begin(bsp_nprocs());
    bsp_machine_t m;
    CHECK(bsp_probe(&m) == 0 && m.p == (unsigned)bsp_nprocs(), "p %u", m.p);
    double l = m.l(m.p, 0), g8 = m.g(m.p, 8), gbig = m.g(m.p, 1000000);
    CHECK(l >= 0 && g8 >= 0 && gbig >= 0, "negative: l %g g %g", l, g8);
    bool mpi = !strcmp(machine_device(), "mpi");
    if ((!strcmp(c, "cache") || !strcmp(c, "nearest")) && mpi) { /* the mpi device's own line */
        CHECK(near(l, 99e-6) && near(g8, 9e-9 + 900e-9 / 8) && near(m.r, 1e9), "mpi: l %g g8 %g r %g", l, g8, m.r);
        CHECK(strstr(m.source, "measured by bspbench for p=2"), "source: %s", m.source);
    } else if (!strcmp(c, "cache") || !strcmp(c, "nearest")) { /* p = 3: the line of p = 2 */
        CHECK(near(l, 10e-6) && near(g8, 0.25e-9 + 40e-9 / 8) && near(m.r, 2e9), "l %g g8 %g r %g", l, g8, m.r);
        CHECK(strstr(m.source, "measured by bspbench for p=2"), "source: %s", m.source);
    } else if (!strcmp(c, "settings")) {
        CHECK(near(l, 7.5e-6) && near(g8, 2e-9) && near(gbig, 2e-9), "l %g g %g", l, g8);
        CHECK(strstr(m.source, "SUPERSTEP_G and SUPERSTEP_L"), "source: %s", m.source);
    } else if (mpi) {
        CHECK(near(l, 50e-6) && near(g8, 2e-9 + 1e-6 / 8), "mpi defaults: l %g g8 %g", l, g8);
        CHECK(strstr(m.source, "defaults for mpi (nothing cached: run bsprun --device mpi -n 2 bspbench)"), "source: %s",
              m.source);
    } else {
        CHECK(near(l, 5e-6) && near(g8, 0.5e-9 + 20e-9 / 8), "defaults: l %g g8 %g", l, g8);
        CHECK(strstr(m.source, "defaults for shm (nothing cached: run bsprun -n 2 bspbench)"), "source: %s", m.source);
    }
    CHECK(near(bsc_L(BSC_PUT), l) && near(bsc_g(BSC_GET, 8), g8), "bsc_L %g bsc_g %g", bsc_L(BSC_PUT), bsc_g(BSC_GET, 8));
    CHECK(near(bsp_l(), l * bsp_s()) && bsp_nhalf() >= 1, "bsp_l %g", bsp_l());
    bsc_sync(bsc_flush); /* the library's start: processor 0's values everywhere */
    CHECK(bsp_probe(&m) == 0 && near(m.l(m.p, 0), l), "after the start: l %g", m.l(m.p, 0));
    int me = bsp_pid();
    bsp_end();
    unlink(path);
    if (me == 0)
        printf("probe %s: ok\n", c);
    return 0;
}
