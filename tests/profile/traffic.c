/* traffic.c - a BSP program with known traffic per superstep, for the
 * profiler tests (tests/profile/trace.sh checks its trace).  With p
 * processors, h counted in bytes (the most any processor sends or receives):
 *   superstep 0: registrations, tag size 4              h = 0
 *   superstep 1: processor s puts s+1 single words
 *                (8 bytes each) to s+1 mod p             h = 8p,  h_records = p
 *   superstep 2: every processor sends 2 messages of
 *                16 bytes with a 4-byte tag to 0         h = 40p, h_records = 2p
 *   superstep 3: processor s gets 3 words (24 bytes)
 *                from s+1 mod p                          h = 24,  h_records = 1
 *   superstep 4: processor s hpputs 1000 bytes to s+1    h = 1000
 *   superstep 5: ended by bsp_end                        h = 0
 * Without SUPERSTEP_PROFILE it only checks that the data arrived.
 * Usage: traffic [abort | crash PID]   (abort: the last processor aborts in
 * superstep 2; crash: processor PID is killed by SIGSEGV there) */
// RUN: n=1
// RUN: n=3
// RUN: n=2 args="abort" fail="bsp_abort.*aborting in superstep 2"
#include <bsp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    bool abort_early = argc > 1 && !strcmp(argv[1], "abort");
    int crash = argc > 2 && !strcmp(argv[1], "crash") ? atoi(argv[2]) : -1;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs(), right = (s + 1) % p, left = (s + p - 1) % p;
    static uint64_t words[4096], got[3];
    static char big[1000], bigin[1000];
    for (int i = 0; i < 4096; i++)
        words[i] = ((uint64_t)s << 32) + (uint64_t)i;
    memset(big, 'a' + s % 26, sizeof big);
    bsp_push_reg(words, sizeof words);
    bsp_push_reg(bigin, sizeof bigin);
    int tagsize = 4;
    bsp_set_tagsize(&tagsize);
    bsp_sync(); /* 0 */

    uint64_t mine[64];
    for (int i = 0; i <= s && i < 64; i++) {
        mine[i] = 1000000u + (uint64_t)s * 100 + (uint64_t)i;
        bsp_put(right, &mine[i], words, (2048 + i) * sizeof(uint64_t), sizeof(uint64_t));
    }
    bsp_sync(); /* 1 */
    for (int i = 0; i <= left && i < 64; i++)
        CHECK(words[2048 + i] == 1000000u + (uint64_t)left * 100 + (uint64_t)i, "processor %d: put %d lost", s, i);

    char payload[16];
    memset(payload, 's', sizeof payload);
    for (int k = 0; k < 2; k++) {
        uint32_t tag = (uint32_t)(s * 2 + k);
        bsp_send(0, &tag, payload, sizeof payload);
    }
    bsp_sync(); /* 2 */
    int n, bytes;
    bsp_qsize(&n, &bytes);
    CHECK(n == (s == 0 ? 2 * p : 0), "processor %d: %d messages queued", s, n);

    if (abort_early && s == p - 1)
        bsp_abort("traffic: aborting in superstep %d as asked", 2);
    if (s == crash)
        raise(SIGSEGV);
    bsp_get(right, words, 0, got, sizeof got);
    bsp_sync(); /* 3 */
    CHECK(got[2] == ((uint64_t)right << 32) + 2, "processor %d: get returned %llx", s, (unsigned long long)got[2]);

    bsp_hpput(right, big, bigin, 0, sizeof big);
    bsp_sync(); /* 4 */
    CHECK(bigin[999] == 'a' + left % 26, "processor %d: hpput lost", s);

    bsp_end();
    return 0;
}
