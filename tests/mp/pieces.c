/* pieces.c - long messages, which mp.h over MPI sends as a header and then
 * payload pieces of at most SUPERSTEP_MPI_PIECE bytes from a private copy.
 * Node 1 sends every SIZE to node 2, ROUNDS times, with an mp_sync after
 * each round, all before node 2 takes any of them; node 2 checks every
 * byte of every message.  A copy must outlive all of its pieces: released
 * once a short last piece was done (issue 36), it was reused by a later
 * message's copy as node 1 reaped its sends (wrong bytes here: the 40
 * rounds of small pieces) or, too large to keep, unmapped (SIGSEGV in
 * node 1: 64 MiB + 1 in 64 KiB pieces, and 1 GiB + 1 and 2 GiB + 1 in the
 * default 1 GiB pieces) while the earlier pieces were still being sent.
 * On shm the same messages travel whole.
 * Usage: pieces ROUNDS SIZE... */
// RUN: n=2 env="SUPERSTEP_MPI_PIECE=64K" args="40 65537 131073 196608 1048577 5000 4072 4073"
// RUN: n=2 env="SUPERSTEP_MPI_PIECE=64K" args="2 67108865"
// RUN: n=2 args="1 1073741825" large="4 GiB of memory" timeout=300
// RUN: n=2 args="1 2147483649" large="8 GiB of memory" timeout=600
#include "mp_test.h"

#include <stdio.h>

#define TAG_BASE 100

static uint64_t key_of(int round, int i)
{
    return mix((uint64_t)round << 32 | (uint64_t)i);
}

/* Node 1: every size, one round; the buffer is the caller's again at once. */
static void send_round(int round, int nsizes, char **sizes)
{
    for (int i = 0; i < nsizes; i++) {
        size_t size = (size_t)strtoull(sizes[i], NULL, 10);
        unsigned char *p = malloc(size);
        CHECK(p, "malloc %zu", size);
        fill(p, size, key_of(round, i));
        CHECK(mp_send(2, TAG_BASE + i, p, size), "send %zu bytes", size);
        free(p);
    }
}

/* Node 2: every message of every round, in order, every byte checked. */
static void receive_all(int rounds, int nsizes, char **sizes)
{
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < nsizes; i++) {
            size_t size = (size_t)strtoull(sizes[i], NULL, 10);
            unsigned char *p = malloc(size);
            CHECK(p, "malloc %zu", size);
            int tag = 0, from = 0;
            size_t len = mp_recv(size, p, &tag, &from);
            CHECK(len == size && tag == TAG_BASE + i && from == 1, "round %d message %d: %zu bytes, tag %d from %d",
                  r, i, len, tag, from);
            size_t bad = bad_byte(p, size, key_of(r, i));
            CHECK(bad == (size_t)-1, "round %d: byte %zu of the %zu-byte message is wrong", r, bad, size);
            free(p);
        }
}

int main(int argc, char **argv)
{
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    CHECK(argc > 2 && mp_npes() == 2, "usage: pieces ROUNDS SIZE..., two nodes");
    int rounds = atoi(argv[1]), nsizes = argc - 2;
    for (int r = 0; r < rounds; r++) {
        if (mp_is_main())
            send_round(r, nsizes, argv + 2);
        CHECK(mp_sync(), "barrier");
    }
    if (!mp_is_main())
        receive_all(rounds, nsizes, argv + 2);
    CHECK(mp_sync(), "barrier");
    printf("node %d: %d rounds of %d messages\n", mp_this_pe(), rounds, nsizes);
    finish();
    return 0;
}
