/*
 * profile: call stacks that carry one value per weight (instructions,
 * samples, and later a zkVM's cycles, gas or area: issue [10]). The stacks
 * are a name-keyed trie (keys are ids of a strtab, as folded_read and
 * named_trie_build make them); each weight has a name, a unit and one
 * value per node, the node's own value (what was spent while it was the
 * innermost frame). A node's frame may carry a source file and line
 * (issue [8] fills them; 0 is unknown), which the pprof writer passes on.
 *
 * A profile either owns its trie (profile_init: readers, merging) or
 * borrows one whose node counts are its one weight (profile_wrap: a guest
 * or perf profile handed to the writers), so today's one-weight tries
 * reach every writer without a copy, and a producer with several weights
 * fills an owned profile with profile_add_weight and profile_values.
 *
 * This is profile/'s public header: it brings the trie, the string table,
 * frame naming (frame_namer.h) and differential counts (diff_counts.h)
 * with it, so a program includes nothing else from profile/.
 */
#ifndef PROFILE_PROFILE_H
#define PROFILE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "profile/diff_counts.h"
#include "profile/frame_namer.h"
#include "profile/strtab.h"
#include "profile/trie.h"

#define PROFILE_MAX_WEIGHTS 32

struct profile_weight {
    char *name; /* "instructions", "samples", "cycles", ... */
    char *unit; /* "count", "bytes", ... (pprof's ValueType.unit) */
    bool named; /* false: a count whose file said nothing of it (folded) */
};

struct profile {
    struct trie *trie;    /* the stacks: the owned one below, or borrowed */
    struct strtab *names; /* frame names, keys of the trie's nodes */
    struct trie own_trie; /* when owned */
    struct strtab own_names;
    bool owned;
    size_t nweights;
    struct profile_weight weights[PROFILE_MAX_WEIGHTS];
    uint64_t *values[PROFILE_MAX_WEIGHTS]; /* by node; NULL: the nodes' counts */
    size_t values_capacity;                /* nodes the columns hold */
    uint32_t *frame_file;                  /* by name id: file's name id, 0 unknown */
    uint32_t *frame_line;                  /* by name id: line, 0 unknown (issue [8]) */
    size_t frame_capacity;
};

/* An empty owned profile with no weights. False when memory runs out. */
bool profile_init(struct profile *p);

/*
 * A profile of one weight `name` (unit "count") over `t`, whose node
 * counts are its values; `t` and `names` are borrowed and must outlive it.
 * False when memory runs out.
 */
bool profile_wrap(struct profile *p, struct trie *t, struct strtab *names, const char *name);

void profile_free(struct profile *p);

/*
 * Adds a weight (owned profiles only; values start at 0). Returns its
 * index, or -1: ENOMEM, or E2BIG past PROFILE_MAX_WEIGHTS.
 */
int profile_add_weight(struct profile *p, const char *name, const char *unit, bool named);

/* The index of the weight called `name`, or -1. */
int profile_find_weight(const struct profile *p, const char *name);

/* The weight's display name ("samples" for an unnamed count). */
const char *profile_weight_name(const struct profile *p, size_t w);

/* Node `node`'s own value of weight `w`. */
static inline uint64_t profile_value(const struct profile *p, size_t w, uint32_t node)
{
    return p->values[w] ? p->values[w][node] : p->trie->nodes[node].count;
}

/*
 * The column of weight `w` (owned profiles), grown to cover every node
 * of the trie; NULL when memory runs out.
 */
uint64_t *profile_values(struct profile *p, size_t w);

/*
 * Turns the trie's node counts into a new weight (an owned profile read
 * from a one-count file). Returns its index, or -1 as profile_add_weight.
 */
int profile_adopt_counts(struct profile *p, const char *name, const char *unit, bool named);

/*
 * Loads weight `w`'s values into the trie's node counts, so that the
 * one-count writers (folded, SVG, speedscope) draw it. Returns 0, or -1
 * (EINVAL) for a borrowed profile asked for a weight it does not hold.
 */
int profile_select_weight(struct profile *p, size_t w);

/* Sets a frame's source file and line (0: unknown). Returns 0, or -1 (ENOMEM). */
int profile_set_frame_source(struct profile *p, uint32_t name_id, const char *file, uint32_t line);

/* The sum of weight `w` over every node. */
uint64_t profile_total(const struct profile *p, size_t w);

/*
 * Adds `src`'s stacks and values to `dst` (owned): frames matched by name,
 * weights by name (an unnamed count goes to dst's first weight, and a
 * named one to an unnamed first weight), new weights added. Returns 0, or
 * -1 with `e` set (ERROR_NO_MEMORY, ERROR_UNSUPPORTED for too many
 * weights or a sum past 2^63).
 */
int profile_merge(struct profile *dst, const struct profile *src, struct error *e);

/* The weight `name` names (NULL: the first), or -1 after setting `e` (ERROR_UNSUPPORTED). */
int profile_weight_by_option(const struct profile *p, const char *name, struct error *e);

#endif
