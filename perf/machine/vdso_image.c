/*
 * vdso_image: finding the [vdso] mapping in /proc/self/maps, as perf's
 * find_vdso_map does, and copying it.
 */
#include "perf/machine/vdso_image.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The [vdso] mapping's range. Returns 0, or -1 when there is none. */
static int find_vdso(uint64_t *start, uint64_t *end)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return -1;
    char line[512];
    int rc = -1;
    while (rc != 0 && fgets(line, sizeof(line), maps))
        if (strstr(line, "[vdso]") && sscanf(line, "%" SCNx64 "-%" SCNx64, start, end) == 2 &&
            *end > *start)
            rc = 0;
    fclose(maps);
    return rc;
}

uint8_t *vdso_image_copy(size_t *size)
{
    uint64_t start, end;
    if (find_vdso(&start, &end))
        return NULL;
    uint8_t *copy = malloc((size_t)(end - start));
    if (!copy)
        return NULL;
    memcpy(copy, (const void *)(uintptr_t)start, (size_t)(end - start));
    *size = (size_t)(end - start);
    return copy;
}
