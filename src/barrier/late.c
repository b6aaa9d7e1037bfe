/*
 * late.c - SUPERSTEP_STALL_TIMEOUT: the one "who is late" watchdog.
 *
 * A processor waiting for the others cannot tell a slow peer from one that
 * computes for ever.  With the setting, each such wait runs a timer on the
 * watch its layer made; at each period's end the watch's hook looks at
 * what this processor knows of the others (their call words in the
 * segment, or on MPI what has arrived; where their pids are known, their
 * state in /proc) and, when some still compute or are stopped, stops the
 * job with the line below.  Nothing is asked of the late processors: one
 * that computes for ever would never answer.
 */
#include "barrier/barrier.h"
#include "settings/settings.h"

#include <stdio.h>

void late_arm(struct late_watch *w, void (*late)(int64_t waited_ns))
{
    *w = (struct late_watch){ .period = (int64_t)setting_num(SET_STALL_TIMEOUT) * 1000000000, .late = late };
}

void late_start(struct late_timer *t, const struct late_watch *w, int64_t now)
{
    bool on = w && w->period;
    *t = (struct late_timer){ on ? w : NULL, now, on ? now + w->period : INT64_MAX };
}

bool late_due(struct late_timer *t, int64_t now)
{
    if (now < t->due)
        return false;
    t->due += t->w->period;
    return true;
}

void late_check(struct late_timer *t, int64_t now)
{
    if (late_due(t, now))
        t->w->late(now - t->start);
}

/* Why id is late: 'R' computing, 'T' or 't' stopped, 0 not late. */
static char late_kind(const struct late_who *who, uint32_t id)
{
    char s = who->stopped ? who->stopped(id) : 0;
    if (s == 'T' || s == 't')
        return s;
    return who->is_late(id) ? 'R' : 0;
}

/* "; processors 1, 3, still computing in superstep 4" for the ids late
 * for 'kind', at buf[at] ("" when none); returns the new length. */
static size_t late_group(char *buf, size_t at, size_t cap, const struct late_who *who, char kind, const char *what)
{
    char ids[256], in[48] = "";
    size_t len = 0;
    uint32_t n = 0, first = 0;
    bool cut = false; /* the ids no longer fit: ", ..." is out */
    for (uint32_t id = who->first; id - who->first < who->count; id++) {
        if (late_kind(who, id) != kind)
            continue;
        if (!n++)
            first = id;
        if (len < sizeof ids - 32) {
            len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%u", n > 1 ? ", " : "", id);
        } else if (!cut) {
            snprintf(ids + len, sizeof ids - len, ", ...");
            cut = true;
        }
    }
    if (!n || at >= cap)
        return at;
    if (who->step)
        snprintf(in, sizeof in, " in superstep %llu", (unsigned long long)who->step(first));
    int k = snprintf(buf + at, cap - at, "%s%s%s %s, %s%s", at ? "; " : "", who->unit, n > 1 ? "s" : "", ids, what, in);
    return k < 0 ? at : at + (size_t)k;
}

bool late_line(char *buf, size_t cap, const struct late_watch *w, int64_t waited_ns, const struct late_who *who)
{
    char groups[1024];
    size_t at = late_group(groups, 0, sizeof groups, who, 'R', "still computing");
    at = late_group(groups, at, sizeof groups, who, 'T', "stopped by a signal");
    at = late_group(groups, at, sizeof groups, who, 't', "stopped by its tracer");
    if (!at)
        return false;
    snprintf(buf, cap, "waited %lld s for %s (SUPERSTEP_STALL_TIMEOUT=%lld)", (long long)(waited_ns / 1000000000),
             groups, (long long)(w->period / 1000000000));
    return true;
}
