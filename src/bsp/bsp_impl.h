/*
 * bsp_impl.h - the BSP layer's internal interface: one processor's state,
 * the records it sends, and the pieces of the superstep protocol.
 *
 * The public dialects (src/bsp/dialect.c) convert their arguments and call
 * the bsp_impl_* functions, which take signed 64-bit ids and sizes so that
 * negative and absurd values can be named in errors.
 */
#ifndef SUPERSTEP_BSP_IMPL_H
#define SUPERSTEP_BSP_IMPL_H

#include "barrier/barrier.h"
#include "device/device.h"
#include "launch/launch.h"
#include "segment/segment.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- records in the byte streams --------------------------------------- */

/* A record starts with a 32-bit word whose low byte is its kind. */
enum rec_kind { REC_PUT = 1, REC_GET, REC_REPLY, REC_SEND, REC_SMALL, REC_MSG };
#define REC_KIND(word) ((word) & 0xffu)

/* A small put (most puts): nbytes <= 255, slot <= 65535, offset < 2^32 fit
 * in 8 bytes of header, a third of a full put's.  word = kind | nbytes << 8
 * | slot << 16; followed by nbytes of payload. */
struct rec_small {
    uint32_t word;
    uint32_t offset;
};
#define SMALL_MAX_NBYTES 255u
#define SMALL_MAX_SLOT 0xffffu

struct rec_put {   /* followed by nbytes of payload */
    uint32_t kind, slot;
    uint64_t offset, nbytes;
};

struct rec_get {   /* a request; the owner answers with a rec_reply */
    uint32_t kind, slot;
    uint64_t offset, nbytes, dst;
};

struct rec_reply { /* followed by nbytes of payload */
    uint32_t kind, pad;
    uint64_t nbytes, dst;
};

struct rec_send {  /* followed by tagsize bytes of tag, then nbytes of payload */
    uint32_t kind, tagsize;
    uint64_t nbytes;
};

/* A message with a tag of at most 255 bytes and a payload of at most 65535
 * (most messages) has a one-word header: word = kind | tagsize << 8 |
 * nbytes << 16.  The tag ends and the payload starts at the first multiple
 * of 8 bytes after the word (MSG_PAYLOAD_AT), and the payload is padded to
 * a multiple of 8, so that in the queue, where runs of these records are
 * copied as they are, every payload bsp_hpmove hands out is 8-byte aligned.
 * A 16-byte message with a 4-byte tag: 24 bytes, against 36 as a rec_send. */
#define MSG_MAX_TAGSIZE 0xffu
#define MSG_MAX_NBYTES 0xffffu
#define MSG_WORD(tagsize, nbytes) (REC_MSG | (uint32_t)(tagsize) << 8 | (uint32_t)(nbytes) << 16)
#define MSG_TAGSIZE(word) (((word) >> 8) & 0xffu)
#define MSG_NBYTES(word) ((word) >> 16)
#define MSG_ROUND(n) (((n) + 7) & ~(uint64_t)7)
#define MSG_PAYLOAD_AT(tagsize) MSG_ROUND(sizeof(uint32_t) + (tagsize))
#define MSG_SIZE(tagsize, nbytes) (MSG_PAYLOAD_AT(tagsize) + MSG_ROUND(nbytes))

/* Header bytes of a record, from its first word; 0 for an unknown kind. */
static inline size_t rec_head_size(uint32_t word)
{
    switch (REC_KIND(word)) {
    case REC_PUT: return sizeof(struct rec_put);
    case REC_GET: return sizeof(struct rec_get);
    case REC_REPLY: return sizeof(struct rec_reply);
    case REC_SEND: return sizeof(struct rec_send);
    case REC_SMALL: return sizeof(struct rec_small);
    case REC_MSG: return sizeof(uint32_t);
    default: return 0;
    }
}

/* Bytes that follow a whole header (a get request carries none). */
static inline uint64_t rec_data_size(const void *head)
{
    uint32_t word;
    __builtin_memcpy(&word, head, sizeof word);
    switch (REC_KIND(word)) {
    case REC_PUT: return ((const struct rec_put *)head)->nbytes;
    case REC_REPLY: return ((const struct rec_reply *)head)->nbytes;
    case REC_SEND: return ((const struct rec_send *)head)->tagsize + ((const struct rec_send *)head)->nbytes;
    case REC_SMALL: return (word >> 8) & 0xff;
    case REC_MSG: return MSG_SIZE(MSG_TAGSIZE(word), MSG_NBYTES(word)) - sizeof word;
    default: return 0;
    }
}

/* Bytes of tag and payload a record carries (what the profiler counts):
 * rec_data_size less a message's padding. */
static inline uint64_t rec_user_bytes(const void *head)
{
    uint32_t word;
    __builtin_memcpy(&word, head, sizeof word);
    if (REC_KIND(word) == REC_MSG)
        return MSG_TAGSIZE(word) + MSG_NBYTES(word);
    return rec_data_size(head);
}

/* ---- registrations ------------------------------------------------------ */

/* A slot's entry in a processor's shared table: what peers may address. */
struct reg_entry {
    _Atomic uint64_t addr;
    _Atomic uint64_t size;
    /* Whole pages of the area that live in the segment (mirror.c): peers
     * copy [mlo, mlo + mlen) at segment offset moff; moff 0: none.  The
     * owner stores moff last (release), peers load it first (acquire). */
    _Atomic uint64_t mlo, mlen, moff;
    /* A peer's hp transfer asked the owner to move the area (MOVE_ASKED),
     * or the owner has answered (MOVE_ANSWERED): mirror.c. */
    _Atomic uint64_t move;
};
enum { MOVE_NONE, MOVE_ASKED, MOVE_ANSWERED };

/* What a processor changed at one sync; peers compare them after the
 * barrier.  Kept per parity of the superstep: a processor may be one sync
 * ahead of a peer that is still reading the previous record. */
struct reg_change {
    uint64_t step;                /* the superstep whose sync this describes */
    uint32_t pushed, popped;
    uint64_t pop_hash;
    uint64_t tagsize_next;
    uint32_t tagsize_calls;       /* bsp_set_tagsize calls in the superstep */
    uint32_t null_pops;           /* pops of a NULL that nothing registered */
};

/* Per-processor facts, in the segment, that peers read. */
struct bsp_proc {
    _Atomic uint64_t regtab;      /* offset of this processor's reg_entry array */
    struct reg_change change[2];
    /* Set by a peer that asked for a move in this processor's table: the
     * owner looks at its entries at its next sync (mirror_serve). */
    _Atomic uint32_t moves_asked;
    /* The superstep (its low 32 bits) whose sync this processor has
     * finished applying: what a peer's direct read waits for (rma.c). */
    struct counted_word applied;
    char pad[2 * SEG_LINE - sizeof(uint64_t) - 2 * sizeof(struct reg_change) - sizeof(uint32_t) -
             sizeof(struct counted_word)];
};

struct reg {
    const void *addr;
    uint64_t size;
    uint32_t slot;
    int32_t below;    /* the registration of the same address it shadows, or -1 */
    bool live;
    bool popping;     /* bsp_pop_reg'd in this superstep */
    int32_t mirror;   /* the moved pages it uses (mirror.c), or -1 */
};

/* ---- direct (hp) transfers queued for the sync -------------------------- */

struct hp_op {
    uint32_t pid;
    uint32_t slot;    /* of the remote area */
    bool write;
    void *local;
    uint64_t remote;
    uint64_t nbytes;
};

/* Copy a small payload without a call to memcpy: sizes up to 64 bytes as
 * two fixed-size copies that may overlap (a variable-size memcpy is a call
 * into libc of 15-20 instructions, as much as the rest of a small put or
 * message); larger ones through memcpy. */
static inline void copy_small(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (n == 8) {
        __builtin_memcpy(d, s, 8);
    } else if (n == 4) {
        __builtin_memcpy(d, s, 4);
    } else if (n == 16) {
        __builtin_memcpy(d, s, 16);
    } else if (n > 64) {
        memcpy(d, s, n);
    } else if (n >= 32) {
        __builtin_memcpy(d, s, 32);
        __builtin_memcpy(d + n - 32, s + n - 32, 32);
    } else if (n >= 16) {
        __builtin_memcpy(d, s, 16);
        __builtin_memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        __builtin_memcpy(d, s, 8);
        __builtin_memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        __builtin_memcpy(d, s, 4);
        __builtin_memcpy(d + n - 4, s + n - 4, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* Room for an n-byte record towards dst from the device's window, or NULL
 * when there is no window or not enough room in it.  No call: the fast
 * paths of bsp_put and bsp_send stay leaf functions. */
static inline char *window_claim(uint32_t dst, size_t n)
{
    struct stream_window *w = dev->windows;
    if (w) {
        w += dst;
        if ((size_t)(w->end - w->at) >= n) {
            char *at = w->at;
            w->at += n;
            return at;
        }
    }
    return NULL;
}

/* Room for an n-byte record towards dst, to be filled before the next sync:
 * from the device's window when it has one with room, else by a claim. */
static inline char *stream_claim(uint32_t dst, size_t n)
{
    char *at = window_claim(dst, n);
    return at ? at : dev->claim(dst, n);
}

/* ---- one processor's state ---------------------------------------------- */

struct bsp_state {
    bool begun;
    bool mc;                      /* called through the MulticoreBSP dialect: sizes are unsigned */
    uint32_t p, me;
    uint64_t step;
    double t0;
    void (*spmd)(void);
    bool init_inside;             /* bsp_init called in this SPMD section: the next bsp_begin nests */
    bool joining;                 /* running the bsp_init function afresh: its bsp_begin joins this run */
    struct bsp_proc *shared;      /* p entries */
    /* Processor q's 'applied' word is at applied_at + q * applied_stride:
     * in 'shared', or where its kernels share memory (kernel.c). */
    char *applied_at;
    size_t applied_stride;

    /* registrations: regs[] local records, map address -> top reg index */
    struct reg *regs;
    uint32_t nregs, capregs;
    int32_t *map;                 /* open addressing, capmap entries, -1 empty */
    uint32_t capmap;
    int32_t *slot_reg;            /* slot -> reg index, -1 */
    int32_t *dead_regs;           /* reg records free for reuse */
    uint32_t ndead, capdead;
    uint32_t nslots, capslots;
    uint32_t *free_slots, nfree;
    struct reg_entry *mytab;      /* my shared table */
    struct reg_entry **tabs;      /* every processor's table, as of the last sync */
    uint32_t captab;
    /* changes pending until the next sync */
    struct { const void *addr; uint64_t size; bool cancelled; int32_t mirror; } *push;
    uint32_t npush, cappush;
    uint32_t ncancel;             /* pushes undone by a pop in the same superstep */
    uint64_t cancel_hash;         /* which ones (their positions), for the check */
    uint32_t null_pops;           /* bsp_pop_reg(NULL) with no NULL registered: matched at the sync */
    int32_t *pop;                 /* reg indices */
    uint32_t npop, cappop;
    const void *last_addr;        /* one-entry lookup cache */
    int32_t last_reg;
    uint32_t last_slot;

    /* superstep traffic */
    bool slow;                    /* a get or an hp transfer was issued */
    struct hp_op *hp;
    uint32_t nhp, caphp;
    struct hp_span { uint64_t lo, hi; } *hp_span; /* streamed hp bytes, per (processor, write) (rma.c) */
    bool hp_spans_used;

    /* BSMP */
    uint64_t tagsize, tagsize_next;
    uint32_t tagsize_calls;       /* in this superstep: all processors must agree */
    /* The queue: the records of the messages received at the last sync
     * (REC_MSG as they came in the streams; rec_send with the payload moved
     * to a multiple of 8), each starting at a multiple of 8 bytes. */
    char *mq;
    uint64_t mq_len, mq_cap;      /* bytes held, allocated */
    uint64_t mq_at;               /* offset of the next message's record */
    uint64_t mq_count;            /* messages not yet moved */
    uint64_t mq_bytes_left;       /* their payload bytes */

    uint64_t checkpoint_every;    /* automatic checkpoints (checkpoint.c): 0 none */
};

/* Hidden: the library's own code reaches it without the GOT (-fPIC). */
extern struct bsp_state bsp __attribute__((visibility("hidden")));

void rma_bad_slot(uint32_t src, uint32_t slot) __attribute__((noreturn, cold));

/* Where a put from src to 'slot' lands here: the drain's lookup, inline. */
static inline char *rma_slot_addr(uint32_t src, uint32_t slot)
{
    int32_t r = slot < bsp.nslots ? bsp.slot_reg[slot] : -1;
    if (__builtin_expect(r < 0, 0))
        rma_bad_slot(src, slot);
    return (char *)bsp.regs[r].addr;
}

/* Which collective call a processor waits in (launch_proc.call), for
 * mismatch and stall reports; CALL_NONE while it computes. */
enum { CALL_NONE, CALL_SYNC, CALL_END, CALL_BARRIER, CALL_HOST_SYNC, CALL_COUNT };
extern const char *const bsp_call_names[CALL_COUNT];
const char *bsp_call_name(uint32_t call);
void bsp_set_call(uint32_t call);

/* A collective mismatch seen at a barrier (processors in different
 * collective calls): the one processor that reports it names both, the
 * others wait for that report (core.c). */
void bsp_collective_mismatch(void) __attribute__((noreturn));

/* What an ebsp_barrier adds at the barrier.  The barrier word's four fields
 * are taken (count, gets, end, registrations), so the kind of call is told
 * by a combination no bsp_sync or bsp_end makes: "end" (bsp_sync sees a
 * mismatch when any processor is not in bsp_sync) together with
 * "registrations" (bsp_end never sets it).  All in ebsp_barrier: end and
 * registrations both count every processor. */
#define EBSP_BARRIER_FLAGS (XFLAG(XF_COUNT) | XFLAG(XF_END) | XFLAG(XF_REGS))

/* SUPERSTEP_STALL_TIMEOUT: arm this process's collective waits (stall.c). */
void bsp_stall_arm(void);
/* Processor q computes (in no collective call, not ended; not this
 * process), or its process is stopped ('T', 't'; 0: not, or not known),
 * and its superstep: what the watches name (stall.c; the Epiphany host's
 * too). */
bool bsp_stall_computing(uint32_t q);
char bsp_stall_stopped(uint32_t q);
uint64_t bsp_stall_step(uint32_t q);

/* Errors: one line naming the call, processor, superstep; stops the job. */
void bsp_error(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void bsp_not_begun(const char *call) __attribute__((noreturn, cold));
/* In a process the program forked from a processor (not one itself,
 * launch_forked_copy): stop with the line that says so; elsewhere return. */
void bsp_require_not_forked(const char *call);
/* This process runs a processor: begun, and not a copy of one. */
static inline bool bsp_live(void)
{
    return bsp.begun && !launch_forked_copy();
}
/* Inline: every call checks it, and a call costs as much as a small put. */
static inline void bsp_require_begun(const char *call)
{
    if (__builtin_expect(!bsp_live(), 0))
        bsp_not_begun(call);
}
/* A size as the caller wrote it (unsigned in the MulticoreBSP dialect). */
typedef struct { char s[24]; } sizestr;
sizestr size_str(int64_t v);
/* Refuse a negative or absurd (above 2^40) size argument named 'what'. */
void bad_size(const char *call, const char *what, int64_t v) __attribute__((noreturn, cold));
static inline void check_size(const char *call, const char *what, int64_t v)
{
    if (__builtin_expect((uint64_t)v > (1ull << 40), 0)) /* negative or absurd */
        bad_size(call, what, v);
}
void *grow(void *p, uint64_t *cap, uint64_t need, size_t elem);

/* Registrations (reg.c). */
void reg_reset(void);
void reg_free(void);
/* Nested runs: swap the registration replica (mpi) with 'r'; returns the old. */
struct reg_entry *reg_nest_swap(struct reg_entry *r);
int32_t reg_lookup(const char *call, const void *addr);
int64_t reg_slot_of(const void *addr);   /* addr's slot, -1 when not registered (no error) */
static inline uint64_t reg_remote_size(uint32_t pid, uint32_t slot)
{
    return atomic_load_explicit(&bsp.tabs[pid][slot].size, memory_order_relaxed);
}
static inline uint64_t reg_remote_addr(uint32_t pid, uint32_t slot)
{
    return atomic_load_explicit(&bsp.tabs[pid][slot].addr, memory_order_relaxed);
}
bool reg_prepare_sync(void);       /* true when registrations change */
/* Epiphany BSP kernels (src/ebsp sets it at their bsp_begin, unless
 * SUPERSTEP_STRICT=1): registrations are matched by their order over the
 * whole run, as upstream does, so processors may push them in different
 * supersteps; the numbers pushed per sync are then not compared. */
extern bool reg_match_by_order;
void reg_check_sync(void);         /* after the exchange, when any changed */
void reg_commit_sync(void);

/* Registered areas moved into the segment for direct transfers (mirror.c).
 * mirror_reset clears a slot's entry at the sync that registers it;
 * mirror_ask (a peer, at an hp transfer into an area not moved) asks the
 * owner to move it; mirror_serve (the owner, at the start of its next sync,
 * when asked) moves the areas asked for with mirror_attach.
 * mirror_attach moves (or shares) the whole pages of a registration being
 * published in e and returns the move's index, -1 for none (e then
 * publishes none); mirror_detach: a registration using it was popped
 * (the pages stay moved, idle, until the program unmaps them or bsp_end). */
void mirror_begin(void);
void mirror_end(void);
int32_t mirror_attach(const void *addr, uint64_t size, struct reg_entry *e);
void mirror_detach(int32_t i);
void mirror_reset(struct reg_entry *e);
void mirror_ask(uint32_t pid, uint32_t slot);
void mirror_serve(void);

/* BSMP (bsmp.c). */
void bsmp_reset(void);
void bsmp_free(void);
void bsmp_deliver(uint32_t src, const struct rec_send *r);
void bsmp_deliver_msg(uint32_t src, uint32_t word);  /* a REC_MSG whose word was read */
void bsmp_deliver_here(const struct rec_send *r, const void *data); /* tag + payload contiguous */
/* Queue the whole REC_MSG records at the start of p[0..len) with one copy;
 * returns the bytes taken (0 when the first is not whole). */
size_t bsmp_take_run(const char *p, size_t len);
void bsmp_set_initial_tagsize(uint64_t tagsize); /* Epiphany kernels: the host's, in superstep 0 */

/* The queue's reads, inline so that the dialects' bsp_get_tag and bsp_move
 * need no second call (bsmp.c has their errors).  A queued message: */
struct queued {
    char *tag, *payload;
    uint64_t tagsize, nbytes;
};

/* Where a rec_send's payload is in the queue (after its tag, aligned). */
#define QUEUED_SEND_PAYLOAD_AT(tagsize) MSG_ROUND(sizeof(struct rec_send) + (tagsize))

/* The message at the head of the queue (which must not be empty). */
static inline struct queued bsmp_head(void)
{
    char *at = bsp.mq + bsp.mq_at;
    uint32_t word;
    memcpy(&word, at, sizeof word);
    if (__builtin_expect(REC_KIND(word) == REC_MSG, 1)) {
        uint64_t ts = MSG_TAGSIZE(word);
        char *payload = at + MSG_PAYLOAD_AT(ts);
        return (struct queued){ payload - ts, payload, ts, MSG_NBYTES(word) };
    }
    struct rec_send r;
    memcpy(&r, at, sizeof r);
    return (struct queued){ at + sizeof r, at + QUEUED_SEND_PAYLOAD_AT(r.tagsize), r.tagsize, r.nbytes };
}

/* The next record starts at the first multiple of 8 after the payload. */
static inline void bsmp_dequeue(const struct queued *m)
{
    bsp.mq_at = (uint64_t)(m->payload - bsp.mq) + MSG_ROUND(m->nbytes);
    bsp.mq_count--;
    bsp.mq_bytes_left -= m->nbytes;
}

void bsmp_null_tag(uint64_t tagsize) __attribute__((noreturn, cold));
void bsmp_bad_move(int64_t max, uint64_t nbytes) __attribute__((noreturn, cold));

/* bsp_get_tag: the head's payload size (-1 when the queue is empty), its
 * tag copied out. */
static inline int64_t bsmp_get_tag(void *tag)
{
    if (!bsp.mq_count) { /* the queue is empty outside bsp_begin ... bsp_end too */
        bsp_require_begun("bsp_get_tag");
        return -1;
    }
    struct queued m = bsmp_head();
    if (m.tagsize) {
        if (__builtin_expect(!tag, 0))
            bsmp_null_tag(m.tagsize);
        copy_small(tag, m.tag, m.tagsize);
    }
    return (int64_t)m.nbytes;
}

/* bsp_move: take the head out, copying at most max bytes of its payload. */
static inline void bsmp_move(void *payload, int64_t max)
{
    if (__builtin_expect(!bsp.mq_count || max < 0, 0)) /* empty outside bsp_begin ... bsp_end too */
        bsmp_bad_move(max, 0);
    struct queued m = bsmp_head();
    uint64_t n = m.nbytes < (uint64_t)max ? m.nbytes : (uint64_t)max;
    if (__builtin_expect(n && !payload, 0))
        bsmp_bad_move(max, m.nbytes);
    bsmp_dequeue(&m);
    copy_small(payload, m.payload, n);
}

/* RMA (rma.c). */
void rma_apply_put(uint32_t src, const struct rec_put *r);
void rma_put_here(uint32_t src, const struct rec_put *r, const void *data); /* payload contiguous */

void rma_serve_gets(void);
void rma_apply_replies(void);     /* every get's reply, before any put is applied */
void rma_do_direct(void);
void rma_superstep_done(void);     /* the superstep's hp transfers are done */
void rma_free(void);
/* Before reading or writing processor pid's memory outside a sync: wait
 * until it has applied what the last sync delivered to it. */
void rma_wait_applied(uint32_t pid);
static inline struct counted_word *rma_applied_of(uint32_t pid)
{
    return (struct counted_word *)(bsp.applied_at + pid * bsp.applied_stride);
}

/* MulticoreBSP's machine.info in the working directory, read once
 * (machine.c); a field counts only when its *_set is true. */
struct machine_info {
    size_t threads, cores, threads_per_core, unused_threads_per_core;
    bool threads_set, cores_set, threads_per_core_set, unused_set;
    bool wrapped, numbering_set;      /* thread_numbering */
    int affinity;                     /* enum mcbsp_affinity_mode */
    bool affinity_set;
    size_t *pinning, npinning;        /* NULL: none */
    size_t *reserved, nreserved;      /* NULL: none */
    size_t cp_f, safe_cp_f;           /* checkpoint frequencies */
    bool cp_f_set, safe_cp_f_set;
};
const struct machine_info *machine_info(void);

/* Automatic checkpoints (checkpoint.c): bsp_begin arms them from the
 * settings; bsp_sync calls checkpoint_due when bsp.checkpoint_every is not
 * 0 and divides the new superstep number. */
void checkpoint_arm(void);
void checkpoint_due(void) __attribute__((noreturn, cold));

/* Pinning processors to CPUs, MulticoreBSP's machine settings (affinity.c). */
void affinity_pin(uint32_t me, uint32_t p);   /* at bsp_begin, shm device */
void affinity_unpin(void);                    /* in a nested run: every CPU first allowed */
int64_t affinity_max_threads(void);           /* mcbsp_set_maximum_threads, or 0 */

/* Reading incoming streams (sync.c). */
void stream_read(uint32_t src, void *buf, size_t n);
void stream_skip(uint32_t src, uint64_t n);
bool stream_write(uint32_t dst, const void *buf, size_t n);

/* The public entry points behind both dialects. */
void bsp_impl_begin(int64_t p);
void bsp_segment_setup(struct segment *seg); /* the BSP layer's tables in a fresh job segment */
int64_t bsp_impl_nprocs(void);
int64_t bsp_impl_pid(void);
void bsp_impl_push_reg(const void *addr, int64_t size);
void bsp_impl_put(int64_t pid, const void *src, const void *dst, int64_t offset, int64_t nbytes, const char *call);
void bsp_impl_get(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes, const char *call);
void bsp_impl_hpput(int64_t pid, const void *src, const void *dst, int64_t offset, int64_t nbytes);
void bsp_impl_hpget(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes);
void bsp_impl_direct_get(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes);
/* Returns the size in force (in_force: MulticoreBSP 2.x, LPF) or the one
 * last requested in this superstep (the 1998 rule). */
int64_t bsp_impl_set_tagsize(int64_t size, bool in_force);
void bsp_impl_send(int64_t pid, const void *tag, const void *payload, int64_t nbytes);
void bsp_impl_qsize(uint64_t *packets, uint64_t *bytes);
int64_t bsp_impl_get_tag(void *tag);     /* -1 when the queue is empty */
void bsp_impl_move(void *payload, int64_t max);
int64_t bsp_impl_hpmove(void **tag, void **payload);

/*
 * Observers of the superstep protocol: the profiler (src/profile), a layer
 * above this one, installs its hooks here (a constructor), so this layer
 * names none of its functions.  bsp_begin calls init before the processors
 * start (it reads SUPERSTEP_PROFILE and sets bsp_observing when on); the
 * other hooks run only while bsp_observing, each call site costing one
 * compare with memory and one predictable branch (bench/RESULTS.md):
 *     OBSERVE(sync_begin());
 * start: in every processor once it knows its id.  sync_begin: at
 * bsp_sync's entry; sync_waited: after each barrier (exchange), before
 * anything is consumed; sync_served: before the second barrier (gets
 * served, direct transfers done); sync_end: at the end.  end_begin: at
 * bsp_end's entry, before the last barrier; finish: after it, with the
 * number of processors that observe (processor 0 writes the trace; on mpi,
 * where each rank reads its own environment, only when all of them do).
 * SUPERSTEP_NO_PROFILE at compile time removes the call sites (to measure
 * what they cost).
 */
struct bsp_observer {
    void (*init)(int64_t nprocs);
    void (*start)(uint32_t me, uint32_t nprocs);
    void (*sync_begin)(void);
    void (*sync_waited)(void);
    void (*sync_served)(void);
    void (*sync_end)(void);
    void (*end_begin)(void);
    void (*finish)(uint32_t nobserving);
};
/* Hidden: inside the library, so a -fPIC build tests it without the GOT. */
extern const struct bsp_observer *bsp_observer __attribute__((visibility("hidden")));
extern bool bsp_observing __attribute__((visibility("hidden")));

#ifndef SUPERSTEP_NO_PROFILE
#define OBSERVE(call)                               \
    do {                                            \
        if (__builtin_expect(bsp_observing, 0))     \
            bsp_observer->call;                     \
    } while (0)
#else /* compiled out: to measure what the hooks cost (bench/RESULTS.md) */
#define OBSERVE(call) ((void)0)
#endif

#endif
