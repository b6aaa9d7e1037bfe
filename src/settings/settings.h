/*
 * settings.h - every SUPERSTEP_* environment setting, read and checked in
 * one place.
 *
 * Each setting has one row in a table (settings.c): its name, kind, default
 * and what it accepts.  docs/settings.md's table and superstep(7)
 * describe the same rows (tests/settings checks that they agree).
 *
 * A value that is set but not accepted is one line naming the variable, the
 * value and what is accepted, then exit status 1.  The entry points (bsprun,
 * bsp_begin, bsp_nprocs, mp_start, the Epiphany host's bsp_init) call
 * settings_check before they start anything, so a bad value is reported
 * before any process starts; the getters below check their own variable again
 * on every call (cheap) because a program may change its environment.
 * An empty value counts as not set.
 */
#ifndef SUPERSTEP_SETTINGS_H
#define SUPERSTEP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum setting {
    SET_NPROCS,
    SET_SEGMENT_SIZE,
    SET_DEVICE,
    SET_DEVICE_MANDATORY,
    SET_PROFILE,
    SET_NO_DIRECT,
    SET_LOCAL_MEMORY,
    SET_EXT_MEMORY,
    SET_MPI_ONESIDED,
    SET_MPI_WINDOW,
    SET_MPIRUN,
    SET_PROFILE_STEPS,
    SET_STRICT,
    SET_AFFINITY,
    SET_STALL_TIMEOUT,
    SET_HP_MOVE_MIN,
    SET_SPAWN_TIMEOUT,
    SET_MPIRUN_HANG_TIMEOUT,
    SET_ABORT_TIMEOUT,
    SET_STOP_GRACE,
    SET_MPI_NO_SHARE,
    SET_PLUGIN_DIR,
    SET_MACHINE_FILE,
    SET_G,
    SET_L,
    SET_COLL_ALG,
    SET_MPI_PIECE,
    SET_COUNT
};

/* Set by the layer that runs a job (src/launch) while this process is one of
 * its processors: a bad value read by a getter then leaves through the job's
 * one failure path (one line naming the processor and its superstep, every
 * processor stopped), not by exit.  'line' is "NAME='value' is not accepted:
 * expected ...".  Returns only when no job runs here (then the line is
 * printed and the process exits 1 as before any job). */
extern void (*settings_reject_hook)(const char *line);

/* Check every setting; on a bad one print "superstep: NAME='value' is not
 * accepted: ..." and exit 1.  The line names the setting, not the call that
 * checked it: the setting is at fault, whichever call read it first. */
void settings_check(void);

/* Whether the variable is set to a non-empty value. */
bool setting_given(enum setting s);

/* A count, size or 0/1 setting: its value, or its default when not set. */
uint64_t setting_num(enum setting s);

/* A word, path or command setting: its value, or NULL when not set. */
const char *setting_str(enum setting s);

/* A decimal setting: its value, or NAN when not set. */
double setting_real(enum setting s);

/* The line's reason when starting p processors on a segment of seg_size
 * bytes failed with errno 'err': the machine limit that stopped it (named
 * with its value and the ulimit option) and the setting that avoids it;
 * strerror(err) for other causes (see limits.c for the codes). */
void settings_limit_text(int err, uint32_t p, uint64_t seg_size, char *buf, size_t n);

/* One row of the table, for listings (tests/settings, documentation). */
struct setting_info {
    const char *name;     /* "SUPERSTEP_NPROCS" */
    const char *meaning;
    const char *def;      /* the default, in words */
    const char *accepted; /* what a value may be, in words */
};
const struct setting_info *setting_info(enum setting s);

#endif
