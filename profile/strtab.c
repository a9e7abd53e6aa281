/*
 * strtab: an array of strings plus an open-addressing hash of their ids.
 *
 * Why not uthash, which the project uses for its other tables: interning is
 * on the per-frame path of `perf collapse` and of reading folded files, and
 * there uthash was not as fast. scripts/bench_tables, interning every frame
 * name of 3 million frames drawn from real perf profiles: uthash took 1.2 to
 * 1.5 times as long on most runs (0.97 once, with python's longer names,
 * where its hash reads 12 bytes a step); for a guest profile's names, 0.97
 * to 1.23 times.
 */
#include "profile/strtab.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

bool strtab_init(struct strtab *st)
{
    memset(st, 0, sizeof(*st));
    st->capacity = 256;
    st->strings = calloc(st->capacity, sizeof(*st->strings));
    st->lengths = calloc(st->capacity, sizeof(*st->lengths));
    st->slot_mask = 511;
    st->slots = calloc(st->slot_mask + 1, sizeof(*st->slots));
    if (!st->strings || !st->lengths || !st->slots) {
        strtab_free(st);
        return false;
    }
    st->count = 1; /* id 0 is "no string" */
    return true;
}

void strtab_free(struct strtab *st)
{
    for (size_t i = 1; i < st->count; i++)
        free(st->strings[i]);
    free(st->strings);
    free(st->lengths);
    free(st->slots);
    memset(st, 0, sizeof(*st));
}

/* The slot holding this string's id, or the empty slot where it belongs. */
static uint32_t *find_slot(const struct strtab *st, uint32_t *slots, size_t mask, const char *s,
                           size_t len)
{
    for (size_t i = hash_bytes(s, len) & mask;; i = (i + 1) & mask) {
        uint32_t id = slots[i];
        if (!id)
            return &slots[i];
        if (st->lengths[id] == len && memcmp(st->strings[id], s, len) == 0)
            return &slots[i];
    }
}

static bool grow(struct strtab *st)
{
    size_t mask = st->slot_mask * 2 + 1;
    uint32_t *slots = calloc(mask + 1, sizeof(*slots));
    if (!slots)
        return false;
    for (size_t id = 1; id < st->count; id++) {
        *find_slot(st, slots, mask, st->strings[id], st->lengths[id]) = (uint32_t)id;
    }
    free(st->slots);
    st->slots = slots;
    st->slot_mask = mask;
    return true;
}

uint32_t strtab_intern(struct strtab *st, const char *s, size_t len)
{
    uint32_t *slot = find_slot(st, st->slots, st->slot_mask, s, len);
    if (*slot)
        return *slot;
    if (st->count >= UINT32_MAX - 1)
        return 0;
    if ((st->count + 1) * 2 > st->slot_mask + 1) {
        if (!grow(st))
            return 0;
        slot = find_slot(st, st->slots, st->slot_mask, s, len);
    }
    if (st->count == st->capacity) {
        char **strings = realloc(st->strings, st->capacity * 2 * sizeof(*strings));
        if (strings)
            st->strings = strings;
        size_t *lengths = realloc(st->lengths, st->capacity * 2 * sizeof(*lengths));
        if (lengths)
            st->lengths = lengths;
        if (!strings || !lengths)
            return 0;
        st->capacity *= 2;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return 0;
    memcpy(copy, s, len);
    copy[len] = '\0';
    uint32_t id = (uint32_t)st->count++;
    st->strings[id] = copy;
    st->lengths[id] = len;
    *slot = id;
    return id;
}
