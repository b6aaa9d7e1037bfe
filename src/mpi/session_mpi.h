/*
 * session_mpi.h - Epiphany host programs and kernels on the mpi device: the
 * protocol between the host (src/mpi/hmpi.c) and its kernels
 * (src/mpi/kmpi.c), and the packets both use (session_mpi.c).  All three
 * are built into the mpi plug-in (src/mpi).
 *
 * Each ebsp_spmd spawns the kernel p times (MPI_Comm_spawn): fresh
 * processes per run, as on shm, which a fixed set of mpirun ranks could not
 * give (MPI starts once per process, and a process cannot exec itself after
 * MPI_Init).  The spawned kernels are their own MPI_COMM_WORLD, so the BSP
 * layer runs on them as on any mpi job; they talk to the host through the
 * intercommunicator of the spawn.
 *
 * The session segment, shared memory on shm, is copied: at the start the
 * host broadcasts the data extents of its segment (SEEK_DATA: untouched
 * memory costs nothing) and every kernel rebuilds it in a segment of its
 * own; at ebsp_host_sync and at bsp_end each kernel sends back what it owns
 * (its local and external memory, the bytes it changed above the memories:
 * streams), and its messages up; after the sync callback the host sends
 * each kernel its local and external memory again (the callback may have
 * written them).  Kernels on one machine share one copy (src/mpi/kmpi.c):
 * each then sends back its memories, and kernel 0 the rest.  A failed run
 * (EM_ABORT, EM_FAILED) is stopped by the host (EM_STOP to every kernel,
 * each answers EM_STOPPED and ends with status 0): the host survives.
 * ebsp_message lines go to the host one by one, each
 * acknowledged after the host printed it, so they keep the order of
 * shm's tickets.
 */
#ifndef SUPERSTEP_SESSION_MPI_H
#define SUPERSTEP_SESSION_MPI_H

#include <stdint.h>

#define EM_PIECE (1ull << 30) /* bytes per message: MPI counts are int */

/* Tags on the intercommunicator (kernel -> host unless said). */
enum {
    EM_LINE = 0x4501,     /* an ebsp_message line (text) */
    EM_ACK = 0x4502,      /* host -> kernel: the line is printed */
    EM_HSYNC = 0x4503,    /* ebsp_host_sync: a packet (below) */
    EM_RELEASE = 0x4504,  /* host -> kernel: after the callback, a packet */
    EM_END = 0x4505,      /* bsp_end: a packet */
    EM_ABORT = 0x4506,    /* bsp_abort (Epiphany's): the host stops the run (EM_STOP) */
    EM_PACKET = 0x4507,   /* the pieces of a packet after its length */
    EM_BYE = 0x4508,      /* host -> kernel: every kernel has ended, disconnect */
    EM_STOP = 0x4509,     /* host -> kernel: the run failed, leave (answer EM_STOPPED) */
    EM_STOPPED = 0x450a,  /* kernel -> host: leaving after EM_STOP */
    EM_FAILED = 0x450b,   /* a kernel failed, its line printed: the host stops the run */
};

/* A packet: this header, nruns pairs {offset, length}, the runs' bytes,
 * then up_len bytes of messages up (records, struct ebsp_rec). */
struct em_packet {
    uint64_t nruns, up_len, up_count, up_tagsize, data_len;
};

#ifdef MPI_VERSION /* the packets: in the files that include mpi.h first */
#include "segment/segment.h"

#include <stdbool.h>
#include <stddef.h>


/* A packet being built or received. */
struct em_build {
    struct em_packet h;
    uint64_t *runs;               /* 2 * nruns */
    char *data;
    uint64_t cap_runs, cap_data;
    const char *up;               /* h.up_len bytes (sending) */
    char *up_in;                  /* received */
};

/* Add the data extents of s within [lo, hi) (holes are zero on both sides). */
void em_add_extents(struct em_build *b, const struct segment *s, uint64_t lo, uint64_t hi);
/* Add the runs of s->base[lo, hi) that differ from 'was' (hi - lo bytes). */
void em_add_changes(struct em_build *b, const struct segment *s, uint64_t lo, uint64_t hi, const char *was);
void em_send(struct em_build *b, int dst, int tag, MPI_Comm c);
/* Receive the packet whose header came from src with tag (already probed). */
void em_recv(struct em_build *b, int src, int tag, MPI_Comm c);
/* Copy every run into s; false when one lies outside it. */
bool em_apply(const struct em_build *b, struct segment *s);
void em_free(struct em_build *b);
/* Send or receive n bytes in pieces MPI counts can hold. */
void em_send_bytes(const void *buf, uint64_t n, int dst, int tag, MPI_Comm c);
void em_recv_bytes(void *buf, uint64_t n, int src, int tag, MPI_Comm c);
/* Wait for a message from src (any with MPI_ANY_SOURCE) with tag (or
 * MPI_ANY_TAG) without keeping a core busy: MPI's blocking calls poll. */
void em_wait(int src, int tag, MPI_Comm c, MPI_Status *st);
#endif

#endif
