/*
 * build_id: GNU build ids (the NT_GNU_BUILD_ID note a linker writes into
 * a binary): finding one in raw note data, printing it as perf names it
 * (lowercase hex), and comparing one found in a file with one the
 * perf.data file recorded. A matching build id is how a binary on disk
 * is known to be the one that ran.
 */
#ifndef PERF_BUILD_ID_H
#define PERF_BUILD_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/data/perf_abi.h"

struct build_id {
    uint8_t size; /* 0: none */
    uint8_t data[PERF_BUILD_ID_MAX];
};

/* Looks through ELF note data (Elf_Nhdr entries) for a GNU build id. */
bool notes_build_id(const uint8_t *notes, size_t len, struct build_id *out);

/* Lowercase hex of the id; `out` holds 2 * PERF_BUILD_ID_MAX + 1 bytes. */
void build_id_hex(const struct build_id *id, char *out);

static inline bool build_id_equal(const struct build_id *a, const struct build_id *b)
{
    for (unsigned i = 0; i < a->size; i++)
        if (a->data[i] != b->data[i])
            return false;
    return a->size == b->size && a->size > 0;
}

#endif
