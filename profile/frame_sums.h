/*
 * frame_sums: per frame name, the self and inclusive sums of every weight
 * of a profile, in one pass over its nodes: a node's values climb its
 * stack once, each name counted once per stack however often it recurses
 * (docs/FORMATS.md#reports). `cli report` and `cli diff --summary` rank
 * functions by them.
 */
#ifndef PROFILE_FRAME_SUMS_H
#define PROFILE_FRAME_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

#define FRAME_ECALL_PREFIX "[ecall:"

struct frame_sums {
    const struct profile *p;
    size_t nnames;
    uint64_t *self, *incl; /* [w * nnames + name id] */
    uint32_t *used;        /* the name ids the nodes use, in first-seen order */
    size_t nused;
};

/* Builds the sums of p. Returns 0, or -1 when memory runs out (s is freed either way by
 * frame_sums_free). */
int frame_sums_build(struct frame_sums *s, const struct profile *p);

void frame_sums_free(struct frame_sums *s);

static inline uint64_t frame_sums_self(const struct frame_sums *s, size_t w, uint32_t id)
{
    return s->self[w * s->nnames + id];
}

static inline uint64_t frame_sums_incl(const struct frame_sums *s, size_t w, uint32_t id)
{
    return s->incl[w * s->nnames + id];
}

/* Whether name `id` is a zkVM call's frame, [ecall:NAME]. */
bool frame_is_ecall(const struct strtab *names, uint32_t id);

/* The weight that counts zkVM calls: "instructions" (an ecall retires one), else the first. */
size_t frame_calls_weight(const struct profile *p);

#endif
