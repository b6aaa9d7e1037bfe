/*
 * limits.c - name the machine limit that stopped a job from starting, and
 * the setting or command that raises it.
 *
 * The layers below return an errno for a failed start; each cause has its
 * own code:
 *   ENOSPC  the segment is too small for the tables of p processors
 *   EFBIG   ftruncate of the segment beyond RLIMIT_FSIZE
 *   ENOMEM  mmap of the segment refused (RLIMIT_AS, or the machine's memory)
 *   EAGAIN  fork refused (RLIMIT_NPROC, or the system's process limits)
 *   EMFILE  no descriptor left for a processor's pidfd (RLIMIT_NOFILE)
 */
#include "settings/settings.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

/* "1073741824 bytes" or "unlimited". */
static const char *limit_value(int resource, char *buf, size_t n)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return "unlimited";
    snprintf(buf, n, "%llu", (unsigned long long)rl.rlim_cur);
    return buf;
}

static bool limited(int resource)
{
    struct rlimit rl;
    return getrlimit(resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
}

void settings_limit_text(int err, uint32_t p, uint64_t seg_size, char *buf, size_t n)
{
    char v[32];
    switch (err) {
    case ENOSPC:
        snprintf(buf, n, "the shared segment of %llu bytes (SUPERSTEP_SEGMENT_SIZE) is too small for the tables of %u "
                 "processors: set SUPERSTEP_SEGMENT_SIZE larger",
                 (unsigned long long)seg_size, p);
        break;
    case EFBIG:
        snprintf(buf, n, "the file size limit (ulimit -f, RLIMIT_FSIZE %s bytes) is below the %llu-byte shared "
                 "segment: raise ulimit -f or set SUPERSTEP_SEGMENT_SIZE smaller",
                 limit_value(RLIMIT_FSIZE, v, sizeof v), (unsigned long long)seg_size);
        break;
    case ENOMEM:
        if (limited(RLIMIT_AS))
            snprintf(buf, n, "the address space limit (ulimit -v, RLIMIT_AS %s bytes) leaves no room for the "
                     "%llu-byte shared segment: raise ulimit -v or set SUPERSTEP_SEGMENT_SIZE smaller",
                     limit_value(RLIMIT_AS, v, sizeof v), (unsigned long long)seg_size);
        else
            snprintf(buf, n, "out of memory reserving the %llu-byte shared segment or %u processes: "
                     "set SUPERSTEP_SEGMENT_SIZE or SUPERSTEP_NPROCS smaller",
                     (unsigned long long)seg_size, p);
        break;
    case EAGAIN:
        if (limited(RLIMIT_NPROC))
            snprintf(buf, n, "the process limit (ulimit -u, RLIMIT_NPROC %s) stops %u processes: raise ulimit -u "
                     "or set SUPERSTEP_NPROCS smaller", limit_value(RLIMIT_NPROC, v, sizeof v), p);
        else
            snprintf(buf, n, "the system refuses %u processes (kernel.pid_max, kernel.threads-max or a cgroup's "
                     "pids.max): raise that limit or set SUPERSTEP_NPROCS smaller", p);
        break;
    case EMFILE:
    case ENFILE:
        snprintf(buf, n, "the descriptor limit (ulimit -n, RLIMIT_NOFILE %s) is below the %u descriptors the "
                 "monitor needs (one per processor): raise ulimit -n or set SUPERSTEP_NPROCS smaller",
                 limit_value(RLIMIT_NOFILE, v, sizeof v), p);
        break;
    default:
        snprintf(buf, n, "%s", strerror(err));
        break;
    }
}
