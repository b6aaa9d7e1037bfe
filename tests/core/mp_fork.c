/* mp_fork.c - a node that forks a helper which calls exit(0): mp's exit
 * handler acts only in the node's own process, so the helper neither fails
 * the job nor ends the node's part in it. */
// RUN: n=3 out="^node 1: all ended$"
#include <mp.h>

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe();
    pid_t helper = fork();
    CHECK(helper >= 0, "fork");
    if (helper == 0)
        exit(0); /* runs the exit handlers in the helper */
    int st;
    CHECK(waitpid(helper, &st, 0) == helper && WIFEXITED(st) && WEXITSTATUS(st) == 0, "helper status %d", st);
    CHECK(mp_sync(), "node %d: the job ended after a helper's exit", me);
    if (mp_is_main()) {
        CHECK(mp_quit(0), "mp_quit");
        printf("node 1: all ended\n");
        return 0;
    }
    char buf[8];
    int tag, from;
    size_t len = mp_recv(sizeof buf, buf, &tag, &from);
    CHECK(len == 0 && tag == MP_QUIT, "node %d: expected the quit notice", me);
    mp_quit(0);
    return 0;
}
