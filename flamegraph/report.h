/*
 * report: a profile summed up without a browser (docs/FORMATS.md#reports):
 * for each weight its total and the top functions by self value (spent
 * while the function was the innermost frame) and by inclusive value
 * (spent while it was anywhere on the stack, counted once however often
 * it recurses), and each zkVM call's ([ecall:NAME] frame's) calls and
 * cost per weight; as text or JSON. A function is a frame name.
 */
#ifndef FLAMEGRAPH_REPORT_H
#define FLAMEGRAPH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "profile/profile.h"

struct report_options {
    size_t top;                /* rows per table; 0: all */
    bool json;                 /* JSON instead of text */
    const char *const *inputs; /* the files it sums, named in the report */
    size_t ninputs;
};

/* Returns 0, or -1 with errno set (ENOMEM, or the write error). */
int report_write(FILE *out, const struct profile *p, const struct report_options *o);

/* The report of a one-weight trie (keys: ids of `names`), its weight called `weight`. */
int report_write_trie(FILE *out, struct trie *t, struct strtab *names, const char *weight,
                      const struct report_options *o);

#endif
