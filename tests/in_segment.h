/* in_segment.h - does the page holding an address map Superstep's shared
 * segment (/proc/self/maps)?  For the tests of registered areas moved into
 * the segment (src/bsp/mirror.c), so that they cannot pass on the old path. */
#ifndef SUPERSTEP_TEST_IN_SEGMENT_H
#define SUPERSTEP_TEST_IN_SEGMENT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static inline bool in_segment(const void *addr)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f, "cannot read /proc/self/maps");
    char line[512];
    bool seg = false;
    uintptr_t a = (uintptr_t)addr;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi)
            seg = strstr(line, "/memfd:superstep") != NULL;
    }
    fclose(f);
    return seg;
}
#endif
