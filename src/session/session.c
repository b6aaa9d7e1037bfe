/*
 * session.c - the helpers the host and its kernels share on the session
 * segment: sizes from the environment, the doorbell.
 */
#include "session/session.h"
#include "barrier/barrier.h"

#include <stdatomic.h>

uint64_t ebsp_size_from_env(enum setting s)
{
    uint64_t n = setting_num(s); /* at least 4K, at most 64G */
    return (n + 4095) & ~4095ull;
}

void ebsp_ring_doorbell(struct ebsp_shared *sh)
{
    atomic_fetch_add(&sh->doorbell, 1);
    wake_word(&sh->doorbell);
}
