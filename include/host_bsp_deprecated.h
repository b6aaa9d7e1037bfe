/*
 * host_bsp_deprecated.h - the host half of Epiphany BSP's deprecated
 * stream API (included by host_bsp.h).  Streams made here are per core:
 * the k-th stream made for a core (down or up) is that core's stream k,
 * which its kernel uses with the calls of e_bsp_deprecated.h; they are
 * separate from the streams of bsp_stream_create.  They last until bsp_end.
 *
 * Errors (outside bsp_begin .. bsp_end, a core id out of range, a chunk
 * size below 16, a negative size, NULL data) print
 *     superstep: <call>: host: <what>
 * and end the program with status 1.
 */
#ifndef SUPERSTEP_HOST_BSP_DEPRECATED_H
#define SUPERSTEP_HOST_BSP_DEPRECATED_H

#ifdef __cplusplus
extern "C" {
#endif

/* A stream of nbytes of src (copied now) to core dst_core_id, in chunks of
 * chunksize bytes (at least 16; the last one may be shorter). */
void ebsp_create_down_stream(const void *src, int dst_core_id, int nbytes, int chunksize);

/* A stream from core dst_core_id to the host of at most max_nbytes, written
 * in chunks of at most chunksize bytes (at least 16).  Returns its memory,
 * where the chunks the kernel sends up lie one after another (no headers);
 * the host reads it after the run. */
void *ebsp_create_up_stream(int dst_core_id, int max_nbytes, int chunksize);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_HOST_BSP_DEPRECATED_H */
