/* forked_child.h - run a function in a child forked by the caller, with the
 * child's standard error captured; collect its line and exit status later.
 * For the tests that a process forked by a processor (node, kernel) is not
 * one: its calls stop it with one line, and the job goes on. */
#ifndef SUPERSTEP_TEST_FORKED_CHILD_H
#define SUPERSTEP_TEST_FORKED_CHILD_H
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

struct forked_child {
    pid_t pid;
    int err; /* read end of the child's standard error */
};

/* Fork; the child runs f() with stderr into a pipe and _exits 0 if f returns. */
static inline struct forked_child forked_child_start(void (*f)(void))
{
    int fds[2];
    CHECK(pipe(fds) == 0, "pipe");
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        f();
        _exit(0);
    }
    close(fds[1]);
    return (struct forked_child){ pid, fds[0] };
}

/* Wait for the child: its whole standard error, and its exit status (-1
 * when it did not exit). */
static inline int forked_child_end(struct forked_child c, char *err, size_t cap)
{
    size_t n = 0;
    ssize_t got;
    while (n + 1 < cap && (got = read(c.err, err + n, cap - 1 - n)) > 0)
        n += (size_t)got;
    err[n] = 0;
    close(c.err);
    int st;
    CHECK(waitpid(c.pid, &st, 0) == c.pid, "waitpid");
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
#endif
