/*
 * late.c - SUPERSTEP_STALL_TIMEOUT: the one "who is late" watchdog.
 *
 * A processor waiting for the others cannot tell a slow peer from one that
 * computes for ever.  With the setting, each such wait runs a timer on the
 * watch its layer made; at each period's end the watch's hook looks at
 * what this processor knows of the others (their call words in the
 * segment, or on MPI what has arrived) and, when some still compute, stops
 * the job with the line below.  Nothing is asked of the late processors:
 * one that computes for ever would never answer.
 */
#include "barrier/barrier.h"
#include "settings/settings.h"

#include <stdio.h>

void late_arm(struct late_watch *w, void (*late)(int64_t waited_ns))
{
    *w = (struct late_watch){ (int64_t)setting_num(SET_STALL_TIMEOUT) * 1000000000, late };
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

bool late_line(char *buf, size_t cap, const struct late_watch *w, int64_t waited_ns, const struct late_who *who)
{
    char ids[256], in[48] = "";
    size_t len = 0;
    uint32_t n = 0, first = 0;
    bool cut = false; /* the ids no longer fit: ", ..." is out */
    for (uint32_t id = who->first; id - who->first < who->count; id++) {
        if (!who->is_late(id))
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
    if (!n)
        return false;
    if (who->step)
        snprintf(in, sizeof in, " in superstep %llu", (unsigned long long)who->step(first));
    snprintf(buf, cap, "waited %lld s for %s%s %s, still computing%s (SUPERSTEP_STALL_TIMEOUT=%lld)",
             (long long)(waited_ns / 1000000000), who->unit, n > 1 ? "s" : "", ids, in,
             (long long)(w->period / 1000000000));
    return true;
}
