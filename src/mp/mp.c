/*
 * mp.c - the mp.h API over a transport (mp_impl.h): argument checks and
 * errors, the order of delivery between classes, the quit notice, timeouts.
 */
#include <mp.h>

#include "barrier/barrier.h"
#include "launch/launch.h"
#include "settings/settings.h"
#include "device/device.h"
#include "mp/mp_impl.h"

#include <stdarg.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MP_MAX_NODES 65535

const struct launch_words mp_words = { "node", 1, "mp_quit", false, NULL, 0 };

static const struct mp_transport *T;

static struct {
    bool started;     /* between mp_start and mp_quit */
    bool done;        /* mp_quit returned */
    bool quit_seen;   /* this node has received the quit notice */
    bool atexit_set;
    pid_t pid;                   /* the node's process (exit hooks act only there) */
    int n, me;
    bool pinned;      /* 'pin' is what mp_probe_info described: the next */
    struct mp_head pin; /* receive that may take it delivers it */
} mp;

void mp_error(const char *call, const char *fmt, ...)
{
    char what[768], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    launch_one_line(what, sizeof what);
    if (mp.started) {
        snprintf(msg, sizeof msg, "%s: node %d: %s", call, mp.me, what);
        if (launch_forked_copy()) { /* no transport's failure path here (MPI is not for a forked child) */
            if (job.ls)
                launch_fail(1, "%s", msg); /* the job's failure, in the tables shared with the node */
            fflush(stdout);
            fprintf(stderr, "superstep: %s\n", msg);
            fflush(NULL);
            if (T->copy_failed) /* after the line: the node may stop the job at once */
                T->copy_failed(1);
            _exit(1); /* a copy of a node: its exit hooks are not this process's */
        }
        T->fail(1, msg);
    }
    /* Before mp_start or after mp_quit no job of mp's runs (the tables of
     * an ended job, or the mpi transport's hook, may still be there), so
     * not launch_fail: the line as it prints one without a job. */
    fflush(stdout);
    fprintf(stderr, "superstep: %s: %s\n", call, what);
    exit(1);
}

void mp_deadlock_line(char *msg, size_t size, int n, uint32_t (*state)(int k))
{
    size_t len = (size_t)snprintf(msg, size, "mp: deadlock: every running node waits for ever and no message "
                                  "in flight can end a wait:");
    int listed = 0, more = 0;
    for (int k = 1; k <= n; k++) {
        uint32_t b = state(k);
        if (b == MP_BLOCK_ENDED)
            continue;
        if (listed == 32 || len >= size - 96) {
            more++;
            continue;
        }
        char what[48];
        if (b == MP_BLOCK_SYNC)
            snprintf(what, sizeof what, "in mp_sync");
        else if (b >= MP_BLOCK_FROM)
            snprintf(what, sizeof what, "receives from node %u", b - MP_BLOCK_FROM);
        else
            snprintf(what, sizeof what, "receives from any node");
        len += (size_t)snprintf(msg + len, size - len, "%s node %d %s", listed ? "," : "", k, what);
        listed++;
    }
    if (more)
        snprintf(msg + len, size - len, ", and %d more", more);
}

void mp_sync_stalled(const struct late_watch *w, int64_t waited_ns, int n, bool (*computing)(uint32_t k))
{
    char line[512];
    struct late_who who = { "node", 1, (uint32_t)n, computing, NULL, NULL };
    if (late_line(line, sizeof line, w, waited_ns, &who))
        mp_error("mp_sync", "%s", line);
}

/* A process the program forks from a node is none (launch_forked_copy):
 * its calls stop with one line, which fails the job as every error line
 * does. */
static void require_started(const char *call)
{
    if (mp.started && launch_forked_copy())
        mp_error(call, "called in a child process (pid %d) of node %d, not the node", (int)getpid(), mp.me);
    if (!mp.started)
        mp_error(call, mp.done ? "called after mp_quit" : "called before mp_start");
}

static void check_node(const char *call, int node, bool any_ok)
{
    if ((node < 1 || node > mp.n) && !(any_ok && node == MP_ANY))
        mp_error(call, "node %d out of range (nodes 1..%d%s)", node, mp.n, any_ok ? ", or MP_ANY" : "");
}


/* The transport: the device plug-in's (mpi) where the BSP device would be
 * that plug-in's (started by mpirun), else shm. */
static const struct mp_transport *transport(void)
{
    const struct device_plugin *p = device_plugin();
    return p ? p->mp : &mp_transport_shm;
}

/* A node ending without mp_quit: the main node quits as mp_quit(0) does
 * when it exits with status 0 (returning from main), and fails the job,
 * named, with any other status; another node is clean only once the main
 * node has quit. */
static void mp_at_exit(int status, void *arg)
{
    (void)arg;
    if (!mp.started || getpid() != mp.pid) /* not in a process the node forked */
        return;
    if (mp.me == 1 && status != 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "node 1 exited with status %d without calling mp_quit", status);
        T->fail(status, msg);
    }
    if (mp.me != 1 && !mp.quit_seen && !T->quitting()) {
        char msg[128];
        snprintf(msg, sizeof msg, "node %d ended without calling mp_quit", mp.me);
        T->fail(1, msg);
    }
    T->end();
    mp.started = false;
    mp.done = true;
}

bool mp_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (mp.started && launch_forked_copy())
        require_started("mp_start");
    if (mp.started || mp.done)
        mp_error("mp_start", "called twice");
    settings_check(); /* a bad setting ends the program here */
    T = transport();
    long n = T->size ? T->size() : (long)setting_num(SET_NPROCS);
    int me;
    int rc = T->start((int)n, &me);
    if (rc) {
        char why[512];
        settings_limit_text(-rc, (uint32_t)n, seg_size_from_env(), why, sizeof why);
        fprintf(stderr, "superstep: mp_start: cannot start %ld nodes on %s: %s\n", n, T->name, why);
        return false;
    }
    launch_buffer_lines();
    /* After the start: exit handlers run last registered first, and the
     * launcher's own (a starter leaving without ending) must come after. */
    if (!mp.atexit_set) {
        on_exit(mp_at_exit, NULL);
        mp.atexit_set = true;
    }
    mp.n = (int)n;
    mp.me = me;
    mp.pid = getpid();
    launch_mark_self();
    mp.quit_seen = false;
    mp.started = true;
    return true;
}

bool mp_sync(void)
{
    require_started("mp_sync");
    if (mp.quit_seen)
        return false;
    if (T->sync() == MP_SYNC_QUIT) {
        mp.quit_seen = true;
        return false;
    }
    return true;
}

bool mp_quit(int error)
{
    if (error)
        mp_error("mp_quit", "quit with error code %d", error);
    require_started("mp_quit");
    T->end();
    mp.started = false;
    mp.done = true;
    return true;
}

bool mp_send(int node, int tag, const void *data, size_t length)
{
    require_started("mp_send");
    check_node("mp_send", node, false);
    if (!data && length)
        mp_error("mp_send", "NULL data with length %zu (to node %d, tag %d)", length, node, tag);
    if (tag == MP_QUIT)
        mp_error("mp_send", "tag MP_QUIT (%d) is reserved for the quit notice", tag);
    if (mp.quit_seen)
        return false;
    int cls = (tag & MP_SYSTEM) ? MP_CLASS_SYSTEM : MP_CLASS_NORMAL;
    if (!T->send(node, cls, tag, data, length))
        mp_error("mp_send", "out of memory sending %zu bytes to node %d (on shm, set SUPERSTEP_SEGMENT_SIZE larger)",
                 length, node);
    return true;
}

/* The quit notice, as a head (nothing to take from the transport). */
#define HEAD_NOTICE 2u

static bool quit_head(struct mp_head *h)
{
    memset(h, 0, sizeof *h);
    h->src = 1;
    h->cls = MP_CLASS_SYSTEM;
    h->tag = MP_QUIT;
    h->kind = HEAD_NOTICE;
    return true;
}

/*
 * The message to deliver next from 'node' (MP_ANY: any): system messages
 * from the main node, the quit notice, system messages from anyone, then
 * ordinary messages.  The quit notice is delivered whatever 'node' is.
 */
static bool find(int node, struct mp_head *h)
{
    if (mp.quit_seen)
        return quit_head(h);
    bool quitting = T->quitting(); /* before the look at the main node's FIFO */
    bool got = ((node == MP_ANY || node == 1) && T->head(1, MP_CLASS_SYSTEM, h));
    if (!got && quitting)
        return quit_head(h);
    got = got || T->head(node, MP_CLASS_SYSTEM, h) || T->head(node, MP_CLASS_NORMAL, h);
    if (got && h->kind == MP_HEAD_QUIT && !(node == MP_ANY || node == 1))
        return quit_head(h); /* leave the transport's quit message for later */
    return got;
}

static int64_t deadline_of(double seconds)
{
    if (!(seconds >= 0) || seconds > 1e9) /* negative, NaN, or absurdly long: for ever */
        return -1;
    return now_ns() + (int64_t)(seconds * 1e9);
}

/* Nobody can send: the node waited on (or every other node) has ended. */
static void check_deadlock(const char *call, int node, bool node_ended, bool all_ended)
{
    if (node_ended)
        mp_error(call, "waiting for a message from node %d, which has ended", node);
    if (all_ended)
        mp_error(call, "waiting for a message, but no other node is running");
}

static bool others_ended(void)
{
    for (int k = 1; k <= mp.n; k++)
        if (k != mp.me && !T->ended(k))
            return false;
    return true;
}

/* Wait until find() succeeds or the deadline passes. */
static bool find_wait(const char *call, int node, int64_t deadline, struct mp_head *h)
{
    for (int round = 0;; round++) {
        /* Waiting for ever for what nobody can send is an error.  Read
         * 'ended' before looking: a node publishes all it sent first. */
        bool node_ended = false, all_ended = false;
        if (round > 0 && deadline < 0) {
            if (node != MP_ANY && node != mp.me)
                node_ended = T->ended(node);
            else if (node == MP_ANY)
                all_ended = others_ended();
        }
        if (find(node, h))
            return true;
        check_deadlock(call, node, node_ended, all_ended);
        if (deadline >= 0 && now_ns() >= deadline)
            return false;
        T->wait(node, deadline);
    }
}

static size_t receive(const char *call, int node, size_t maxlength, void *buffer, int *tag, int *sender,
                      double seconds, bool *got)
{
    require_started(call);
    check_node(call, node, true);
    if (!buffer && maxlength)
        mp_error(call, "NULL buffer with maxlength %zu", maxlength);
    struct mp_head h;
    if (mp.pinned && (node == MP_ANY || node == mp.pin.src)) {
        h = mp.pin;
    } else if (!find_wait(call, node, deadline_of(seconds), &h)) {
        if (got)
            *got = false;
        return 0;
    }
    if (got)
        *got = true;
    mp.pinned = false;
    if (h.kind != MP_HEAD_MSG) {
        if (h.kind == MP_HEAD_QUIT)
            T->take(&h, NULL);
        mp.quit_seen = true;
        if (tag)
            *tag = MP_QUIT;
        if (sender)
            *sender = 1;
        return 0;
    }
    if (h.length > maxlength)
        mp_error(call, "message of %llu bytes from node %d (tag %d) is longer than maxlength %zu",
                 (unsigned long long)h.length, h.src, h.tag, maxlength);
    T->take(&h, buffer);
    if (tag)
        *tag = h.tag;
    if (sender)
        *sender = h.src;
    return (size_t)h.length;
}

size_t mp_recv(size_t maxlength, void *buffer, int *tag, int *sender)
{
    return receive("mp_recv", MP_ANY, maxlength, buffer, tag, sender, MP_FOREVER, NULL);
}

size_t mp_recv_timeout(size_t maxlength, void *buffer, int *tag, int *sender, double seconds, bool *got)
{
    if (!got)
        mp_error("mp_recv_timeout", "NULL 'got' pointer");
    return receive("mp_recv_timeout", MP_ANY, maxlength, buffer, tag, sender, seconds, got);
}

size_t mp_recv_from(int node, size_t maxlength, void *buffer, int *tag, double seconds, bool *got)
{
    if (!got)
        mp_error("mp_recv_from", "NULL 'got' pointer");
    return receive("mp_recv_from", node, maxlength, buffer, tag, NULL, seconds, got);
}

bool mp_probe(void)
{
    struct mp_head h;
    require_started("mp_probe");
    return find(MP_ANY, &h);
}

bool mp_probe_node(int node)
{
    struct mp_head h;
    require_started("mp_probe_node");
    check_node("mp_probe_node", node, true);
    return find(node, &h);
}

bool mp_probe_wait(int node, double seconds)
{
    struct mp_head h;
    require_started("mp_probe_wait");
    check_node("mp_probe_wait", node, true);
    return find_wait("mp_probe_wait", node, deadline_of(seconds), &h);
}

bool mp_probe_info(int node, size_t *length, int *tag, int *sender)
{
    struct mp_head h;
    require_started("mp_probe_info");
    check_node("mp_probe_info", node, true);
    if (mp.pinned && (node == MP_ANY || node == mp.pin.src))
        h = mp.pin;
    else if (find(node, &h)) {
        mp.pin = h;
        mp.pinned = true;
    } else
        return false;
    if (length)
        *length = (size_t)h.length;
    if (tag)
        *tag = h.tag;
    if (sender)
        *sender = h.src;
    return true;
}

int mp_npes(void)
{
    if (mp.started || mp.done)
        return mp.n;
    if (transport()->size)
        return transport()->size();
    settings_check();
    return (int)setting_num(SET_NPROCS);
}

int mp_this_pe(void)
{
    return mp.started || mp.done ? mp.me : 0;
}

bool mp_is_main(void)
{
    return mp_this_pe() == 1;
}
