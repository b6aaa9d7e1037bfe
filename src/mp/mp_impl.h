/*
 * mp_impl.h - what the message-passing layer needs from a transport.
 *
 * The public layer (mp.c) owns the API: argument checks, errors, the order
 * of delivery between classes, the quit notice, timeouts.  A transport owns
 * moving bytes: it keeps, for each sender and class, a FIFO of messages,
 * and it can say which message heads a FIFO, hand over its payload, and
 * sleep until something may have arrived.  Transports: shm (mp_shm.c:
 * processes forked on one shared segment, channels between them) and mpi
 * (mp_mpi.c: node k is rank k-1 of an mpirun job), chosen as the BSP
 * device is (SUPERSTEP_DEVICE, src/device/select.c).
 *
 * Nodes are numbered 1..n here as in the API.
 */
#ifndef SUPERSTEP_MP_IMPL_H
#define SUPERSTEP_MP_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Classes of messages: one FIFO per sender and class. */
enum { MP_CLASS_NORMAL = 0, MP_CLASS_SYSTEM = 1, MP_CLASSES = 2 };

/* What heads a FIFO.  kind MP_HEAD_QUIT: the main node quit (a transport
 * may deliver the quit as the last message of the main node's system
 * FIFO instead of through 'quitting'). */
enum { MP_HEAD_MSG = 0, MP_HEAD_QUIT = 1 };

struct mp_head {
    int src;           /* sending node */
    int cls;
    int tag;
    uint32_t kind;
    uint64_t length;   /* payload bytes */
};

enum { MP_SYNC_OK = 0, MP_SYNC_QUIT = 1 };

struct mp_transport {
    const char *name;
    /* Bring up n nodes; in every node returns 0 with its number in *me, or
     * -errno in the caller, with nothing left running. */
    int (*start)(int n, int *me);
    /* Where the nodes are started from outside (mpirun): how many there
     * are, before start.  NULL: start brings up as many as asked. */
    int (*size)(void);
    /* Meet every node: MP_SYNC_OK, or MP_SYNC_QUIT when the main node quit
     * meanwhile.  Errors (a node that has ended) go through mp_fail. */
    int (*sync)(void);
    /* Queue a message for 'dst'; false when out of memory. */
    bool (*send)(int dst, int cls, int tag, const void *data, size_t length);
    /* The message heading the FIFO from 'src' (0: any sender, taking them in
     * turn) in class 'cls', without taking it; false when there is none.
     * Until it is taken, the same call returns the same message. */
    bool (*head)(int src, int cls, struct mp_head *h);
    /* Take the message that head() just returned, copying its payload
     * (h->length bytes) to buf. */
    void (*take)(const struct mp_head *h, void *buf);
    /* Whether the main node has quit.  Read before looking at the main
     * node's system FIFO: true then means that FIFO holds everything the
     * main node sent in that class before quitting.  mp.c calls it first in
     * every look at the FIFOs; the mpi transport takes in what has arrived
     * there only (not in head), so that one look sees one state, the state
     * its deadlock reports describe. */
    bool (*quitting)(void);
    /* Whether 'node' has ended (called mp_quit(0)). */
    bool (*ended)(int node);
    /* Sleep until a message from 'src' (0: any) or the quit may be waiting,
     * for at most about 100 ms, and not past 'deadline_ns' (CLOCK_MONOTONIC;
     * negative: none).  Returns false only when the deadline has passed.
     * Returns early, spuriously, so the caller can check for deadlocks. */
    bool (*wait)(int src, int64_t deadline_ns);
    /* End this node cleanly.  On the main node: give every node the quit
     * notice and wait until all have ended. */
    void (*end)(void);
    /* Report 'msg' once for the whole job and stop every node; exit status
     * 'code'.  Never returns. */
    void (*fail)(int code, const char *msg) __attribute__((noreturn));
    /* In a process forked from this node (launch_forked_copy), whose
     * refused call has printed its line: mark the job failed with 'code'
     * where the node will see it, without MPI (not for a forked process).
     * NULL: the copy fails the job through the tables it shares (shm). */
    void (*copy_failed)(int code);
};

/* What a node blocked for ever waits for (deadlock detection, both
 * transports): nothing (running, or a wait with a deadline), mp_sync, a
 * message from any node, or from node k (MP_BLOCK_FROM + k).  MP_BLOCK_ENDED:
 * the node has ended (mp_quit). */
enum { MP_BLOCK_NONE = 0, MP_BLOCK_SYNC = 1, MP_BLOCK_ANY = 2, MP_BLOCK_FROM = 3, MP_BLOCK_ENDED = 0xffffffffu };

/* The deadlock line, "mp: deadlock: ...", naming every node whose state(k)
 * is not MP_BLOCK_ENDED and what it waits for, into msg. */
void mp_deadlock_line(char *msg, size_t size, int n, uint32_t (*state)(int k));

/* SUPERSTEP_STALL_TIMEOUT in mp_sync: each transport's sync wait runs a
 * late_timer on its watch (barrier.h), whose hook calls this: when
 * computing(k) holds for some node, the mp_sync error naming them (the
 * job stops); otherwise returns. */
struct late_watch;
void mp_sync_stalled(const struct late_watch *w, int64_t waited_ns, int n, bool (*computing)(uint32_t k));

/* How failure reports name a node, for both transports (launch.h):
 * "node 3 ... without calling mp_quit". */
struct launch_words;
extern const struct launch_words mp_words;

extern const struct mp_transport mp_transport_shm;
extern const struct mp_transport mp_transport_mpi; /* mp_mpi.c, in the mpi plug-in */

/* A usage error in 'call' on this node: "superstep: <call>: node <k>: <what>",
 * every node stops, exit status 1.  Never returns. */
void mp_error(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

#endif
