/*
 * e_bsp.h - the Epiphany BSP core (kernel) API for Superstep.
 *
 * An Epiphany BSP program is two programs: a host program (host_bsp.h) and
 * a kernel.  Here a kernel is an ordinary executable, linked with Superstep
 * (`bspcc e_prog.c -o e_prog`), whose main calls bsp_begin() and bsp_end();
 * the host's ebsp_spmd() starts it on p processes with exec.  Each kernel
 * process is one BSP processor with private globals, exactly as on an
 * Epiphany core.
 *
 * Names.  The Epiphany core API shares names with BSPlib (bsp.h) but not
 * always their types: bsp_begin() takes no argument, bsp_time() returns a
 * float, and several calls behave differently in a kernel.  This header
 * therefore includes bsp.h first and then maps those names, by macros, onto
 * distinct symbols, so both headers may be used in one translation unit and
 * one library carries both APIs:
 *
 *     bsp_begin  -> ebsp_core_begin     bsp_time  -> ebsp_core_time
 *     bsp_end    -> ebsp_core_end       bsp_sync  -> ebsp_core_sync
 *     bsp_nprocs -> ebsp_core_nprocs    bsp_send  -> ebsp_core_send
 *     bsp_pid    -> ebsp_core_pid       bsp_hpput -> ebsp_core_hpput
 *     ebsp_get_tagsize -> ebsp_core_get_tagsize    bsp_hpget -> ebsp_core_hpget
 *
 *     bsp_push_reg -> ebsp_core_push_reg  bsp_put -> ebsp_core_put
 *     bsp_abort -> ebsp_core_abort        bsp_get -> ebsp_core_get
 *
 * Every other call (bsp_pop_reg, bsp_set_tagsize, bsp_qsize, bsp_get_tag,
 * bsp_move, bsp_hpmove) is BSPlib's own, with the same meaning.  A translation unit cannot include
 * both e_bsp.h and host_bsp.h (their macros differ); only the 1998 BSPlib
 * dialect can be combined with this header.
 *
 * Memory.  Each processor has a "local memory": a region of the shared
 * segment, SUPERSTEP_LOCAL_MEMORY bytes (default 32 MiB, K/M/G suffixes
 * accepted), that ebsp_malloc allocates from and that the host reads and
 * writes by offset (ebsp_write/ebsp_read).  ebsp_local_address(offset) gives
 * a kernel the address of a byte of it.  ebsp_malloc allocates from the top
 * of local memory downwards, so data the host writes at low offsets is not
 * handed out while it fits.  ebsp_ext_malloc allocates from a second region
 * per processor, SUPERSTEP_EXT_MEMORY bytes (default 64 MiB).  Both regions
 * are in the segment every processor maps, so others can address them
 * (ebsp_get_direct_address); globals, the stack and malloc'd memory are
 * private to the process.  Local memory keeps its contents from one
 * ebsp_spmd to the next (until the host's bsp_end); the allocators start
 * empty in every run.
 *
 * Errors.  The errors Epiphany BSP reports and survives (an unregistered
 * variable, a stream that does not exist or is in use, the deprecated
 * stream calls' errors) print upstream's line "$PP: BSP ERROR: <what>" in
 * order with the processor's messages, and the call has no effect.  Every
 * other error (a bad pid, a NULL variable, a token larger than its
 * stream's, bsp_sync or bsp_send after ebsp_send_up, ebsp_free of a pointer
 * not from the allocators, ...), and with SUPERSTEP_STRICT=1 every error,
 * prints one line
 *     superstep: <call>: processor <pid>, superstep <s>: <what, with the values>
 * and stops every processor; the host's ebsp_spmd then returns 0.
 */
#ifndef SUPERSTEP_E_BSP_H
#define SUPERSTEP_E_BSP_H

#ifdef SUPERSTEP_HOST_BSP_H
#error "e_bsp.h (kernels) and host_bsp.h (host programs) cannot be used in one translation unit"
#endif
#if defined(SUPERSTEP_MCBSP) || defined(MCBSP_DIALECT)
#error "e_bsp.h combines only with the 1998 BSPlib dialect of bsp.h"
#endif

#include <stddef.h>

#include "bsp.h"
#include "e_bsp_deprecated.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- types ---------------------------------------------------------------- */

/* A handle to one asynchronous copy (ebsp_dma_push / ebsp_dma_wait).  Its
 * contents are the library's; a zeroed handle has nothing pending. */
typedef struct {
    unsigned config;
    unsigned inner_stride;
    unsigned count;
    unsigned outer_stride;
    void *src_addr;
    void *dst_addr;
} __attribute__((aligned(8))) ebsp_dma_handle;

/* An open stream (bsp_stream_open); the caller provides the storage, the
 * library fills it.  Fields are the library's. */
typedef struct {
    ebsp_dma_handle e_dma_desc;   /* the copy in flight: a prefetch or a token going up */
    void *cursor;                 /* header of the next token */
    int id;                       /* the stream's id */
    void *extmem_start;           /* the stream's data in the segment */
    void *extmem_end;
    void *current_buffer;         /* local memory holding the last token moved down */
    void *next_buffer;            /* local memory receiving the prefetched token */
    unsigned max_chunksize;       /* the stream's token size */
    void *next_cursor;            /* header of the prefetched token; NULL: none */
    int next_size;                /* its size */
    unsigned magic;               /* marks an open handle */
} __attribute__((aligned(8))) ebsp_stream;

/* ---- names mapped onto distinct symbols (see the top of this file) -------- */

/* The calls without arguments are declared with empty parentheses, as
 * Epiphany BSP declares them: in C that leaves the arguments unchecked, so
 * a program that passes a stray argument (ebsp_get_tagsize(x)) compiles
 * unchanged, as it did there; in C++ () means no argument. */

#define bsp_begin ebsp_core_begin
#define bsp_end ebsp_core_end
#define bsp_nprocs ebsp_core_nprocs
#define bsp_pid ebsp_core_pid
#define bsp_time ebsp_core_time
#define bsp_sync ebsp_core_sync
#define bsp_send ebsp_core_send
#define bsp_hpput ebsp_core_hpput
#define bsp_hpget ebsp_core_hpget
#define ebsp_get_tagsize ebsp_core_get_tagsize
#define bsp_push_reg ebsp_core_push_reg
#define bsp_put ebsp_core_put
#define bsp_get ebsp_core_get
#define bsp_abort ebsp_core_abort

/* ---- starting and ending --------------------------------------------------- */

/* Start this processor's part of the run.  Only in a kernel started by the
 * host's ebsp_spmd (anything else is an error); once per process.  The
 * message queue then holds the messages the host sent with ebsp_send_down
 * (until the first bsp_sync), and the tag size is the host's. */
void bsp_begin();

/* End this processor's part: waits for its DMA copies, then meets the others
 * and ends the process (exit status 0), so nothing after it runs. */
void bsp_end();

/* The number of processors of the run (before bsp_begin: what BSPlib's
 * bsp_nprocs says). */
int bsp_nprocs();

/* This processor's id, 0 .. bsp_nprocs()-1. */
int bsp_pid();

/* ---- time ------------------------------------------------------------------- */

/* Seconds since bsp_begin (no 7-second limit here). */
float bsp_time();

/* Clock cycles of a 600 MHz clock since the previous call (the first call:
 * since bsp_begin); wraps like a 32-bit counter, after about 7 seconds. */
unsigned int ebsp_raw_time();

/* Seconds since bsp_begin, by the host's clock (the same clock here). */
float ebsp_host_time();

/* ---- synchronisation ------------------------------------------------------ */

/* BSPlib's bsp_sync; an error after ebsp_send_up. */
void bsp_sync();

/* Meet every processor without resolving communication: puts, gets, sends
 * and registrations stay queued for the next bsp_sync.  Every processor must
 * call it at the same point (mixing it with bsp_sync is not detected). */
void ebsp_barrier();

/* Meet every processor and the host: once all are here, the host's sync
 * callback (ebsp_set_sync_callback) runs, and then every processor goes on.
 * Communication is not resolved.  Some processors in ebsp_host_sync while
 * the others wait in bsp_sync, ebsp_barrier or bsp_end is an error. */
void ebsp_host_sync();

/* ---- registration and remote memory access -------------------------------- */

/* Register 'variable' (collective by order, as BSPlib: the k-th
 * registration of every processor is one variable).  As Epiphany BSP
 * documents, nbytes is ignored: puts and gets are not bounded by it; and
 * registrations are matched by their order over the run, so processors may
 * push them in different supersteps.  With SUPERSTEP_STRICT=1 both are as
 * in BSPlib (bounded by nbytes, the same number pushed in each superstep). */
void bsp_push_reg(const void *variable, int nbytes);

/* BSPlib's bsp_put and bsp_get (bsp_pop_reg is BSPlib's too).  A variable
 * that is not registered prints "$PP: BSP ERROR: could not find bsp var
 * <address>" in order with this processor's messages and the call has no
 * effect, as upstream (SUPERSTEP_STRICT=1: the fatal error). */
void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes);

/* Copy nbytes from src to 'offset' bytes into the variable dst as registered
 * on processor pid, at once (not at the next sync, unlike BSPlib's
 * bsp_hpput): directly through the segment when the registered memory is in
 * it (ebsp_malloc, ebsp_ext_malloc), else between the processes' memories.
 * Only where the system forbids that (SUPERSTEP_NO_DIRECT) is the copy
 * buffered to the next sync.  The data is in place after the next bsp_sync
 * in every case. */
void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes);

/* Copy nbytes from 'offset' bytes into the variable src as registered on
 * processor pid to dst, at once (same rules as bsp_hpput). */
void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes);

/* ---- messages (BSMP) ------------------------------------------------------- */

/* The tag size in use in this superstep (the host's at the start). */
int ebsp_get_tagsize();

/* BSPlib's bsp_send; an error after ebsp_send_up. */
void bsp_send(int pid, const void *tag, const void *payload, int nbytes);

/* Send a message with the current tag size to the host, which reads it after
 * ebsp_spmd returns (ebsp_qsize, ebsp_get_tag, ebsp_move, ebsp_hpmove).
 * Only after the last bsp_sync: bsp_sync or bsp_send after it is an error.
 * The data is copied before it returns. */
void ebsp_send_up(const void *tag, const void *payload, int nbytes);

/* ---- streams ---------------------------------------------------------------- */

/*
 * A stream is a sequence of tokens in the segment, created by the host with
 * bsp_stream_create; ids count from 0 in creation order.  It is open on at
 * most one processor at a time: bsp_stream_open on a stream open elsewhere
 * is an error; bsp_stream_close hands it back, keeping its contents, so
 * another processor (or a later run) can open it.
 */

/* Open stream 'stream_id' into *stream; returns the stream's token size.
 * A stream open on a processor (this one included) prints "$PP: BSP ERROR:
 * stream with id N is in use", and a stream id that does not exist "$PP:
 * BSP ERROR: stream with id N does not exist"; either returns 0 and leaves
 * *stream alone (SUPERSTEP_STRICT=1: fatal errors). */
int bsp_stream_open(ebsp_stream *stream, int stream_id);

/* Wait for the stream's copies in flight, free its buffers, hand it back. */
void bsp_stream_close(ebsp_stream *stream);

/* Move the cursor delta_tokens tokens forward (or back, when negative),
 * clamped to the ends: INT_MIN goes to the start, INT_MAX to the end.  A
 * prefetched token is discarded.  O(|delta_tokens|). */
void bsp_stream_seek(ebsp_stream *stream, int delta_tokens);

/* Copy the token at the cursor into a buffer in local memory, set *buffer to
 * it, advance the cursor; returns the token's size, 0 at the end of the
 * stream (and *buffer is NULL).  The buffer holds the token until the next
 * call.  With preload nonzero the following token is copied by the DMA
 * engine into a second buffer while the caller works on this one, and the
 * next call returns it without copying. */
int bsp_stream_move_down(ebsp_stream *stream, void **buffer, int preload);

/* Write data_size bytes as a token at the cursor (the stream ends after it)
 * and advance; returns data_size.  Waits for the previous token's copy
 * first; with wait_for_completion zero it returns while the copy runs, so the
 * caller must leave 'data' alone until the next call on the stream (or
 * bsp_stream_close).  Errors: a token larger than the stream's token size,
 * or one that does not fit in the stream. */
int bsp_stream_move_up(ebsp_stream *stream, const void *data, int data_size, int wait_for_completion);

/* ---- memory ------------------------------------------------------------------- */

/* nbytes of this processor's external memory, 16-byte aligned; NULL when
 * it is full. */
void *ebsp_ext_malloc(unsigned int nbytes);

/* nbytes of this processor's local memory, 16-byte aligned; NULL when it is
 * full. */
void *ebsp_malloc(unsigned int nbytes);

/* Free memory from ebsp_malloc or ebsp_ext_malloc; anything else (NULL, a
 * pointer freed already) is an error. */
void ebsp_free(void *ptr);

/* Superstep extensions: the address of the byte at 'offset' in this
 * processor's local memory (the offset of the host's ebsp_write and
 * ebsp_read), NULL when offset is beyond it; and its size in bytes. */
void *ebsp_local_address(size_t offset);
size_t ebsp_local_size(void);

/* Start copying nbytes from src to dst on this processor's DMA engine (a
 * helper thread, started at the first push) and return at once; *desc
 * identifies the copy for ebsp_dma_wait.  Copies run one at a time in the
 * order they were pushed.  src and dst may be any memory of this process. */
void ebsp_dma_push(ebsp_dma_handle *desc, void *dst, const void *src, size_t nbytes);

/* Wait until the copy in *desc (and so every copy pushed before it) is
 * done.  A zeroed handle, or one waited for already, returns at once. */
void ebsp_dma_wait(ebsp_dma_handle *desc);

/* The address, in this process, of 'variable' as registered on processor
 * pid, when that memory is in the shared segment (from ebsp_malloc or
 * ebsp_ext_malloc, registered with bsp_push_reg); reads and writes through
 * it reach pid's memory at once.  NULL when the variable is not registered
 * or pid registered private memory (a global, the stack, malloc).  Errors:
 * a NULL variable, a pid out of range. */
void *ebsp_get_direct_address(int pid, const void *variable);

/* memcpy. */
void ebsp_memcpy(void *dst, const void *src, size_t nbytes);

/* ---- output and abort ------------------------------------------------------ */

/* printf-style; the host prints it as one line (each line of it) prefixed
 * with "$PP: ", PP the processor id, on its standard output.  Lines of
 * different processors never interleave. */
void ebsp_message(const char *format, ...) __attribute__((__format__(__printf__, 1, 2)));

/* Stop every processor, as Epiphany BSP does: the message is printed as one
 * of this processor's lines ("$PP: message"), then the host prints
 * "(BSP) ERROR: bsp_abort was called"; ebsp_spmd returns 0, and may be
 * called again.  With SUPERSTEP_STRICT=1: BSPlib's line "superstep:
 * bsp_abort: processor <pid>, superstep <s>: <message>". */
void bsp_abort(const char *format, ...) __attribute__((__format__(__printf__, 1, 2), __noreturn__));

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_E_BSP_H */
