/* fds_check.h - run "ls -l /proc/self/fd" through popen (a shell and ls,
 * exec'd) and fail when the exec'd program holds a descriptor of Superstep's:
 * a segment (memfd), a pidfd or an eventfd. */
#ifndef SUPERSTEP_TEST_FDS_CHECK_H
#define SUPERSTEP_TEST_FDS_CHECK_H
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Also fail on a descriptor whose target contains 'path' (unless NULL). */
static void check_exec_sees_no_fds_or(const char *who, const char *path)
{
    /* popen can fail for a moment with ENOMEM under ASan while the main
     * thread forks kernels: try again (what is checked is the exec'd
     * program's descriptors, not popen). */
    FILE *f = NULL;
    for (int tries = 0; !f && tries < 200; tries++)
        if (!(f = popen("ls -l /proc/self/fd", "r")) && errno == ENOMEM)
            usleep(5000);
    CHECK(f, "%s: popen failed: %s", who, strerror(errno));
    char line[512];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        lines++;
        CHECK(!strstr(line, "memfd:") && !strstr(line, "anon_inode:") && !(path && strstr(line, path)),
              "%s: an exec'd program inherited a descriptor of Superstep's: %s", who, line);
    }
    CHECK(pclose(f) == 0 && lines > 3, "%s: ls -l /proc/self/fd failed", who);
}

static void check_exec_sees_no_fds(const char *who)
{
    check_exec_sees_no_fds_or(who, NULL);
}
#endif
