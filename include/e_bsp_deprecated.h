/*
 * e_bsp_deprecated.h - the kernel half of Epiphany BSP's deprecated stream
 * API (included by e_bsp.h), on top of Superstep's streams.  stream_id is
 * this core's k-th stream made by the host with ebsp_create_down_stream or
 * ebsp_create_up_stream (host_bsp_deprecated.h).  Chunk buffers are in this
 * processor's local memory (ebsp_malloc), so they may be registered and
 * reached with ebsp_get_direct_address; copies go through the DMA engine.
 *
 * Errors Epiphany BSP reports and survives print its line, in order with
 * this processor's messages, and the call does nothing (returns 0):
 *     $PP: BSP ERROR: stream does not exist
 *     $PP: BSP ERROR: mixed up and down streams
 *     $PP: BSP ERROR: tried to open opened stream        (down)
 *     $PP: BSP ERROR: tried creating opened stream       (up)
 *     $PP: BSP ERROR: tried to close closed stream
 *     $PP: BSP ERROR: tried jumping past bounds of stream
 *     $PP: BSP ERROR: could not allocate enough memory for stream
 * With SUPERSTEP_STRICT=1 they are Superstep's fatal one-line errors.
 * Moving a chunk of a stream that is not open, a NULL address pointer, a
 * chunk size out of range, and a chunk going up past the end of its stream
 * are fatal errors in any case.
 */
#ifndef SUPERSTEP_E_BSP_DEPRECATED_H
#define SUPERSTEP_E_BSP_DEPRECATED_H

#ifdef __cplusplus
extern "C" {
#endif

/* Open a down stream: *address receives the buffer of its first chunk
 * (fetched now, in the background); returns the stream's chunk size. */
int ebsp_open_down_stream(void **address, unsigned stream_id);

/* The next chunk: *address receives its buffer, the return value its size;
 * 0 (and *address NULL) at the end of the stream.  With prealloc 1 the
 * chunk after it is fetched into a second buffer meanwhile (double
 * buffering); with 0 one buffer is reused, so *address stays the same. */
int ebsp_move_chunk_down(void **address, unsigned stream_id, int prealloc);

/* Move the down stream's cursor jump_n_chunks chunks forward (or back, when
 * negative); a jump past either end stops there with an error line.
 * A chunk already fetched ahead (prealloc) is still the next one returned.
 * O(|jump_n_chunks|). */
void ebsp_move_down_cursor(int stream_id, int jump_n_chunks);

/* The next chunk is the first one again.  O(1). */
void ebsp_reset_down_cursor(int stream_id);

/* Wait for the stream's copies, free its buffers. */
void ebsp_close_down_stream(unsigned stream_id);

/* Open an up stream: *address receives the buffer to fill with the first
 * chunk; returns the chunk size. */
int ebsp_open_up_stream(void **address, unsigned stream_id);

/* Send the buffer's chunk up (the chunk size, or what
 * ebsp_set_up_chunk_size set), appended to what went up before; *address
 * receives the buffer for the next chunk (with prealloc 1 another buffer,
 * while this one is being copied); returns the chunk size. */
int ebsp_move_chunk_up(void **address, unsigned stream_id, int prealloc);

/* The number of bytes the next ebsp_move_chunk_up sends (0 .. chunk size);
 * it is the chunk size again after that call. */
void ebsp_set_up_chunk_size(unsigned stream_id, int nbytes);

/* Wait for the stream's copies, free its buffers. */
void ebsp_close_up_stream(unsigned stream_id);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_E_BSP_DEPRECATED_H */
