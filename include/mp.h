/*
 * mp.h - Superstep's two-sided message passing between nodes.
 *
 * A program starts once; mp_start brings up N nodes (N from the environment
 * variable SUPERSTEP_NPROCS, which `bsprun -n N` sets; the number of CPUs
 * when it is unset).  On the shared-memory transport the other nodes are
 * processes forked from the caller at mp_start, so they continue from that
 * call with a copy of its memory.  Nodes are numbered 1..N; node 1, the
 * caller, is the main node.  Every node then calls mp_sync, which returns
 * once every node has started.
 *
 * Messages are byte strings of any length (0 included) with an int tag.
 * Sending never blocks for lack of buffer room.  A receive delivers, among
 * the messages waiting for it:
 *   1. system messages (tag has the MP_SYSTEM bit) from the main node;
 *   2. then the quit notice (MP_QUIT), once the main node has quit;
 *   3. then system messages from the other nodes;
 *   4. then ordinary messages,
 * taking senders in turn within a class.  Between one pair of nodes the
 * messages of one class arrive in the order they were sent; a system
 * message may overtake ordinary ones sent before it.  The tag comes back
 * exactly as it was sent, MP_SYSTEM bit included.
 *
 * Errors (a bad node number, a NULL buffer with a non-zero length, a message
 * longer than the receive buffer, a call before mp_start, ...) print one
 * line, "superstep: <call>: node <k>: <what is wrong>", stop every node, and
 * make the program's exit status 1; so does a receive without a time limit
 * that nothing can satisfy (the node it waits for, or every other node,
 * has ended).  A node that dies is reported as
 * "superstep: node <k> killed by signal <s> (<NAME>)" and the exit status
 * is 128 + the signal.  A waiting node never hangs on a failed peer.
 *
 * Ending: the main node calls mp_quit(0) when the computation is over.
 * Every other node then receives the quit notice (a receive returns length
 * 0 with tag MP_QUIT and sender 1) and should call mp_quit(0) and end.
 * mp_quit on the main node returns once every node has ended.  A node that
 * calls mp_quit with a non-zero code stops every node, and the program's
 * exit status is 1.  A node other than the main one that ends (returns from
 * main or calls exit) without calling mp_quit and before the quit notice is
 * an error; the main node ending without mp_quit quits as mp_quit(0) does.
 *
 * Call mp_* from one thread per node (the calls are not thread-safe).
 * This header needs nothing of bsp.h; link with -lsuperstep.
 */
#ifndef SUPERSTEP_MP_H
#define SUPERSTEP_MP_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Tag bit of a system message: (tag & MP_SYSTEM) != 0. */
#define MP_SYSTEM 0x40000000

/* The tag of the quit notice (a system tag from the main node).  Reserved:
 * mp_send refuses it. */
#define MP_QUIT ((int)(0x80000000u | MP_SYSTEM))

/* 'Any sender', for the node argument of the probes and mp_recv_from... */
#define MP_ANY 0

/* ...and 'wait for ever', for their timeouts in seconds. */
#define MP_FOREVER (-1.0)

/*
 * Bring up the nodes.  argc and argv are those of main (they may be NULL;
 * they are not changed).  Returns true in every node.  Returns false, with
 * the reason printed on stderr and no node started, when the nodes cannot
 * be started (a bad SUPERSTEP_NPROCS, no memory, fork failing).  Calling it
 * a second time is an error.
 */
bool mp_start(int *argc, char ***argv);

/*
 * Finish start-up: returns once every node has called it.  Every node
 * calls it once after mp_start; it may be called again as a barrier, by
 * every node.  Returns false when the main node has quit meanwhile (this
 * node then has the quit notice and should end).
 */
bool mp_sync(void);

/*
 * End this node.  error == 0: a clean end.  On the main node, every other
 * node gets the quit notice and mp_quit waits until every node has ended,
 * then returns true.  On another node it returns true at once; the process
 * should then end with status 0 (return from main).  No mp_* call but the
 * queries (mp_npes, mp_this_pe, mp_is_main) may follow.
 * error != 0: report "mp_quit: node <k>: quit with error code <error>",
 * stop every node and exit with status 1; does not return.
 */
bool mp_quit(int error);

/*
 * Send 'length' bytes at 'data' (NULL allowed when length is 0) with 'tag'
 * to 'node' (1..N; a node may send to itself).  The data is copied before
 * mp_send returns; it never waits for the receiver.  Returns true when sent;
 * false, sending nothing, after this node has received the quit notice.
 */
bool mp_send(int node, int tag, const void *data, size_t length);

/*
 * Receive the next message (see the order above), waiting as long as it
 * takes.  Copies its payload to 'buffer' (NULL allowed when maxlength is 0),
 * stores its tag in *tag and its sender in *sender (either pointer may be
 * NULL) and returns its length.  A message longer than maxlength is an
 * error naming both lengths; mp_probe_info tells the length beforehand.
 * After the main node quit: returns 0 with *tag = MP_QUIT, *sender = 1, and
 * does so again on every later call.
 */
size_t mp_recv(size_t maxlength, void *buffer, int *tag, int *sender);

/*
 * mp_recv waiting at most 'seconds' (0: not at all; MP_FOREVER or any
 * negative value: for ever).  *got (which must not be NULL) says whether a
 * message (or the quit notice) was received; on a timeout it is false, the
 * result is 0 and *tag, *sender are left alone.
 */
size_t mp_recv_timeout(size_t maxlength, void *buffer, int *tag, int *sender,
                       double seconds, bool *got);

/*
 * Receive the next message from 'node' only (1..N, or MP_ANY, which makes
 * this mp_recv_timeout), waiting at most 'seconds' as above.  The quit
 * notice is delivered whatever the node.  Messages from other nodes stay
 * waiting.
 */
size_t mp_recv_from(int node, size_t maxlength, void *buffer, int *tag,
                    double seconds, bool *got);

/* Whether a message (or the quit notice) is waiting; does not wait. */
bool mp_probe(void);

/* Whether a message from 'node' (or MP_ANY), or the quit notice, is
 * waiting; does not wait. */
bool mp_probe_node(int node);

/* Wait at most 'seconds' (negative: for ever) until mp_probe_node(node)
 * would be true; returns that. */
bool mp_probe_wait(int node, double seconds);

/*
 * Describe, without taking it, the message that mp_recv_from(node, ...)
 * (mp_recv for MP_ANY) would deliver now: its length, tag and sender (any
 * pointer may be NULL).  That message is then held for the next receive
 * that may take it (any sender, or its sender), which delivers it even if
 * a message of higher priority arrives meanwhile; so the length can size
 * the buffer.  Returns false, changing nothing, when none is waiting.  Does
 * not wait.
 */
bool mp_probe_info(int node, size_t *length, int *tag, int *sender);

/* N, the number of nodes (before mp_start: the number mp_start would start). */
int mp_npes(void);

/* This node's number, 1..N (0 before mp_start). */
int mp_this_pe(void);

/* Whether this node is the main node (node 1). */
bool mp_is_main(void);

#ifdef __cplusplus
}
#endif

#endif
