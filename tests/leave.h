/* leave.h - the ways a process leaves that no code of its own can report,
 * as the fault tests inject them (tests/core/leave0.c, tests/ebsp/leave_host.c):
 *   _exit0:   _exit(0);
 *   exec:     replace itself with /bin/true;
 *   execlong: replace itself with a long sleep;
 *   renamed:  give itself another name (prctl PR_SET_NAME, as a program may
 *             name its threads), then _exit(0): an exit, not an exec.
 * Any other mode: returns. */
#ifndef SUPERSTEP_TEST_LEAVE_H
#define SUPERSTEP_TEST_LEAVE_H
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static inline void leave_as(const char *mode)
{
    if (!strcmp(mode, "_exit0"))
        _exit(0);
    if (!strcmp(mode, "exec"))
        execl("/bin/true", "true", (char *)NULL);
    if (!strcmp(mode, "execlong"))
        execl("/bin/sleep", "sleep", "60", (char *)NULL);
    if (!strcmp(mode, "renamed")) {
        prctl(PR_SET_NAME, "renamed");
        _exit(0);
    }
}
#endif
