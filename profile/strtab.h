/*
 * strtab: interned strings. Each distinct string gets a small id, so a
 * trie of named frames (folded files, perf profiles) can key its nodes by
 * id and compare names by integer.
 */
#ifndef PROFILE_STRTAB_H
#define PROFILE_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strtab {
    char **strings; /* by id; ids start at 1 (0 is "no string") */
    size_t *lengths;
    size_t count, capacity;
    uint32_t *slots; /* open addressing: ids, 0 empty */
    size_t slot_mask;
};

bool strtab_init(struct strtab *st);
void strtab_free(struct strtab *st);

/* The id of the first `len` bytes of `s` (copied), or 0 when memory runs out. */
uint32_t strtab_intern(struct strtab *st, const char *s, size_t len);

/* The string of an id returned by strtab_intern. */
static inline const char *strtab_get(const struct strtab *st, uint32_t id)
{
    return st->strings[id];
}

#endif
