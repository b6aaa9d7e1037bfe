/* check.h - assertions for Superstep's self-checking test programs.
 * CHECK(cond, fmt, ...) prints the failing condition with the processor id
 * (when one is known) and exits non-zero; the runner then reports it. */
#ifndef SUPERSTEP_TEST_CHECK_H
#define SUPERSTEP_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "CHECK failed %s:%d: %s: ", __FILE__, __LINE__,  \
                    #cond);                                                  \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            fflush(stderr);                                                  \
            abort();                                                         \
        }                                                                    \
    } while (0)
#endif
