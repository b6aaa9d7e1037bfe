/* fds_host.c - an Epiphany host whose kernels (fds_kernel) run popen: the
 * programs they exec hold no descriptor of Superstep's (the session and job
 * segments the kernels inherit are close-on-exec once attached); nor do
 * those the host itself execs while the kernels run and after.  With
 * "race": another thread of the host execs again and again while
 * ebsp_spmd starts the kernels 20 times (the session segment is passed on
 * by a close-on-exec duplicate that only the kernels get open). */
// RUN: n=1 out="^fds ok 1$"
// RUN: n=3 out="^fds ok 3$"
// RUN: n=4 args="race" out="^fds ok 4$" timeout=120
#include <host_bsp.h>

#include "fds_check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

static atomic_bool racing = true;

static void *exec_again(void *arg)
{
    (void)arg;
    while (atomic_load(&racing))
        check_exec_sees_no_fds("another thread of the host");
    return NULL;
}

int main(int argc, char **argv)
{
    bsp_init("fds_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    check_exec_sees_no_fds("host in a session");
    CHECK(ebsp_spmd() == 1, "the kernels failed");
    if (argc == 2 && !strcmp(argv[1], "race")) {
        pthread_t t;
        CHECK(pthread_create(&t, NULL, exec_again, NULL) == 0, "pthread_create");
        for (int run = 0; run < 20; run++)
            CHECK(ebsp_spmd() == 1, "the kernels failed (run %d)", run);
        atomic_store(&racing, false);
        pthread_join(t, NULL);
    }
    check_exec_sees_no_fds("host after ebsp_spmd");
    int p = bsp_nprocs();
    bsp_end();
    printf("fds ok %d\n", p);
    return 0;
}
