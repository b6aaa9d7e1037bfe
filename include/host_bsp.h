/*
 * host_bsp.h - the Epiphany BSP host API for Superstep.
 *
 * The host program names its kernel, starts it on p processors as often as
 * it likes, talks to the processors before and after each run (messages,
 * their local memory, streams) and while they run (the sync callback):
 *
 *     bsp_init("e_kernel", argc, argv);   // once, or again after bsp_end
 *     bsp_begin(bsp_nprocs());
 *     ebsp_send_down(pid, tag, data, n);  // readable by the kernels in superstep 0
 *     ebsp_spmd();                        // runs the kernel, blocks until it ends
 *     ebsp_qsize(&packets, &bytes);       // what the kernels sent up
 *     ebsp_spmd();                        // a second run works too
 *     bsp_end();
 *
 * Nothing is started by bsp_init or bsp_begin: the kernel processes are
 * started (fork and exec) by each ebsp_spmd and have all ended when it
 * returns.  The kernel is found beside the host executable (the directory
 * of /proc/self/exe), then in the working directory of bsp_init's caller; a
 * kernel that cannot be found or started is an error naming every path
 * tried.  The kernel gets the host's arguments after argv[0].
 *
 * Names.  bsp_init, bsp_begin, bsp_end and bsp_nprocs mean something else in
 * BSPlib (bsp.h), and ebsp_get_tagsize something else in a kernel
 * (e_bsp.h); this header includes bsp.h and maps them by macros onto
 * distinct symbols:
 *     bsp_init -> ebsp_host_init     bsp_end    -> ebsp_host_end
 *     bsp_begin -> ebsp_host_begin   bsp_nprocs -> ebsp_host_nprocs
 *     ebsp_get_tagsize -> ebsp_host_get_tagsize
 * A translation unit cannot include both host_bsp.h and e_bsp.h.
 *
 * Lifetime.  Messages sent down are delivered by the next ebsp_spmd; what
 * the kernels sent up stays readable until the next ebsp_spmd or bsp_end.
 * Local memories and streams last from bsp_begin to bsp_end, over every run
 * in between; bsp_end releases them (pointers from bsp_stream_create die
 * with it), and stream ids count from 0 again after the next bsp_begin.
 *
 * Errors (a call in the wrong phase, a pid out of range, a read or write
 * beyond local memory, bad sizes, ...) print one line
 *     superstep: <call>: host: <what is wrong, with the values>
 * and end the program with exit status 1.  Errors in the kernels end the
 * run instead: they are printed once, every processor stops, and ebsp_spmd
 * returns 0.
 */
#ifndef SUPERSTEP_HOST_BSP_H
#define SUPERSTEP_HOST_BSP_H

#ifdef SUPERSTEP_E_BSP_H
#error "host_bsp.h (host programs) and e_bsp.h (kernels) cannot be used in one translation unit"
#endif

#include <stddef.h>
#include <sys/types.h>

#include "bsp.h"
#include "host_bsp_deprecated.h"

/* Marks the executable as a host program, in a section of its own: bsprun
 * --device mpi starts it on one rank, which spawns the kernels, rather than
 * on P ranks of which P - 1 would idle in slots the kernels need
 * (docs/mpi.md, "Epiphany host programs"). */
#if defined(__GNUC__) && !defined(SUPERSTEP_LIBRARY)
__attribute__((used, section(".superstep_host"))) static const char superstep_host_program = 1;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Calls without arguments are declared with empty parentheses and
 * ebsp_write's source without const, exactly as Epiphany BSP declares them,
 * so that its programs' own declarations and calls compile unchanged. */
#define bsp_init ebsp_host_init
#define bsp_begin ebsp_host_begin
#define bsp_end ebsp_host_end
#define bsp_nprocs ebsp_host_nprocs
#define ebsp_get_tagsize ebsp_host_get_tagsize

/* ---- lifecycle ---------------------------------------------------------- */

/* Name the kernel (an executable built with bspcc); returns 1.  Not while a
 * bsp_begin is open. */
int bsp_init(const char *e_name, int argc, char **argv);

/* Open a session of runs on nprocs processors (1..65535); returns 1.  Starts
 * nothing.  After bsp_init, and not while another session is open. */
int bsp_begin(int nprocs);

/* Run the kernel on the session's processors and wait until every one has
 * ended.  Returns 1 when all ended cleanly (bsp_end), 0 when the run failed
 * (an error or bsp_abort in a kernel, a processor killed or exiting early:
 * reported on stderr); the session stays usable, so ebsp_spmd may be called
 * again. */
int ebsp_spmd();

/* Close the session: releases its messages, local memories and streams.
 * Returns 1. */
int bsp_end();

/* The processors available: SUPERSTEP_NPROCS (bsprun -n sets it), or the
 * number of CPUs. */
int bsp_nprocs();

/* Called on the host when every processor is in ebsp_host_sync; the
 * processors wait until it returns.  It may use ebsp_read and ebsp_write. */
void ebsp_set_sync_callback(void (*cb)());

/* Called at the end of every ebsp_spmd, after the processors have ended. */
void ebsp_set_end_callback(void (*cb)());

/* ---- local memory ------------------------------------------------------- */

/* Copy size bytes from src to the local memory of processor pid at offset
 * dst (see ebsp_local_address in e_bsp.h); returns 1.  Between bsp_begin and
 * bsp_end, also from the sync callback. */
int ebsp_write(int pid, void *src, off_t dst, int size);

/* Copy size bytes of the local memory of processor pid at offset src to
 * dst; returns 1. */
int ebsp_read(int pid, off_t src, void *dst, int size);

/* ---- messages ----------------------------------------------------------- */

/* Set the tag size of the messages sent down (the kernels start with it);
 * *tag_bytes receives the old one.  Before any message is sent down with
 * another tag size. */
void ebsp_set_tagsize(int *tag_bytes);

/* Queue a message for processor pid; the kernels find it in their queue from
 * bsp_begin to their first bsp_sync.  After bsp_begin, between runs. */
void ebsp_send_down(int pid, const void *tag, const void *payload, int nbytes);

/* The tag size of the messages sent up by the last run (what the kernels set,
 * possibly with bsp_set_tagsize); before any run, the host's. */
int ebsp_get_tagsize();

/* The number of messages sent up by the last run not yet moved, and the sum
 * of their payload sizes.  The queue holds them by processor id, then in
 * the order they were sent. */
void ebsp_qsize(int *packets, int *accum_bytes);

/* *status receives the payload size of the next message (-1 when there is
 * none) and tag its tag (ebsp_get_tagsize() bytes). */
void ebsp_get_tag(int *status, void *tag);

/* Pop the next message, copying at most buffer_size bytes of its payload.
 * An error when the queue is empty. */
void ebsp_move(void *payload, int buffer_size);

/* Pop the next message; *tag_ptr_buf and *payload_ptr_buf point at its tag
 * and payload (valid until the next ebsp_spmd or bsp_end).  Returns the
 * payload size, -1 when the queue is empty. */
int ebsp_hpmove(void **tag_ptr_buf, void **payload_ptr_buf);

/* ---- streams ------------------------------------------------------------ */

/*
 * Create a stream of stream_size bytes in tokens of token_size bytes (the
 * last one may be shorter), filled from initial_data when it is not NULL,
 * else empty (for the kernels to write with bsp_stream_move_up).  Ids count
 * from 0 in creation order within each bsp_begin.  Returns the stream's
 * memory, which the host may read after a run (and write between runs):
 * each token is an 8-byte header, two ints (the previous token's size, this
 * token's size), followed by its bytes; a header with size 0 ends it.  The
 * stream has room for stream_size bytes in tokens of token_size bytes, plus
 * those headers.
 */
void *bsp_stream_create(int stream_size, int token_size, const void *initial_data);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_HOST_BSP_H */
