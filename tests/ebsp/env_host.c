/* env_host.c - ebsp_spmd never changes the host's environment (issue 18,
 * defect 9): another thread of the host (MPI's, the program's) may read it
 * while the kernels are spawned, so the kernels' environment is built for
 * them.  This program's own setenv/unsetenv/putenv take the place of the C
 * library's for the library too (symbol interposition), and count every
 * change to a SUPERSTEP_ variable made inside ebsp_spmd. */
// RUN: n=4 out="^env ok 0$"
// RUN: n=2 env="SUPERSTEP_DEVICE=shm" out="^env ok 0$"
#include <host_bsp.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool in_spmd;
static int changes;

static void note(const char *name)
{
    if (in_spmd && !strncmp(name, "SUPERSTEP_", 10))
        changes++;
}

int setenv(const char *name, const char *value, int overwrite)
{
    note(name);
    int (*real)(const char *, const char *, int) = (int (*)(const char *, const char *, int))dlsym(RTLD_NEXT, "setenv");
    return real(name, value, overwrite);
}

int unsetenv(const char *name)
{
    note(name);
    int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unsetenv");
    return real(name);
}

int putenv(char *string)
{
    note(string);
    int (*real)(char *) = (int (*)(char *))dlsym(RTLD_NEXT, "putenv");
    return real(string);
}

int main(int argc, char **argv)
{
    bsp_init("low_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    in_spmd = true;
    int ok = ebsp_spmd();
    in_spmd = false;
    bsp_end();
    printf("env ok %d\n", changes);
    return ok ? 0 : 1;
}
