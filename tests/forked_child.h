/* forked_child.h - run a function in a child that the caller makes in one
 * of three ways: glibc's fork() ("fork"), syscall(SYS_fork) ("sysfork", no
 * pthread_atfork handler runs) or clone without CLONE_VM ("clone"); wait
 * for its exit status later.  For the tests that a process forked by a
 * processor (node, kernel) is not one: its calls are refused with one line
 * on the job's standard error, and the job fails (issues 18 and 36). */
#ifndef SUPERSTEP_TEST_FORKED_CHILD_H
#define SUPERSTEP_TEST_FORKED_CHILD_H
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

/* The child runs f() and _exits 0 if f returns. */
static inline pid_t forked_child_start(const char *how, void (*f)(void))
{
    fflush(NULL);
    pid_t pid;
    if (!strcmp(how, "sysfork"))
        pid = (pid_t)syscall(SYS_fork);
    else if (!strcmp(how, "clone"))
        pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
    else
        pid = fork();
    CHECK(pid >= 0, "%s", how);
    if (pid == 0) {
        f();
        _exit(0);
    }
    return pid;
}

/* The child's exit status (-1 when it did not exit). */
static inline int forked_child_end(pid_t pid)
{
    int st;
    CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
#endif
